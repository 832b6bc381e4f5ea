import path from 'node:path';
import type PgBoss from 'pg-boss';
import type { QueuedMail } from '../modules/mail/queued-mailer.js';
import { sweepAbandonedUploads } from '../modules/uploads/tus-uploads.js';
import type { Services } from '../services.js';

/**
 * Every piece of background work this server does, as one job kind each, with its payload and
 * policy (PeerTube's habit): attempts (`retryLimit`), timeout (`expireInSeconds`), how many run
 * at once in one worker (`concurrency`, else WORKER_CONCURRENCY), and for periodic work the cron
 * it is sent on (`every`, pg-boss `schedule()`: sent once per minute slot for the whole cluster,
 * whichever process keeps the clock), which workers take it (`takenBy`: WORKER_QUEUES `asr` for
 * tasks and what follows them, `render` for exports and framing, or every worker) and its handler
 * (`handle`, given the process's services). `npm run jobs` shows each queue.
 */
/**
 * A leased run (a task, an export): failures end it as ERROR (the user retries); the one retry
 * covers a job whose worker died before it marked the run IN_PROGRESS. Later deaths are resumed
 * by the kind's reaper.
 */
const LEASED_RUN = {
  retryLimit: 1,
  retryDelay: 5,
  retryBackoff: false,
  expireInSeconds: 6 * 3600,
} as const;

/** A reaper of leased runs: each minute, one pass at a time. */
const REAPER = {
  retryLimit: 0,
  expireInSeconds: 5 * 60,
  concurrency: 1,
  every: '* * * * *',
} as const;

/** Hourly upkeep at minute `minute`: one pass at a time, retried once five minutes later. */
const hourly = (minute: number) =>
  ({
    retryLimit: 1,
    retryDelay: 300,
    expireInSeconds: 30 * 60,
    concurrency: 1,
    every: `${minute} * * * *`,
  }) as const;

export const JOB_KINDS = {
  /** Runs a task's stages: download, probe, transcribe, analyse (modules/tasks/task-pipeline.ts). */
  'task-run': {
    ...LEASED_RUN,
    takenBy: 'asr',
    // Tracked as background work by the runner itself.
    handle:
      (services) =>
      ({ taskId, runToken }) =>
        services.taskRunner.run(taskId, runToken),
  },
  /**
   * What follows a task's ranked moments (modules/tasks/task-follow-up.ts): each moment's
   * picture and the search's embeddings. Queued just before the task is marked DONE, so a crash
   * afterwards leaves it for the next worker; a worker that dies in it is retried once it
   * expires, a shutdown that stops it retries it shortly. Each part skips what is made.
   */
  'task-follow-up': {
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 30 * 60,
    takenBy: 'asr',
    // Tracked as background work: a close stops it (the queue retries it) before the scratch goes.
    handle:
      (services) =>
      async ({ taskId }) =>
        void (await services.background.run((signal) => services.taskFollowUp.run(taskId, signal))),
  },
  /** Renders one export to MP4. */
  'export-render': {
    ...LEASED_RUN,
    takenBy: 'render',
    // Tracked as background work by the renderer itself.
    handle:
      (services) =>
      ({ jobId, runToken }) =>
        services.exportRenderer.run(jobId, runToken),
  },
  /**
   * Background: analyses the framing (shots, faces, loudness) of a DONE task's top moments, so
   * their exports only render. Low priority, one at a time per worker, and only
   * while no work a user waits for runs in the process (WorkGate); a failure costs an export its
   * head start, nothing more, so one retry.
   */
  'framing-prepare': {
    retryLimit: 1,
    retryDelay: 60,
    retryBackoff: false,
    expireInSeconds: 2 * 3600,
    priority: -10,
    background: true,
    takenBy: 'render',
    handle:
      (services) =>
      async ({ taskId }) =>
        void (await services.framingPreparer.prepareTask(taskId)),
  },
  /**
   * Transcribes one chunk of a task's audio. No queue retry: the task's run watches its
   * chunks and queues a dead worker's chunk again, once (ChunkedTranscription). Its concurrency is
   * the number of Whisper processes, set at worker start.
   */
  'asr-chunk': {
    retryLimit: 0,
    expireInSeconds: 3 * 3600,
    takenBy: 'asr',
    // Tracked like a task run, so close() stops it before the scratch folder goes.
    handle:
      (services) =>
      ({ taskId, index }) =>
        services.background.run((signal) => services.transcription.runChunk(taskId, index, signal)),
  },
  /**
   * The refund outbox: a refund retried with backoff until it lands; every worker
   * takes it, whatever WORKER_QUEUES says.
   */
  'credit-refund': {
    retryLimit: 60,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 300,
    takenBy: 'every',
    handle: (services) => (payload) => services.billing.refunds.run(payload),
  },
  /**
   * Hands one mail to the SMTP server (SMTP_URL set; the outbox folder is written in the request).
   * Retried with backoff for about a day, so an SMTP server that is down loses no mail; every
   * worker takes it, whatever WORKER_QUEUES says.
   */
  'mail-send': {
    retryLimit: 14,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
    takenBy: 'every',
    handle: (services) => (payload) => services.mailTransport.send(payload.mail),
  },
  /**
   * Sends one webhook delivery (signed, through the link guard, with a timeout). A receiver that
   * fails or does not answer is tried again with backoff, from WEBHOOK_RETRY_DELAY_SECONDS (the
   * send sets it), 9 attempts in all; every worker takes it, whatever WORKER_QUEUES says.
   */
  'webhook-deliver': {
    retryLimit: 8,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
    takenBy: 'every',
    handle: (services) => (payload) => services.webhooks.deliver(payload.deliveryId),
  },
  /** Backfills the home search's index (passages, embeddings, corpus statistics); sent at worker start. */
  'search-index': {
    retryLimit: 2,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 6 * 3600,
    takenBy: 'asr',
    // Not tracked as background work: it takes no signal, and a close waits for it only as long
    // as the queue's graceful stop does (the next worker start sends it again).
    handle: (services) => async () => void (await services.searchIndexer.backfill()),
  },
  /**
   * Background: pictures for videos, moments and exports stored before thumbnails existed;
   * sent at worker start, gives way to user work.
   */
  'thumbnail-backfill': {
    retryLimit: 1,
    retryDelay: 300,
    retryBackoff: false,
    expireInSeconds: 6 * 3600,
    priority: -10,
    background: true,
    takenBy: 'render',
    handle: (services) => async () =>
      void (await services.thumbnails.backfill((work) => services.workGate.background(work))),
  },
  /**
   * Cuts a shared moment's span to its own file when it is shared, so its first visitor does not
   * wait (a failure costs nothing: the span is cut on view). One at a time per worker, so shares
   * cannot pile up ffmpeg processes.
   */
  'span-cut': {
    retryLimit: 1,
    retryDelay: 30,
    expireInSeconds: 15 * 60,
    concurrency: 1,
    takenBy: 'render',
    handle:
      (services) =>
      ({ momentId }) =>
        services.moments.cutSharedSpan(momentId),
  },
  /**
   * Periodic: resumes task runs whose worker died (their heart-beat is older than TASK_LEASE_MS).
   * Also sent at worker start, and once more a lease later, for the runs a crash just left.
   */
  'task-reap': {
    ...REAPER,
    takenBy: 'asr',
    // A pass under way is awaited by close.
    handle: (services) => () =>
      services.background.run(async () => void (await services.taskLeases.resumeOrphans())),
  },
  /** Periodic: the same for export renders. */
  'export-reap': {
    ...REAPER,
    takenBy: 'render',
    handle: (services) => () =>
      services.background.run(async () => void (await services.exportLeases.resumeOrphans())),
  },
  /**
   * Periodic: expired sessions and realtime tickets leave the database, and work folders a killed
   * process left leave DATA_DIR/tmp (also sent at worker start).
   */
  housekeeping: {
    ...hourly(17),
    takenBy: 'every',
    // Awaited by close: it removes files.
    handle: (services) => () =>
      services.background.run(async () => void (await services.housekeeping.runOnce())),
  },
  /** Periodic: unfinished resumable (tus) uploads older than a day leave DATA_DIR/tus. */
  'upload-sweep': {
    ...hourly(43),
    takenBy: 'every',
    // Awaited by close: it removes files.
    handle: (services) => () =>
      services.background.run(async () => {
        const removed = await sweepAbandonedUploads(path.join(services.config.DATA_DIR, 'tus'));
        if (removed) services.log.info({ removed }, 'abandoned resumable uploads swept');
      }),
  },
  /**
   * Periodic, BILLING=test only: subscriptions whose period ended renew or end (Stripe renews by
   * webhook instead; elsewhere the job finds nothing to do).
   */
  'subscription-renewals': {
    retryLimit: 0,
    expireInSeconds: 10 * 60,
    concurrency: 1,
    every: '* * * * *',
    takenBy: 'every',
    handle: (services) => () =>
      services.background.run(async () => void (await services.billing.changes.renewDue())),
  },
} as const satisfies { [K in JobKind]: JobKindDeclaration<K> };

/** A kind's queue policy, its priority among jobs of its queue, and how it is run. */
export type JobKindPolicy = PgBoss.RetryOptions &
  PgBoss.ExpirationOptions & {
    priority?: number;
    /** Gives way to work a user waits for (WorkGate), one at a time per worker. */
    background?: boolean;
    /** How many run at once in one worker (else WORKER_CONCURRENCY). */
    concurrency?: number;
    /** Periodic work: the cron (UTC) it is sent on, for the whole cluster. */
    every?: string;
  };

/** A kind as the table declares it: its policy, which workers take it, and its handler. */
export type JobKindDeclaration<K extends JobKind> = JobKindPolicy & {
  takenBy: 'asr' | 'render' | 'every';
  handle: (services: Services) => JobHandler<K>;
};

type Periodic = Record<string, never>;
export interface JobPayloads {
  'task-run': { taskId: string; runToken: string };
  'task-follow-up': { taskId: string };
  'export-render': { jobId: string; runToken: string };
  'framing-prepare': { taskId: string };
  'asr-chunk': { taskId: string; index: number };
  'credit-refund': { key: string; userId: string; taskId: string | null; jobId: string | null };
  'mail-send': { category: string; userId?: string; mail: QueuedMail };
  'webhook-deliver': { deliveryId: string };
  'search-index': Periodic;
  'span-cut': { momentId: string };
  'thumbnail-backfill': Periodic;
  'task-reap': Periodic;
  'export-reap': Periodic;
  housekeeping: Periodic;
  'upload-sweep': Periodic;
  'subscription-renewals': Periodic;
}
export type JobKind = keyof JobPayloads;
export type JobHandler<K extends JobKind> = (payload: JobPayloads[K]) => Promise<void>;
export type JobHandlers = { [K in JobKind]: JobHandler<K> };

export const jobPolicy = (kind: JobKind): JobKindPolicy => JOB_KINDS[kind];

/** The kinds sent on a clock, with their cron. */
export const PERIODIC_KINDS = (Object.keys(JOB_KINDS) as JobKind[]).filter(
  (kind) => jobPolicy(kind).every,
);

/** Whether a kind is background work (it gives way to work a user waits for). */
export function isBackground(kind: JobKind): boolean {
  return jobPolicy(kind).background === true;
}
