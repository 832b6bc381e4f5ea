import { randomUUID } from 'node:crypto';
import type { Task, TaskKind, TaskStartParams, Transcript, VideoMeta } from '@moments/contract';
import { ERROR_CODES, UPLOAD_URL_PREFIX } from '@moments/contract';
import { normalizeVideoUrl } from '@moments/domain/links';
import { resolveMediaUrl } from '@moments/media/net';
import type { Db } from '../../db/client.js';
import { tasks, uploads } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { findOwned, isUuid } from '../../repositories/owned.js';
import type { Storage } from '../../storage/index.js';
import { toTaskDto, type TaskRow } from './task-mapper.js';
import type { TaskHooks, TaskRunner } from './task-runner.js';
import type { TasksRepository } from './tasks.repository.js';

export interface RetryParams {
  id: string;
  source_lang?: string;
  target_lang?: string;
  caption_display?: Task['caption_display'];
  reset_language?: boolean;
}

/** Starting, retrying, listing and deleting tasks; the work itself runs in TaskRunner. */
export class TasksService {
  constructor(
    private readonly db: Db,
    private readonly repo: TasksRepository,
    private readonly queue: JobQueue,
    private readonly runner: TaskRunner,
    private readonly storage: Storage,
    private readonly hooks: TaskHooks,
    private readonly allowHosts: string[],
  ) {}

  async start(
    userId: string,
    meta: VideoMeta,
    params: TaskStartParams,
    kind: Extract<TaskKind, 'caption'> | undefined,
  ): Promise<Task> {
    const video = await this.checkedVideo(userId, meta, params.url_source);
    let rootTaskId: string | null = null;
    let reused: {
      mediaKey: string | null;
      transcript?: Awaited<ReturnType<TasksRepository['findTranscript']>>;
    } = {
      mediaKey: null,
    };
    if (params.root_task_id) {
      const root = await findOwned(this.db, tasks, userId, params.root_task_id, 'Task');
      rootTaskId = root.rootTaskId ?? root.id;
      // A follow-up query on the same video reuses its media and transcript instead of redoing them.
      if ((root.video as VideoMeta).url === video.url && root.mediaKey) {
        reused = { mediaKey: root.mediaKey, transcript: await this.repo.findTranscript(root.id) };
      }
    }
    const query = params.query?.trim() || null;
    const runToken = randomUUID();
    const row = await this.repo.insert({
      userId,
      rootTaskId,
      kind: kind ?? (query ? 'search' : 'viral'),
      urlSource: video.video_platform === 'upload' ? 'upload' : params.url_source,
      video,
      sourceLang: params.source_lang,
      targetLang: params.target_lang ?? null,
      captionDisplay: params.caption_display,
      actAs: kind === 'caption' ? null : params.act_as?.trim() || null,
      query: kind === 'caption' ? null : query,
      status: 'START',
      stage: 'queued',
      mediaKey: reused.mediaKey,
      runToken,
    });
    if (reused.transcript) {
      const { taskId: _old, createdAt: _at, ...copy } = reused.transcript;
      await this.repo.saveTranscript({ ...copy, taskId: row.id });
    }
    await this.queue.send('task-run', { taskId: row.id, runToken });
    await this.hooks.onTaskChanged(row, { statusChanged: true });
    return toTaskDto(row);
  }

  async retry(userId: string, params: RetryParams): Promise<Task> {
    const task = await findOwned(this.db, tasks, userId, params.id, 'Task');
    if (task.status === 'START' || task.status === 'IN_PROGRESS') {
      throw new AppError(ERROR_CODES.TASK_NOT_RETRYABLE, 409, 'This task is still running.');
    }
    const sourceLang = params.source_lang ?? task.sourceLang;
    if (params.reset_language || sourceLang !== task.sourceLang) {
      await this.repo.deleteTranscript(task.id);
    }
    const runToken = randomUUID();
    const row = await this.repo.update(task.id, {
      status: 'START',
      stage: 'queued',
      progress: 0,
      errorReason: null,
      warnings: [],
      sourceLang,
      targetLang: params.target_lang ?? task.targetLang,
      captionDisplay: params.caption_display ?? task.captionDisplay,
      attempts: task.attempts + 1,
      runToken,
      heartbeatAt: new Date(),
    });
    if (!row) throw notFound('Task');
    this.runner.cancel(task.id);
    await this.queue.send('task-run', { taskId: row.id, runToken });
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
    // Uploaded media belongs to the upload, not the task; downloaded media goes with the task.
    await this.storage.deletePrefix(`users/${userId}/tasks/${task.id}/`);
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
    type Words = { text: string; startMs: number; endMs: number; confidence: number }[];
    const segments = row.segments as {
      startMs: number;
      endMs: number;
      text: string;
      words: Words;
    }[];
    return {
      task_id: task.id,
      language: row.language,
      duration_ms: row.durationMs,
      segments: segments.map((segment) => ({
        start: segment.startMs,
        end: segment.endMs,
        text: segment.text,
        words: segment.words.map((word) => ({
          text: word.text,
          start: word.startMs,
          end: word.endMs,
          confidence: word.confidence,
        })),
      })),
    };
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
        ...meta,
        url: `${UPLOAD_URL_PREFIX}${upload.id}`,
        video_platform: 'upload',
        title: meta.title || upload.originalName,
        duration: upload.durationMs != null ? upload.durationMs / 1000 : meta.duration,
      };
    }
    let url: string;
    try {
      url = normalizeVideoUrl(meta.url);
    } catch (error) {
      throw new AppError(ERROR_CODES.INVALID_URL, 400, (error as Error).message);
    }
    // Fail fast on what we can see now (private address, 404, a page with no video); the worker
    // checks again before downloading.
    const resolved = await resolveMediaUrl(url, { allowHosts: this.allowHosts, timeoutMs: 15_000 });
    return { ...meta, url, video_platform: resolved.source };
  }
}

export type { TaskRow };
