import type { JobStatus, TaskPartial, TaskStage, TaskStatus } from '@moments/contract';

/** Bodies the server pushes on /user/queue/msg (notifications and sync messages). */

export interface TaskStatusData {
  task_id: string;
  task_status: TaskStatus;
  task_title: string;
  progress: number;
  stage: TaskStage;
  error_reason: string | null;
  /** A long task's transcript grew by a chunk (pushed while it transcribes). */
  partial?: TaskPartialData;
  /**
   * Pushed a moment after DONE: the moments' pictures and the search's embeddings are made, so
   * what shows them is read again.
   */
  followed_up?: boolean;
}

/** What a chunk added, and the provisional moments of the transcript so far (times in ms). */
type TaskPartialData = TaskPartial;

interface JobStatusData {
  job_id: string;
  job_status: JobStatus;
  job_title: string;
  moment_id: string | null;
  progress: number;
  /** The export-all batch of the clip; on JOB_BATCH_EXPORT, the batch that ended. */
  batch_id?: string;
}

/** `id` is present when the message is a stored notification (a finished task or export). */
export type RealtimeMessage =
  | { type: 'TASK_STATUS_UPDATE'; id?: string; data: TaskStatusData }
  | {
      type: 'JOB_VIRAL_MOMENT_EXPORT' | 'JOB_ANIMATED_CAPTION_EXPORT' | 'JOB_BATCH_EXPORT';
      id?: string;
      data: JobStatusData;
    }
  | { type: 'SYNC_NOTIFY_VIEW' | 'SYNC_NOTIFY_DELETE'; data: { ids: string[] } }
  /** The user's credits moved (a charge, refund, grant or expiry), in this tab or another. */
  | { type: 'CREDITS_CHANGED'; data: Record<string, never> };

const KNOWN_TYPES: ReadonlySet<string> = new Set([
  'TASK_STATUS_UPDATE',
  'JOB_VIRAL_MOMENT_EXPORT',
  'JOB_ANIMATED_CAPTION_EXPORT',
  'JOB_BATCH_EXPORT',
  'SYNC_NOTIFY_VIEW',
  'SYNC_NOTIFY_DELETE',
  'CREDITS_CHANGED',
]);

/** Reads a frame body; anything that is not a message we know is dropped (null). */
export function parseRealtimeMessage(body: string): RealtimeMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    // Not JSON: not one of our messages.
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { type, data } = value as { type?: unknown; data?: unknown };
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) return null;
  if (typeof data !== 'object' || data === null) return null;
  if (type.startsWith('SYNC_') && !Array.isArray((data as { ids?: unknown }).ids)) return null;
  return value as RealtimeMessage;
}
