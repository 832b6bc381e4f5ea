import { storedTranscript, toApiTranscript } from '@moments/domain/transcript';
import { randomUUID } from 'node:crypto';
import type {
  QuestionQuote,
  Task,
  TaskKind,
  TaskPartial,
  TaskStartParams,
  Transcript,
  VideoMeta,
} from '@moments/contract';
import { ERROR_CODES, UPLOAD_URL_PREFIX } from '@moments/contract';
import { normalizeVideoUrl } from '@moments/domain/links';
import { resolveMediaUrl } from '@moments/net';
import type { Translator } from '@moments/ai/translate';
import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../queue/queue.js';
import { isUuid } from '../../db/owned.js';
import type { Storage } from '../../storage/index.js';
import { MediaAnalysesRepository } from '../exports/media-analyses.repository.js';
import { toTaskDto, type TaskRow } from './task-mapper.js';
import type { ChunkedTranscription } from './chunked-transcription.js';
import type { TaskHooks, TaskRunner } from './task-runner.js';
import type { TaskCharges } from '../billing/index.js';
import { UploadsRepository } from '../uploads/uploads.repository.js';
import { SummariesRepository } from '../summaries/summaries.repository.js';
import type { TasksRepository } from './tasks.repository.js';

/** A task's folder in storage: its downloaded source and everything made from it. */
const taskFolder = (userId: string, taskId: string) => `users/${userId}/tasks/${taskId}/`;
/** Folders of what a task makes from its source (speech chunks, moment pictures, shared spans). */
const TASK_DERIVED_FOLDERS = ['asr', 'moments', 'spans'] as const;

/** What a follow-up takes over from the task it follows (nothing when the video differs). */
interface ReusedWork {
  mediaKey: string | null;
  durationMs?: number | null;
  transcript?: Awaited<ReturnType<TasksRepository['findTranscript']>>;
}

export interface RetryParams {
  id: string;
  source_lang?: string;
  target_lang?: string;
  caption_display?: Task['caption_display'];
  reset_language?: boolean;
}

export interface TasksServiceOptions {
  db: Db;
  repo: TasksRepository;
  queue: JobQueue;
  runner: TaskRunner;
  storage: Storage;
  hooks: TaskHooks;
  allowHosts: string[];
  /** The task's charges (modules/billing): refused at start when they cannot be paid. */
  charges: TaskCharges;
  /** Tasks one user may have processing at once; unlimited when absent. */
  maxRunningPerUser?: number;
  translator?: Translator;
  transcription?: Pick<ChunkedTranscription, 'soFar'>;
}

/** Starting, retrying, listing and deleting tasks; the work itself runs in TaskRunner. */
export class TasksService {
  /** Run before a task's row is deleted (`whenDeleting`). */
  private readonly deleteListeners: ((task: TaskRow) => Promise<void>)[] = [];

  private readonly deps: TasksServiceOptions & {
    maxRunningPerUser: NonNullable<TasksServiceOptions['maxRunningPerUser']>;
  };

  constructor(options: TasksServiceOptions) {
    this.deps = {
      ...options,
      maxRunningPerUser: options.maxRunningPerUser ?? Number.POSITIVE_INFINITY,
    };
  }

  /**
   * One user cannot fill the workers: beyond the limit, starting another task answers 429. Called
   * early to refuse cheaply, then again with `tx` inside the insert's transaction, under the
   * user's lock, so that concurrent starts cannot all pass the first check.
   */
  private async assertRunSlot(userId: string, tx?: Db) {
    const running = tx
      ? await this.deps.repo.countRunning(userId, tx, true)
      : await this.deps.repo.countRunning(userId);
    if (running >= this.deps.maxRunningPerUser) {
      throw new AppError(
        ERROR_CODES.TOO_MANY_RUNNING,
        429,
        `You already have ${this.deps.maxRunningPerUser} videos processing. Start this one when one of them is done.`,
      );
    }
  }

  /**
   * A translation this install cannot make is refused before anything is stored or charged, so no
   * task ends DONE without the translation it was asked for.
   */
  private async assertCanTranslate(sourceLang: string, targetLang: string | null | undefined) {
    if (!targetLang || !this.deps.translator) return;
    try {
      await this.deps.translator.translateLines([], sourceLang, targetLang);
    } catch (error) {
      if ((error as { code?: string }).code === 'TRANSLATION_UNAVAILABLE') {
        throw new AppError(
          ERROR_CODES.TRANSLATION_UNAVAILABLE,
          422,
          `Translating captions into "${targetLang}" needs a configured LLM endpoint (LLM_BASE_URL); no offline engine is installed. Start without a target language for captions in the spoken language.`,
        );
      }
      throw error;
    }
  }

  async start(
    userId: string,
    meta: VideoMeta,
    params: TaskStartParams,
    kind: Extract<TaskKind, 'caption'> | undefined,
  ): Promise<Task> {
    await this.assertRunSlot(userId);
    await this.assertCanTranslate(params.source_lang, params.target_lang);
    const video = await this.checkedVideo(userId, meta, params.url_source);
    const query = params.query?.trim() || null;
    const taskKind = kind ?? (query ? 'search' : 'viral');
    let rootTaskId: string | null = null;
    let reused: ReusedWork = { mediaKey: null };
    if (params.root_task_id) {
      const root = await this.deps.repo.findOwned(userId, params.root_task_id);
      rootTaskId = root.rootTaskId ?? root.id;
      reused = await this.reusedFrom(root, video.url);
    }
    const reusesTranscript = !!reused.transcript;
    // The length the server knows (an upload, the root of a follow-up) is charged at start; a
    // link's is known once downloaded, so the length its page reported is checked now and the
    // charge follows the probe (packages/domain taskQuote either way).
    const knownMs = reused.durationMs ?? (video.duration != null ? video.duration * 1000 : null);
    const claimedMs =
      knownMs ?? (meta.duration != null && meta.duration > 0 ? meta.duration * 1000 : null);
    // Unknown length: at least the shortest video's price (one started minute) must be there.
    await this.deps.charges.assertStartable(
      userId,
      { kind: taskKind, reusesTranscript },
      claimedMs ?? 0,
    );
    const runToken = randomUUID();
    // Row and queue job in one transaction: a failed send leaves no task
    // that nothing will ever run.
    const row = await this.deps.db.transaction(async (tx) => {
      await this.assertRunSlot(userId, tx);
      const inserted = await this.deps.repo.insert(
        {
          userId,
          rootTaskId,
          kind: taskKind,
          urlSource: video.video_platform === 'upload' ? 'upload' : params.url_source,
          video,
          sourceLang: params.source_lang,
          targetLang: params.target_lang ?? null,
          captionDisplay: params.caption_display,
          actAs: kind === 'caption' ? null : params.act_as?.trim() || null,
          query: kind === 'caption' ? null : query,
          clipLength: params.clip_length ?? 'auto',
          status: 'START',
          stage: 'queued',
          mediaKey: reused.mediaKey,
          reusesTranscript,
          ...(knownMs !== null ? { durationMs: Math.round(knownMs) } : {}),
          runToken,
        },
        tx,
      );
      if (reused.transcript) {
        const { taskId: _old, createdAt: _at, ...copy } = reused.transcript;
        await this.deps.repo.saveTranscript({ ...copy, taskId: inserted.id }, tx);
        await new SummariesRepository(this.deps.db).copy(reused.transcript.taskId, inserted.id, tx);
      }
      if (knownMs !== null) {
        const quote = await this.deps.charges.charge(inserted, knownMs, tx);
        inserted.costCredits = quote.total;
        await this.deps.repo.update(inserted.id, { costCredits: quote.total }, tx);
      }
      await this.deps.queue.send(
        'task-run',
        { taskId: inserted.id, runToken },
        { tx, expireInSeconds: this.deps.runner.expirySeconds((video.duration ?? 0) * 1000) },
      );
      return inserted;
    });
    this.deps.queue.wake('task-run'); // committed: a worker in this process starts it now
    await this.deps.hooks.onTaskChanged(row, { statusChanged: true });
    return toTaskDto(row);
  }

  /** A follow-up query on the same video reuses its media and transcript instead of redoing them. */
  private async reusedFrom(root: TaskRow, videoUrl: string): Promise<ReusedWork> {
    if ((root.video as VideoMeta).url !== videoUrl || !root.mediaKey) return { mediaKey: null };
    return {
      mediaKey: root.mediaKey,
      durationMs: root.durationMs,
      transcript: await this.deps.repo.findTranscript(root.id),
    };
  }

  /** What a question on `rootTaskId`'s video costs, decided the way start decides it. */
  async questionQuote(userId: string, rootTaskId: string): Promise<QuestionQuote> {
    const root = await this.deps.repo.findOwned(userId, rootTaskId);
    const reused = await this.reusedFrom(root, (root.video as VideoMeta).url);
    const reusesTranscript = !!reused.transcript;
    const durationMs = root.durationMs;
    const quote = durationMs
      ? this.deps.charges.quote({ kind: 'search', reusesTranscript }, durationMs)
      : null;
    return {
      root_task_id: root.id,
      reuses_transcript: reusesTranscript,
      run: quote?.run ?? null,
      summary: quote?.summary ?? null,
      total: quote?.total ?? null,
    };
  }

  async retry(userId: string, params: RetryParams): Promise<Task> {
    const task = await this.deps.repo.findOwned(userId, params.id);
    if (task.status === 'START' || task.status === 'IN_PROGRESS') {
      throw new AppError(ERROR_CODES.TASK_NOT_RETRYABLE, 409, 'This task is still running.');
    }
    await this.assertRunSlot(userId);
    const sourceLang = params.source_lang ?? task.sourceLang;
    await this.assertCanTranslate(sourceLang, params.target_lang);
    const resetTranscript = params.reset_language || sourceLang !== task.sourceLang;
    const reusesTranscript = task.reusesTranscript && !resetTranscript;
    // Retry is refused the same way as Start when the balance or the plan cannot take it.
    if (task.durationMs) {
      await this.deps.charges.assertStartable(
        userId,
        { kind: task.kind, reusesTranscript },
        task.durationMs,
      );
    }
    const runToken = randomUUID();
    const row = await this.deps.db.transaction(async (tx) => {
      await this.assertRunSlot(userId, tx);
      if (resetTranscript) await this.deps.repo.deleteTranscript(task.id, tx);
      const updated = await this.deps.repo.update(
        task.id,
        {
          status: 'START',
          stage: 'queued',
          progress: 0,
          errorReason: null,
          warnings: [],
          sourceLang,
          targetLang: params.target_lang ?? task.targetLang,
          captionDisplay: params.caption_display ?? task.captionDisplay,
          attempts: task.attempts + 1,
          reusesTranscript,
          runToken,
          startedAt: null,
          heartbeatAt: new Date(),
        },
        tx,
      );
      if (!updated) throw notFound('Task');
      if (updated.durationMs) {
        await this.deps.charges.charge(updated, updated.durationMs, tx);
        updated.costCredits = await this.deps.charges.shownCost(updated.id, tx);
        await this.deps.repo.update(updated.id, { costCredits: updated.costCredits }, tx);
      }
      await this.deps.queue.send(
        'task-run',
        { taskId: updated.id, runToken },
        { tx, expireInSeconds: this.deps.runner.expirySeconds(updated.durationMs) },
      );
      return updated;
    });
    this.deps.runner.cancel(task.id); // the old run, before the new one can start here
    this.deps.queue.wake('task-run');
    await this.deps.hooks.onTaskChanged(row, { statusChanged: true });
    return toTaskDto(row);
  }

  async list(userId: string, page: number, size: number): Promise<Task[]> {
    const rows = await this.deps.repo.listForUser(userId, size, (page - 1) * size);
    return rows.map(toTaskDto);
  }

  async get(userId: string, id: unknown): Promise<Task> {
    return toTaskDto(await this.deps.repo.findOwned(userId, id));
  }

  /**
   * Called with a task about to be deleted, before its row goes (its exports are found by it):
   * the export module removes the task's exports and their files this way.
   */
  whenDeleting(listener: (task: TaskRow) => Promise<void>): void {
    this.deleteListeners.push(listener);
  }

  async delete(userId: string, id: unknown): Promise<void> {
    const task = await this.deps.repo.findOwned(userId, id);
    this.deps.runner.cancel(task.id);
    for (const listener of this.deleteListeners) await listener(task);
    await this.deps.repo.delete(task.id);
    // An unfinished task costs nothing, its summary included (a worker in another process
    // refunds too, idempotently; a refund that fails now is retried by the outbox).
    if (task.status !== 'DONE') {
      const reused = task.rootTaskId === null && (await this.deps.repo.transcriptReused(task.id));
      await this.deps.charges.refundDeleted(task, reused);
    }
    await this.deleteFiles(task);
  }

  /**
   * What a deleted task leaves in storage goes (its thumbnails, pictures, shared spans, speech
   * chunks and downloaded source), except media another task still reads: a follow-up reads
   * its root's downloaded source, which then stays until the last task reading it is deleted.
   * Uploaded media belongs to the upload, not the task (DELETE /api/upload/{id} removes it).
   */
  private async deleteFiles(task: TaskRow): Promise<void> {
    const folder = taskFolder(task.userId, task.id);
    const mediaKey = task.mediaKey;
    const sourceStays = !!mediaKey && (await this.deps.repo.mediaKeyInUse(mediaKey));
    if (mediaKey?.startsWith(folder) && sourceStays) {
      for (const sub of TASK_DERIVED_FOLDERS)
        await this.deps.storage.deletePrefix(`${folder}${sub}/`);
      if (task.thumbnailKey?.startsWith(folder)) await this.deps.storage.delete(task.thumbnailKey);
      await this.deps.storage.delete(`${folder}thumbnail.jpg`);
      return;
    }
    await this.deps.storage.deletePrefix(folder);
    if (!mediaKey || sourceStays || mediaKey.startsWith(`users/${task.userId}/uploads/`)) return;
    // A follow-up was the last reader of a source downloaded by a root deleted before it.
    const owner = new RegExp(`^users/${task.userId}/tasks/([0-9a-f-]{36})/`).exec(mediaKey);
    if (owner && owner[1] !== task.id && !(await this.deps.repo.findById(owner[1]!))) {
      await this.deps.storage.deletePrefix(taskFolder(task.userId, owner[1]!));
    }
    // What was measured about the deleted media goes too (framing plans, loudness).
    await new MediaAnalysesRepository(this.deps.db).deleteForMedia(mediaKey);
  }

  async history(userId: string, rootTaskId: unknown): Promise<Task[]> {
    if (!isUuid(rootTaskId)) throw notFound('Task');
    const rows = await this.deps.repo.history(userId, rootTaskId);
    if (!rows.length) throw notFound('Task');
    return rows.map(toTaskDto);
  }

  async transcript(userId: string, id: unknown): Promise<Transcript> {
    const task = await this.deps.repo.findOwned(userId, id);
    const row = await this.deps.repo.findTranscript(task.id);
    if (!row) {
      throw new AppError(ERROR_CODES.NOT_FOUND, 404, 'This task has no transcript yet.');
    }
    return toApiTranscript(task.id, storedTranscript(row));
  }

  /**
   * The transcript heard so far and its provisional moments, for a task page opened
   * while a long task transcribes (pushes only carry what was added after it opened); null when
   * no chunk is done yet, or the task is no longer transcribing.
   */
  async partial(userId: string, id: unknown): Promise<TaskPartial | null> {
    const task = await this.deps.repo.findOwned(userId, id);
    if (task.status !== 'IN_PROGRESS' || !this.deps.hooks.partial || !this.deps.transcription)
      return null;
    const growth = await this.deps.transcription.soFar(task.id);
    return growth ? this.deps.hooks.partial(task, growth) : null;
  }

  /** The video meta a task may start from: an owned upload, or a public http(s) link. */
  private async checkedVideo(
    userId: string,
    meta: VideoMeta,
    urlSource: string,
  ): Promise<VideoMeta> {
    if (meta.url.startsWith(UPLOAD_URL_PREFIX) || urlSource === 'upload') {
      const uploadId = meta.url.startsWith(UPLOAD_URL_PREFIX)
        ? meta.url.slice(UPLOAD_URL_PREFIX.length)
        : undefined;
      const upload = await new UploadsRepository(this.deps.db).findOwned(userId, uploadId);
      return {
        ...SERVER_FILLED_META,
        url: `${UPLOAD_URL_PREFIX}${upload.id}`,
        video_platform: 'upload',
        title: meta.title || upload.originalName,
        duration: upload.durationMs != null ? upload.durationMs / 1000 : null,
      };
    }
    let url: string;
    try {
      url = normalizeVideoUrl(meta.url);
    } catch (error) {
      throw new AppError(ERROR_CODES.INVALID_URL, 422, (error as Error).message);
    }
    // Fail fast on what we can see now (private address, 404, a page with no video); the worker
    // checks again before downloading.
    const resolved = await resolveMediaUrl(url, {
      allowHosts: this.deps.allowHosts,
      timeoutMs: 15_000,
    });
    // Only the link and the user's title are taken from the client; the worker fills in the
    // thumbnail, duration and facts from what it downloads.
    return { ...SERVER_FILLED_META, title: meta.title, url, video_platform: resolved.source };
  }
}

/** Video facts the server fills in itself: the client's values are dropped, not trusted. */
const SERVER_FILLED_META = {
  thumbnail: null,
  duration: null,
  channel_title: null,
  view_count: null,
  published_at: null,
} satisfies Partial<VideoMeta>;

export type { TaskRow };
