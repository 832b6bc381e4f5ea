import type { Services } from '../services.js';
import { assertAccelerationAvailable } from './acceleration.js';
import { JOB_KINDS, type JobHandlers, type JobKind } from './job-kinds.js';

/**
 * The handlers this worker takes (each kind's `takenBy`). WORKER_QUEUES splits the roles: GPU
 * machines take `asr` (tasks and what follows them), CPU machines `render` (exports and framing);
 * every worker takes the refund outbox, the mail, the webhooks and the housekeeping kinds.
 */
function workerHandlers(services: Services): Partial<JobHandlers> {
  const queues: readonly string[] = services.config.WORKER_QUEUES;
  const handlers: Partial<Record<JobKind, unknown>> = {};
  for (const kind of Object.keys(JOB_KINDS) as JobKind[]) {
    const { takenBy, handle } = JOB_KINDS[kind];
    if (takenBy === 'every' || queues.includes(takenBy)) handlers[kind] = handle(services);
  }
  return handlers as Partial<JobHandlers>;
}

/** The worker role: take jobs from the queue, and the first passes of the periodic kinds now. */
export async function startWorkers(services: Services): Promise<void> {
  const { config, queue } = services;
  await assertAccelerationAvailable(config);
  const handlers = workerHandlers(services);
  await queue.work(
    handlers,
    config.WORKER_CONCURRENCY,
    // One chunk per Whisper process at a time.
    { 'asr-chunk': services.transcription.parallelism },
    services.workGate,
  );
  if (handlers['asr-chunk']) services.transcription.takesChunks();
  // Rows stored before the search index (or without the model) are indexed in the background.
  if (handlers['search-index']) await queue.send('search-index', {});
  // Runs a crash just left: their lease has run out by now, or will have a lease from now.
  const leaseSeconds = Math.ceil(config.TASK_LEASE_MS / 1000) + 1;
  for (const kind of ['task-reap', 'export-reap'] as const) {
    if (!handlers[kind]) continue;
    await queue.send(kind, {});
    await queue.send(kind, {}, { startAfterSeconds: leaseSeconds });
  }
  // Videos, moments and exports stored before thumbnails existed get theirs.
  if (handlers['thumbnail-backfill']) await queue.send('thumbnail-backfill', {});
  await queue.send('housekeeping', {});
}
