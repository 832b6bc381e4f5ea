import PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';

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

export interface JobQueue {
  send<K extends JobKind>(kind: K, payload: JobPayloads[K]): Promise<void>;
  /** Starts polling for every kind; throws when a kind has no handler. */
  work(handlers: Partial<JobHandlers>, concurrency: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss on the app's own database. On PGlite it runs through a small adapter: parameterised
 * statements through query(), and unparameterised (possibly multi-statement) SQL, such as its
 * migrations, through exec(), because PGlite's query() refuses several statements.
 */
export async function createJobQueue(database: Database): Promise<JobQueue> {
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
  boss.on('error', (error) => console.error('job queue error', error));
  await boss.start();
  for (const [kind, policy] of Object.entries(JOB_KINDS)) {
    await boss.createQueue(kind, { name: kind, ...policy });
  }

  return {
    async send(kind, payload) {
      await boss.send(kind, payload, JOB_KINDS[kind]);
    },
    async work(handlers, concurrency) {
      const missing = (Object.keys(JOB_KINDS) as JobKind[]).filter((kind) => !handlers[kind]);
      if (missing.length) throw new Error(`No job handler for: ${missing.join(', ')}`);
      for (const kind of Object.keys(JOB_KINDS) as JobKind[]) {
        const handler = handlers[kind] as JobHandler<typeof kind>;
        for (let i = 0; i < concurrency; i++) {
          await boss.work<JobPayloads[typeof kind]>(
            kind,
            { batchSize: 1, pollingIntervalSeconds: 1 },
            async ([job]) => {
              if (job) await handler(job.data as never);
            },
          );
        }
      }
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
