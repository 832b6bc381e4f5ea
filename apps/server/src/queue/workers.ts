import type { Services } from '../services.js';
import { assertAccelerationAvailable } from './acceleration.js';
import { asrChunk } from './handlers/asr-chunk.js';
import { creditRefund } from './handlers/credit-refund.js';
import { exportReap } from './handlers/export-reap.js';
import { exportRender } from './handlers/export-render.js';
import { framingPrepare } from './handlers/framing-prepare.js';
import { housekeeping } from './handlers/housekeeping.js';
import { mailSend } from './handlers/mail-send.js';
import { searchIndex } from './handlers/search-index.js';
import { spanCut } from './handlers/span-cut.js';
import { subscriptionRenewals } from './handlers/subscription-renewals.js';
import { taskReap } from './handlers/task-reap.js';
import { taskRun } from './handlers/task-run.js';
import { thumbnailBackfill } from './handlers/thumbnail-backfill.js';
import { uploadSweep } from './handlers/upload-sweep.js';
import type { JobHandlers } from './job-kinds.js';

/**
 * The handlers this worker takes. WORKER_QUEUES splits the roles: GPU machines take `asr`
 * (tasks and what follows them), CPU machines `render` (exports and framing); every worker takes
 * the refund outbox, the mail and the housekeeping kinds.
 */
function workerHandlers(services: Services): Partial<JobHandlers> {
  const queues = services.config.WORKER_QUEUES;
  const takesTasks = queues.includes('asr');
  const takesExports = queues.includes('render');
  return {
    ...(takesTasks && {
      'task-run': taskRun(services),
      'asr-chunk': asrChunk(services),
      'search-index': searchIndex(services),
      'task-reap': taskReap(services),
    }),
    ...(takesExports && {
      'export-render': exportRender(services),
      'framing-prepare': framingPrepare(services),
      'span-cut': spanCut(services),
      'thumbnail-backfill': thumbnailBackfill(services),
      'export-reap': exportReap(services),
    }),
    'credit-refund': creditRefund(services),
    'mail-send': mailSend(services),
    housekeeping: housekeeping(services),
    'upload-sweep': uploadSweep(services),
    'subscription-renewals': subscriptionRenewals(services),
  };
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
