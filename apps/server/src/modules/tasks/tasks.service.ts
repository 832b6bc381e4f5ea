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
import { resolveMediaUrl } from '@moments/media/net';
import type { Translator } from '@moments/ai/translate';
import type { Db } from '../../db/client.js';
import { tasks, uploads } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../queue/queue.js';
import { findOwned, isUuid } from '../../db/owned.js';
import type { Storage } from '../../storage/index.js';
import { MediaAnalysesRepository } from '../exports/media-analyses.repository.js';
import { toTaskDto, type TaskRow } from './task-mapper.js';
import type { ChunkedTranscription } from './chunked-transcription.js';
import type { TaskHooks, TaskRunner } from './task-runner.js';
import type { TaskCharges } from '../billing/index.js';
import { SummariesRepository } from '../summaries/summaries.repository.js';
import type { TasksRepository } from './tasks.repository.js';

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
  private readonly db: Db;
  private readonly repo: TasksRepository;
  private readonly queue: JobQueue;
  private readonly runner: TaskRunner;
  private readonly storage: Storage;
  private readonly hooks: TaskHooks;
  private readonly allowHosts: string[];
  private readonly charges: TaskCharges;
  private readonly maxRunningPerUser: number;
  private readonly translator?: Translator;
  private readonly transcription?: Pick<ChunkedTranscription, 'soFar'>;

  constructor(options: TasksServiceOptions) {
    this.db = options.db;
    this.repo = options.repo;
    this.queue = options.queue;
    this.runner = options.runner;
    this.storage = options.storage;
    this.hooks = options.hooks;
    this.allowHosts = options.allowHosts;
    this.charges = options.charges;
    this.maxRunningPerUser = options.maxRunningPerUser ?? Number.POSITIVE_INFINITY;
    this.translator = options.translator;
    this.transcription = options.transcription;
  }

  /**
   * One user cannot fill the workers: beyond the limit, starting another task answers 429. Called
   * early to refuse cheaply, then again with `tx` inside the insert's transaction, under the
   * user's lock, so that concurrent starts cannot all pass the first check.
   */
  private async assertRunSlot(userId: string, tx?: Db) {
    const running = tx
      ? await this.repo.countRunning(userId, tx, true)
      : await this.repo.countRunning(userId);
    if (running >= this.maxRunningPerUser) {
      throw new AppError(
        ERROR_CODES.TOO_MANY_RUNNING,
        429,
        `You already have ${this.maxRunningPerUser} videos processing. Start this one when one of them is done.`,
      );
    }
  }

  /**
   * A translation this install cannot make is refused before anything is stored or charged, so no
   * task ends DONE without the translation it was asked for.
   */
  private async assertCanTranslate(sourceLang: string, targetLang: string | null | undefined) {
    if (!targetLang || !this.translator) return;
    try {
      await this.translator.translateLines([], sourceLang, targetLang);
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
      const root = await findOwned(this.db, tasks, userId, params.root_task_id, 'Task');
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
    await this.charges.assertStartable(
      userId,
      { kind: taskKind, reusesTranscript },
      claimedMs ?? 0,
    );
    const runToken = randomUUID();
    // Row and queue job in one transaction: a failed send leaves no task
    // that nothing will ever run.
    const row = await this.db.transaction(async (tx) => {
      await this.assertRunSlot(userId, tx);
      const inserted = await this.repo.insert(
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
        await this.repo.saveTranscript({ ...copy, taskId: inserted.id }, tx);
        await new SummariesRepository(this.db).copy(reused.transcript.taskId, inserted.id, tx);
      }
      if (knownMs !== null) {
        const quote = await this.charges.charge(inserted, knownMs, tx);
        inserted.costCredits = quote.total;
        await this.repo.update(inserted.id, { costCredits: quote.total }, tx);
      }
      await this.queue.send(
        'task-run',
        { taskId: inserted.id, runToken },
        { tx, expireInSeconds: this.runner.expirySeconds((video.duration ?? 0) * 1000) },
      );
      return inserted;
    });
    this.queue.wake('task-run'); // committed: a worker in this process starts it now
    await this.hooks.onTaskChanged(row, { statusChanged: true });
    return toTaskDto(row);
  }

  /** A follow-up query on the same video reuses its media and transcript instead of redoing them. */
  private async reusedFrom(root: TaskRow, videoUrl: string): Promise<ReusedWork> {
    if ((root.video as VideoMeta).url !== videoUrl || !root.mediaKey) return { mediaKey: null };
    return {
      mediaKey: root.mediaKey,
      durationMs: root.durationMs,
      transcript: await this.repo.findTranscript(root.id),
    };
  }

  /** What a question on `rootTaskId`'s video costs, decided the way start decides it. */
  async questionQuote(userId: string, rootTaskId: string): Promise<QuestionQuote> {
    const root = await findOwned(this.db, tasks, userId, rootTaskId, 'Task');
    const reused = await this.reusedFrom(root, (root.video as VideoMeta).url);
    const reusesTranscript = !!reused.transcript;
    const durationMs = root.durationMs;
    const quote = durationMs
      ? this.charges.quote({ kind: 'search', reusesTranscript }, durationMs)
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
    const task = await findOwned(this.db, tasks, userId, params.id, 'Task');
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
      await this.charges.assertStartable(
        userId,
        { kind: task.kind, reusesTranscript },
        task.durationMs,
      );
    }
    const runToken = randomUUID();
    const row = await this.db.transaction(async (tx) => {
      await this.assertRunSlot(userId, tx);
      if (resetTranscript) await this.repo.deleteTranscript(task.id, tx);
      const updated = await this.repo.update(
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
        await this.charges.charge(updated, updated.durationMs, tx);
        updated.costCredits = await this.charges.shownCost(updated.id, tx);
        await this.repo.update(updated.id, { costCredits: updated.costCredits }, tx);
      }
      await this.queue.send(
        'task-run',
        { taskId: updated.id, runToken },
        { tx, expireInSeconds: this.runner.expirySeconds(updated.durationMs) },
      );
      return updated;
    });
    this.runner.cancel(task.id); // the old run, before the new one can start here
    this.queue.wake('task-run');
    await this.hooks.onTaskChanged(row, { statusChanged: true });
    return toTaskDto(row);
  }

  async list(userId: string, page: number, size: number): Promise<Task[]> {
    const rows = await this.repo.listForUser(userId, size, (page - 1) * size);
    return rows.map(toTaskDto);
  }

  async get(userId: string, id: unknown): Promise<Task> {
    return toTaskDto(await findOwned(this.db, tasks, userId, id, 'Task'));
  }

  async delete(userId: string, id: unknown): Promise<void> {
    const task = await findOwned(this.db, tasks, userId, id, 'Task');
    this.runner.cancel(task.id);
    await this.repo.delete(task.id);
    // An unfinished task costs nothing, its summary included (a worker in another process
    // refunds too, idempotently; a refund that fails now is retried by the outbox).
    if (task.status !== 'DONE') {
      const reused = task.rootTaskId === null && (await this.repo.transcriptReused(task.id));
      await this.charges.refundDeleted(task, reused);
    }
    // Uploaded media belongs to the upload, not the task; downloaded media goes with the task.
    await this.storage.deletePrefix(`users/${userId}/tasks/${task.id}/`);
    // What was measured about media deleted with the task goes too (framing plans, loudness).
    if (task.mediaKey?.startsWith(`users/${userId}/tasks/${task.id}/`)) {
      await new MediaAnalysesRepository(this.db).deleteForMedia(task.mediaKey);
    }
  }

  async history(userId: string, rootTaskId: unknown): Promise<Task[]> {
    if (!isUuid(rootTaskId)) throw notFound('Task');
    const rows = await this.repo.history(userId, rootTaskId);
    if (!rows.length) throw notFound('Task');
    return rows.map(toTaskDto);
  }

  async transcript(userId: string, id: unknown): Promise<Transcript> {
    const task = await findOwned(this.db, tasks, userId, id, 'Task');
    const row = await this.repo.findTranscript(task.id);
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
    const task = await findOwned(this.db, tasks, userId, id, 'Task');
    if (task.status !== 'IN_PROGRESS' || !this.hooks.partial || !this.transcription) return null;
    const growth = await this.transcription.soFar(task.id);
    return growth ? this.hooks.partial(task, growth) : null;
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
      const upload = await findOwned(this.db, uploads, userId, uploadId, 'Upload');
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
    const resolved = await resolveMediaUrl(url, { allowHosts: this.allowHosts, timeoutMs: 15_000 });
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
