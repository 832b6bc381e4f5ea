import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Database, Db } from '../db/client.js';
import { silentLogger, type Logger } from '../logging.js';

/**
 * Every background job kind with its payload and its retry and timeout policy, in one table
 * (PeerTube's habit). A kind without a registered handler fails the worker at start.
 */
export const JOB_KINDS = {
  /** Runs a task's stages: download, probe, transcribe, analyse. */
  // Failures end the task as ERROR (the user retries); the one retry covers a job whose worker
  // died before it marked the task IN_PROGRESS. Later deaths are resumed by TaskReaper.
  'task-run': { retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: 6 * 3600 },
  /** Renders one export to MP4. Same policy as task-run: failures end the job as ERROR; ExportReaper resumes dead runs. */
  'export-render': {
    retryLimit: 1,
    retryDelay: 5,
    retryBackoff: false,
    expireInSeconds: 6 * 3600,
  },
} as const satisfies Record<string, PgBoss.RetryOptions & PgBoss.ExpirationOptions>;

export interface JobPayloads {
  'task-run': { taskId: string; runToken: string };
  'export-render': { jobId: string; runToken: string };
}
export type JobKind = keyof typeof JOB_KINDS;
export type JobHandler<K extends JobKind> = (payload: JobPayloads[K]) => Promise<void>;
export type JobHandlers = { [K in JobKind]: JobHandler<K> };

export interface SendOptions {
  /** The caller's transaction: the job exists only if it commits (row, charge and job together). */
  tx?: Db;
  /** Overrides the kind's expiry, e.g. from the stage timeouts of this very run. */
  expireInSeconds?: number;
}

/** pg-boss refuses expiries of a day or more. */
const MAX_EXPIRY_SECONDS = 23 * 3600;

export interface JobQueue {
  send<K extends JobKind>(kind: K, payload: JobPayloads[K], options?: SendOptions): Promise<void>;
  /** Starts polling for the kinds given a handler (a worker may take only some queues). */
  work(handlers: Partial<JobHandlers>, concurrency: number): Promise<void>;
  /**
   * Wakes this process's workers of `kind` now instead of at their next poll (up to a second
   * later). A job sent inside a transaction is visible only once it commits: wake after that.
   */
  wake(kind: JobKind): void;
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
  options: { pollSeconds?: number } = {},
): Promise<JobQueue> {
  const common = { schedule: false, supervise: true, maintenanceIntervalSeconds: 30 } as const;
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
    await boss.createQueue(kind, { name: kind, ...policy });
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
      await boss.send(kind, payload, {
        ...JOB_KINDS[kind],
        expireInSeconds,
        ...(tx ? { db: { executeSql: (text, values) => executeIn(tx, text, values) } } : {}),
      });
      if (!tx) wake(kind);
    },
    async work(handlers, concurrency) {
      const kinds = (Object.keys(JOB_KINDS) as JobKind[]).filter((kind) => handlers[kind]);
      if (!kinds.length) throw new Error('A worker needs a handler for at least one job kind');
      for (const kind of kinds) {
        const handler = handlers[kind] as JobHandler<typeof kind>;
        for (let i = 0; i < concurrency; i++) {
          const id = await boss.work<JobPayloads[typeof kind]>(
            kind,
            { batchSize: 1, pollingIntervalSeconds: options.pollSeconds ?? 1 },
            async ([job]) => {
              if (!job) return;
              try {
                await handler(job.data as never);
              } catch (err) {
                // The payload names the run (taskId or jobId): pg-boss retries it by policy.
                log.error(
                  { err, queue: kind, queueJobId: job.id, ...job.data },
                  'job handler failed',
                );
                throw err;
              }
            },
          );
          workerIds.set(kind, [...(workerIds.get(kind) ?? []), id]);
        }
      }
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
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
