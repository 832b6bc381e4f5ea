import {
  thumbnailPath,
  type JobStatus,
  type Notification,
  type NotificationType,
  type TaskKind,
  type TaskPartial,
  type TaskStatus,
} from '@moments/contract';
import type { RealtimeBus } from '../../realtime/index.js';
import type { TaskRow } from '../tasks/task-mapper.js';
import type { FinishedWork } from '../webhooks/webhooks.service.js';
import type { NotificationRow, NotificationsRepository } from './notifications.repository.js';

const toDto = (row: NotificationRow): Notification => ({
  id: row.id,
  type: row.type as NotificationType,
  viewed: row.viewed,
  data: row.data as Record<string, unknown>,
  created: row.createdAt.getTime(),
});

/** Finished work the user should hear about: stored, then pushed to every open client. */
const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(['DONE', 'ERROR']);

/**
 * Stores notifications and pushes them over the realtime channel. Live progress is
 * pushed without being stored; viewing or deleting on one client is mirrored to the user's other
 * clients with SYNC_NOTIFY_VIEW / SYNC_NOTIFY_DELETE.
 */
export class NotificationsService {
  /** Told when a clip of an export-all batch ends (the batch may be done); set by the batches. */
  private batchClipEnded?: (batchId: string) => Promise<void>;

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly bus: RealtimeBus,
    /** Told about every stored (finished-work) notification, e.g. to mail it; must not throw. */
    private readonly onStored?: (
      userId: string,
      type: NotificationType,
      data: Record<string, unknown>,
    ) => Promise<void>,
    /**
     * Told once per finished task or export (DONE or ERROR), where its notification is stored:
     * the webhooks' one source of these events; must not throw.
     */
    private readonly onFinished?: (work: FinishedWork) => Promise<void>,
  ) {}

  async taskChanged(task: TaskRow, statusChanged: boolean): Promise<void> {
    const status = task.status as TaskStatus;
    const data: Record<string, unknown> = {
      task_id: task.id,
      task_status: status,
      task_title: (task.video as { title?: string }).title || 'Untitled video',
      // What the task makes (moments, captions...): mails and dialogs lead to its own page.
      task_kind: task.kind,
      thumbnail: task.thumbnailKey ? thumbnailPath('task', task.id) : null,
      progress: Math.round(task.progress),
      stage: task.stage,
      error_reason: task.errorReason,
    };
    if (statusChanged && TERMINAL_TASK_STATUSES.has(status)) {
      const stored = await this.store(task.userId, 'TASK_STATUS_UPDATE', data);
      await this.onFinished?.({
        kind: 'task',
        userId: task.userId,
        id: task.id,
        status,
        taskKind: task.kind as TaskKind,
      });
      await this.bus.publish(task.userId, {
        type: 'TASK_STATUS_UPDATE',
        id: stored.id,
        data: stored.data,
      });
      return;
    }
    await this.bus.publish(task.userId, { type: 'TASK_STATUS_UPDATE', data });
  }

  /**
   * A task's follow-up is done: its moments' pictures and the search's embeddings are made.
   * Pushed (not stored: the user was told of the task already) as a TASK_STATUS_UPDATE carrying
   * `followed_up`, so open pages read the moments (and search) again.
   */
  async taskFollowedUp(task: TaskRow): Promise<void> {
    await this.bus.publish(task.userId, {
      type: 'TASK_STATUS_UPDATE',
      data: {
        task_id: task.id,
        task_status: task.status as TaskStatus,
        task_title: (task.video as { title?: string }).title || 'Untitled video',
        task_kind: task.kind,
        thumbnail: task.thumbnailKey ? thumbnailPath('task', task.id) : null,
        progress: Math.round(task.progress),
        stage: task.stage,
        error_reason: task.errorReason,
        followed_up: true,
      },
    });
  }

  /**
   * A long task's transcript grew by a chunk. Pushed (not stored) as a
   * TASK_STATUS_UPDATE carrying `partial`: the words just heard and the provisional moments.
   */
  async taskGrew(task: TaskRow, partial: TaskPartial): Promise<void> {
    await this.bus.publish(task.userId, {
      type: 'TASK_STATUS_UPDATE',
      data: {
        task_id: task.id,
        task_status: task.status as TaskStatus,
        task_title: (task.video as { title?: string }).title || 'Untitled video',
        progress: Math.round(task.progress),
        stage: task.stage,
        error_reason: task.errorReason,
        partial,
      },
    });
  }

  async jobChanged(
    userId: string,
    job: {
      id: string;
      type: string;
      status: JobStatus;
      title: string;
      progress: number;
      momentId: string | null;
      posterKey?: string | null;
      /** The export-all batch the clip belongs to: its end is the batch's one notification. */
      batchId?: string | null;
    },
    statusChanged: boolean,
  ): Promise<void> {
    const type: NotificationType =
      job.type === 'ANIMATED_CAPTION_EXPORT'
        ? 'JOB_ANIMATED_CAPTION_EXPORT'
        : 'JOB_VIRAL_MOMENT_EXPORT';
    const data: Record<string, unknown> = {
      job_id: job.id,
      job_status: job.status,
      job_title: job.title,
      moment_id: job.momentId,
      progress: Math.round(job.progress),
      thumbnail: job.posterKey ? thumbnailPath('job', job.id) : null,
    };
    if (job.batchId) {
      // A batch's clip: its progress and its end go out live (the batch view follows them), but
      // only the batch's end is stored and mailed, once for all its clips.
      data.batch_id = job.batchId;
      await this.bus.publish(userId, { type, data });
      if (statusChanged && job.status !== 'IN_PROGRESS') {
        await this.onFinished?.({ kind: 'job', userId, id: job.id, status: job.status });
        await this.batchClipEnded?.(job.batchId);
      }
      return;
    }
    if (statusChanged && job.status !== 'IN_PROGRESS') {
      const stored = await this.store(userId, type, data);
      await this.onFinished?.({ kind: 'job', userId, id: job.id, status: job.status });
      await this.bus.publish(userId, { type, id: stored.id, data: stored.data });
      return;
    }
    await this.bus.publish(userId, { type, data });
  }

  /** Who hears that a batch's clip ended (the export batches, which tell when the batch is done). */
  whenBatchClipEnds(listener: (batchId: string) => Promise<void>): void {
    this.batchClipEnded = listener;
  }

  /** A batch's clip was deleted before it ended: the batch may be done without it. */
  async batchClipGone(batchId: string): Promise<void> {
    await this.batchClipEnded?.(batchId);
  }

  /** An export-all batch ended: one stored notification for all its clips, pushed live. */
  async batchFinished(
    userId: string,
    batch: {
      id: string;
      taskId: string | null;
      title: string;
      status: JobStatus;
      clipCount: number;
      doneCount: number;
      errorCount: number;
      thumbnailJobId: string | null;
    },
  ): Promise<void> {
    const data: Record<string, unknown> = {
      batch_id: batch.id,
      task_id: batch.taskId,
      job_status: batch.status,
      job_title: batch.title,
      moment_id: null,
      clip_count: batch.clipCount,
      done_count: batch.doneCount,
      error_count: batch.errorCount,
      progress: 100,
      thumbnail: batch.thumbnailJobId ? thumbnailPath('job', batch.thumbnailJobId) : null,
    };
    const stored = await this.store(userId, 'JOB_BATCH_EXPORT', data);
    await this.bus.publish(userId, { type: 'JOB_BATCH_EXPORT', id: stored.id, data: stored.data });
  }

  /** Pages of `page_size`, newest first, only those created at or before `created`. */
  async history(userId: string, pageNum: number, pageSize: number, created?: number) {
    // `created` is in milliseconds; rows carry microseconds, so keep the whole millisecond.
    const before = created ? new Date(created + 1) : undefined;
    const rows = await this.repo.page(userId, pageSize + 1, (pageNum - 1) * pageSize, before);
    return { content: rows.slice(0, pageSize).map(toDto), last: rows.length <= pageSize };
  }

  async markViewed(userId: string, ids: string[], exceptSessionId?: string): Promise<string[]> {
    if (!ids.length) return [];
    return this.setViewed(userId, ids, exceptSessionId);
  }

  async markAllViewed(userId: string, exceptSessionId?: string): Promise<void> {
    await this.setViewed(userId, 'unviewed', exceptSessionId);
  }

  /** Marks the user's notifications that `ids` picks viewed; other clients follow. */
  private async setViewed(userId: string, ids: string[] | 'unviewed', exceptSessionId?: string) {
    const changed = await this.repo.markViewed(userId, ids);
    await this.syncOtherClients(userId, 'SYNC_NOTIFY_VIEW', changed, exceptSessionId);
    return changed;
  }

  async delete(userId: string, ids: string[], exceptSessionId?: string): Promise<string[]> {
    if (!ids.length) return [];
    const deleted = await this.repo.delete(userId, ids);
    await this.syncOtherClients(userId, 'SYNC_NOTIFY_DELETE', deleted, exceptSessionId);
    return deleted;
  }

  /** Tells the user's other clients which notifications were viewed or deleted (if any were). */
  private async syncOtherClients(
    userId: string,
    type: 'SYNC_NOTIFY_VIEW' | 'SYNC_NOTIFY_DELETE',
    ids: string[],
    exceptSessionId: string | undefined,
  ): Promise<void> {
    if (ids.length) await this.bus.publish(userId, { type, data: { ids } }, { exceptSessionId });
  }

  private async store(userId: string, type: NotificationType, data: Record<string, unknown>) {
    const row = await this.repo.insert({ userId, type, data });
    await this.onStored?.(userId, type, data);
    return toDto(row);
  }
}
