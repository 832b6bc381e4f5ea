import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Database, Db } from '../db/client.js';
import { silentLogger, type Logger } from '../logging.js';
import {
  JOB_KINDS,
  PERIODIC_KINDS,
  isBackground,
  jobPolicy,
  type JobHandler,
  type JobHandlers,
  type JobKind,
  type JobKindPolicy,
  type JobPayloads,
} from './job-kinds.js';
import { readQueueOverview, type QueueOverview } from './queue-overview.js';
import { currentRunIds, withRunIds } from './run-context.js';
import type { WorkGate } from './work-gate.js';

interface SendOptions {
  /** The caller's transaction: the job exists only if it commits (row, charge and job together). */
  tx?: Db;
  /** Overrides the kind's expiry, e.g. from the stage timeouts of this very run. */
  expireInSeconds?: number;
  /** Not taken before this many seconds from now. */
  startAfterSeconds?: number;
  /** Overrides the kind's wait before its first retry (an operator's setting). */
  retryDelaySeconds?: number;
  /**
   * `false`: this process's workers are not woken now (the caller wakes them once what the job
   * reads is in place); workers anywhere still take it at their next poll.
   */
  wake?: boolean;
}

/** pg-boss refuses expiries of a day or more. */
const MAX_EXPIRY_SECONDS = 23 * 3600;

export interface JobQueue {
  send<K extends JobKind>(kind: K, payload: JobPayloads[K], options?: SendOptions): Promise<void>;
  /**
   * Starts polling for the kinds given a handler (a worker may take only some queues), each with
   * `concurrency` at once unless `concurrencyOf` names its own; one per background kind. With
   * `gate`, every other kind runs as work a user waits for, and background kinds give way to it.
   */
  work(
    handlers: Partial<JobHandlers>,
    concurrency: number,
    concurrencyOf?: Partial<Record<JobKind, number>>,
    gate?: WorkGate,
  ): Promise<void>;
  /**
   * Wakes this process's workers of `kind` now instead of at their next poll (up to a second
   * later). A job sent inside a transaction is visible only once it commits: wake after that.
   */
  wake(kind: JobKind): void;
  /** Each kind's policy, counts by state and latest failures (the operator view). */
  overview(): Promise<QueueOverview>;
  /**
   * Fails jobs a dead worker left active, with `reason` as their error: retried by their kind's
   * policy like any failure (the operator's `npm run jobs -- --end-stale`).
   */
  failJobs(kind: JobKind, ids: string[], reason: string): Promise<void>;
  /** Stops handing out jobs to this process's workers (the runs under way go on). */
  stopTaking(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss on the app's own database. On PGlite it runs through a small adapter: parameterised
 * statements through query(), and unparameterised (possibly multi-statement) SQL, such as its
 * migrations, through exec(), because PGlite's query() refuses several statements.
 */
export async function createJobQueue(
  database: Database,
  log: Logger = silentLogger,
  /** `keepsClock: false` for a process that only reads the queue (`npm run jobs`). */
  options: { pollSeconds?: number; clockSeconds?: number; keepsClock?: boolean } = {},
): Promise<JobQueue> {
  // `schedule`: this process may keep the clock that sends periodic kinds (one process at a
  // time does, through a row lock in pg-boss's own tables).
  const keepsClock = options.keepsClock ?? true;
  // The clock's first look comes before this process's schedules are written (pg-boss starts it
  // in start()), so it looks again every 10 s by default rather than pg-boss's 30, and hands due
  // work to the queues as often.
  const clockSeconds = options.clockSeconds ?? 10;
  const common = {
    schedule: keepsClock,
    supervise: keepsClock,
    maintenanceIntervalSeconds: 30,
    cronMonitorIntervalSeconds: clockSeconds,
    cronWorkerIntervalSeconds: Math.min(clockSeconds, 5),
  };
  let boss: PgBoss;
  if (database.pglite) {
    const pglite = database.pglite;
    boss = new PgBoss({
      ...common,
      db: {
        async executeSql(text: string, values: unknown[]) {
          if (values && values.length) return pglite.query(text, values);
          const results = await pglite.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        },
      },
    });
  } else {
    boss = new PgBoss({ ...common, connectionString: database.url, max: 4 });
  }
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  for (const [kind, policy] of Object.entries(JOB_KINDS)) {
    await createQueueOnce(boss, kind, queuePolicy(policy), log);
  }
  // Periodic kinds: one schedule row each for the cluster (an upsert, so every start agrees).
  for (const kind of PERIODIC_KINDS) {
    await boss.schedule(kind, jobPolicy(kind).every!, {}, queuePolicy(jobPolicy(kind)));
  }

  const workerIds = new Map<JobKind, string[]>();
  const wake = (kind: JobKind) => {
    for (const id of workerIds.get(kind) ?? []) boss.notifyWorker(id);
  };

  return {
    wake,
    async send(kind, payload, options = {}) {
      const expireInSeconds = Math.min(
        MAX_EXPIRY_SECONDS,
        Math.ceil(options.expireInSeconds ?? JOB_KINDS[kind].expireInSeconds),
      );
      const tx = options.tx;
      const policy = jobPolicy(kind);
      await boss.send(kind, payload, {
        ...queuePolicy(policy),
        ...(policy.priority !== undefined && { priority: policy.priority }),
        ...(options.startAfterSeconds && { startAfter: options.startAfterSeconds }),
        ...(options.retryDelaySeconds && { retryDelay: options.retryDelaySeconds }),
        expireInSeconds,
        ...(tx ? { db: { executeSql: (text, values) => executeIn(tx, text, values) } } : {}),
      });
      if (!tx && options.wake !== false) wake(kind);
    },
    async work(handlers, concurrency, concurrencyOf = {}, gate) {
      const kinds = (Object.keys(JOB_KINDS) as JobKind[]).filter((kind) => handlers[kind]);
      if (!kinds.length) throw new Error('A worker needs a handler for at least one job kind');
      for (const kind of kinds) {
        const given = handlers[kind] as JobHandler<typeof kind>;
        const background = isBackground(kind);
        const handler: JobHandler<typeof kind> =
          gate && !background ? (payload) => gate.userWork(() => given(payload)) : given;
        const workers = background
          ? 1
          : (concurrencyOf[kind] ?? jobPolicy(kind).concurrency ?? concurrency);
        for (let i = 0; i < workers; i++) {
          const id = await boss.work<JobPayloads[typeof kind]>(
            kind,
            { batchSize: 1, pollingIntervalSeconds: options.pollSeconds ?? 1 },
            async ([job]) => {
              if (!job) return;
              // Everything the handler starts carries the run's ids (the user's too, once the
              // runner has read its row), for this log line and the process-level guard alike.
              const ids = Object.entries(job.data as Record<string, unknown>).filter(
                (entry): entry is [string, string] => typeof entry[1] === 'string',
              );
              const runIds = { queue: kind, queueJobId: job.id, ...Object.fromEntries(ids) };
              await withRunIds(runIds, async () => {
                try {
                  await handler(job.data as never);
                } catch (err) {
                  // Caught here, at the job's boundary: logged with its ids, failed to pg-boss,
                  // which retries it by its kind's policy. Never past this point.
                  log.error({ err, ...currentRunIds() }, 'job handler failed');
                  throw err;
                }
              });
            },
          );
          workerIds.set(kind, [...(workerIds.get(kind) ?? []), id]);
        }
      }
    },
    overview: () => readQueueOverview(boss.getDb()),
    failJobs: (kind, ids, reason) => failEach(boss, kind, ids, reason),
    async stopTaking() {
      for (const kind of workerIds.keys()) await boss.offWork(kind);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}

/** What pg-boss keeps per queue and per job: the retry and expiry policy alone. */
function queuePolicy(
  policy: JobKindPolicy & { takenBy?: unknown; handle?: unknown },
): PgBoss.RetryOptions & PgBoss.ExpirationOptions {
  // Only the keys a kind sets: pg-boss refuses a key present with no value.
  const {
    takenBy: _takenBy,
    handle: _handle,
    priority: _priority,
    background: _background,
    concurrency: _concurrency,
    every: _every,
    ...retryAndExpiry
  } = policy;
  return retryAndExpiry;
}

/**
 * Creates a queue (a no-op when it exists). Processes starting together on a fresh database
 * (API_PROCESSES, several machines) may each create it at once; PostgreSQL then ends one of them
 * with a deadlock error, which is retried after a short random pause.
 */
async function createQueueOnce(
  boss: PgBoss,
  kind: string,
  policy: PgBoss.RetryOptions & PgBoss.ExpirationOptions,
  log: Logger,
) {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(kind, { name: kind, ...policy });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
      log.info({ queue: kind, attempt }, 'job queue created by another process at once; retrying');
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 250));
    }
  }
}

/** Runs pg-boss's parameterised SQL ($1, $2, ...) on a drizzle database or transaction. */
async function executeIn(db: Db, text: string, values: unknown[] = []) {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    // undefined would vanish from a drizzle template; the driver wants null.
    chunks.push(sql`${values[Number(match[1]) - 1] ?? null}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  const result = (await db.execute(sql.join(chunks))) as unknown as { rows: unknown[] };
  return { rows: result.rows };
}

/** pg-boss keeps its error text per job: one fail call each, so each records the reason. */
async function failEach(boss: PgBoss, kind: JobKind, ids: string[], reason: string) {
  for (const id of ids) await boss.fail(kind, id, { message: reason });
}
