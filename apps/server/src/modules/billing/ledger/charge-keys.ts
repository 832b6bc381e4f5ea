/**
 * The typed keys of every charge: one per piece of work, so a retried or concurrent
 * charge of the same work is a no-op, and a refund finds exactly what that work took. Each attempt
 * of a task and each summary refresh is its own piece of work.
 */
export type ChargeKey =
  | { kind: 'task-run' | 'question' | 'caption-task'; taskId: string; attempt: number }
  | { kind: 'summary'; taskId: string; attempt: number }
  | { kind: 'summary-refresh'; taskId: string; refreshId: string }
  | { kind: 'export' | 'caption-export'; jobId: string };

/** The operation key a charge is stored under (the refund's is `refund:<key>`). */
export function operationKey(key: ChargeKey): string {
  switch (key.kind) {
    case 'task-run':
    case 'question':
    case 'caption-task':
      return `task:${key.taskId}:${key.attempt}`;
    case 'summary':
      return `summary:${key.taskId}:${key.attempt}`;
    case 'summary-refresh':
      return `summary:${key.taskId}:refresh:${key.refreshId}`;
    case 'export':
    case 'caption-export':
      return `job:${key.jobId}`;
  }
}

/** The work a charge links to (the history page shows it). */
export function workOf(key: ChargeKey): { taskId: string | null; jobId: string | null } {
  return 'jobId' in key ? { taskId: null, jobId: key.jobId } : { taskId: key.taskId, jobId: null };
}
