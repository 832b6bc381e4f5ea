import type PgBoss from 'pg-boss';
import { JOB_KINDS, jobPolicy, type JobKind } from './job-kinds.js';

const STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
type JobState = (typeof STATES)[number];

interface QueueFailure {
  id: string;
  failedAt: Date | null;
  attempts: number;
  /** The handler's error message (or pg-boss's, for a job that ran past its timeout). */
  error: string;
}

/** One queue as an operator sees it: its policy, how many jobs are in each state, what failed. */
export interface QueueView {
  kind: JobKind;
  policy: {
    attempts: number;
    timeoutSeconds: number;
    concurrency: number | 'WORKER_CONCURRENCY';
    every: string | null;
    background: boolean;
  };
  /** The cron pg-boss holds for this kind (null: not periodic, or not scheduled). */
  scheduled: string | null;
  counts: Record<JobState, number>;
  failures: QueueFailure[];
  /** Which workers take it (WORKER_QUEUES `asr` or `render`, or `every` worker). */
  takenBy: 'asr' | 'render' | 'every';
  /** How long the oldest job that could run now has waited, in seconds (null: none waits). */
  oldestWaitingSeconds: number | null;
  /** The jobs a worker holds, with when it took them. */
  actives: { id: string; startedOn: Date }[];
  /** Runs sent again because their worker went silent (task and export runs with a run token). */
  resumes: number;
}

/** A live server process as `npm run jobs` sees it (modules/deployment server_processes). */
export interface WorkerProcess {
  hostname: string;
  pid: number;
  roles: string[];
  queues: string[];
  startedAt: Date;
}

/** An active job no live worker can be holding: every worker of its queue started after it. */
export function staleActives(
  queue: Pick<QueueView, 'takenBy' | 'actives'>,
  workers: WorkerProcess[],
): { id: string; startedOn: Date }[] {
  const takers = workersOf(queue.takenBy, workers);
  return queue.actives.filter(
    (active) => !takers.some((worker) => worker.startedAt.getTime() <= active.startedOn.getTime()),
  );
}

function workersOf(takenBy: QueueView['takenBy'], workers: WorkerProcess[]): WorkerProcess[] {
  return workers.filter(
    (worker) =>
      worker.roles.includes('worker') && (takenBy === 'every' || worker.queues.includes(takenBy)),
  );
}
export type QueueOverview = QueueView[];

/** Failures shown per queue (the newest). */
const FAILURES_SHOWN = 5;

/**
 * Reads every declared queue's state from pg-boss's own tables (jobs still in the job table;
 * pg-boss archives finished ones after a while, so the counts are recent work).
 */
export async function readQueueOverview(db: PgBoss.Db): Promise<QueueOverview> {
  // One statement, so one snapshot: a job that fails while this reads is either counted and
  // listed, or neither (two queries once showed a failure beside a failed count of 0).
  const snapshot = await db.executeSql(
    `WITH counts AS (
       SELECT name, state::text AS state, count(*)::int AS count FROM pgboss.job GROUP BY name, state
     ), failures AS (
       SELECT name, id::text AS id, completed_on AS "failedAt", retry_count AS "retries", output
         FROM (SELECT *, row_number() OVER (PARTITION BY name ORDER BY completed_on DESC NULLS LAST) AS n
                 FROM pgboss.job WHERE state = 'failed') newest
        WHERE n <= $1
     ), waiting AS (
       SELECT name, extract(epoch FROM now() - min(created_on))::float8 AS seconds FROM pgboss.job
        WHERE state IN ('created', 'retry') AND start_after <= now() GROUP BY name
     ), actives AS (
       SELECT name, id::text AS id, started_on AS "startedOn" FROM pgboss.job WHERE state = 'active'
     ), resumes AS (
       SELECT name, count(*)::int AS count FROM pgboss.job
        WHERE name IN ('task-run', 'export-render') AND data ? 'runToken' GROUP BY name
     )
     SELECT (SELECT coalesce(json_agg(counts), '[]'::json) FROM counts) AS counts,
            (SELECT coalesce(json_agg(failures ORDER BY name, "failedAt" DESC NULLS LAST), '[]'::json)
               FROM failures) AS failures,
            (SELECT coalesce(json_agg(waiting), '[]'::json) FROM waiting) AS waiting,
            (SELECT coalesce(json_agg(actives ORDER BY "startedOn"), '[]'::json) FROM actives) AS actives,
            (SELECT coalesce(json_agg(resumes), '[]'::json) FROM resumes) AS resumes`,
    [FAILURES_SHOWN],
  );
  const schedules = await db.executeSql(`SELECT name, cron FROM pgboss.schedule`, []);
  const scheduleRows = schedules.rows as Array<{ name: string; cron: string }>;
  const read = snapshot.rows[0] as {
    counts: unknown;
    failures: unknown;
    waiting: unknown;
    actives: unknown;
    resumes: unknown;
  };
  const waitingRows = jsonRows(read.waiting) as Array<{ name: string; seconds: number }>;
  const activeRows = jsonRows(read.actives) as Array<{
    name: string;
    id: string;
    startedOn: string | Date | null;
  }>;
  const resumeRows = jsonRows(read.resumes) as Array<{ name: string; count: number }>;
  const countRows = jsonRows(read.counts) as Array<{
    name: string;
    state: JobState;
    count: number;
  }>;
  const failureRows = jsonRows(read.failures) as Array<{
    name: string;
    id: string;
    failedAt: Date | string | null;
    retries: number;
    output: unknown;
  }>;
  return (Object.keys(JOB_KINDS) as JobKind[]).map((kind) => {
    const policy = jobPolicy(kind);
    const byState = Object.fromEntries(STATES.map((state) => [state, 0])) as Record<
      JobState,
      number
    >;
    for (const row of countRows) if (row.name === kind) byState[row.state] = Number(row.count);
    return {
      kind,
      policy: {
        attempts: 1 + (policy.retryLimit ?? 0),
        timeoutSeconds: policy.expireInSeconds ?? 15 * 60,
        concurrency: policy.background ? 1 : (policy.concurrency ?? 'WORKER_CONCURRENCY'),
        every: policy.every ?? null,
        background: policy.background === true,
      },
      scheduled: scheduleRows.find((row) => row.name === kind)?.cron ?? null,
      counts: byState,
      takenBy: JOB_KINDS[kind].takenBy,
      oldestWaitingSeconds: (() => {
        const row = waitingRows.find((waiting) => waiting.name === kind);
        return row ? Math.max(0, Math.round(Number(row.seconds))) : null;
      })(),
      actives: activeRows
        .filter((row) => row.name === kind && row.startedOn !== null)
        .map((row) => ({ id: row.id, startedOn: new Date(row.startedOn!) })),
      resumes: Number(resumeRows.find((row) => row.name === kind)?.count ?? 0),
      failures: failureRows
        .filter((row) => row.name === kind)
        .map((row) => ({
          id: row.id,
          failedAt: row.failedAt === null ? null : new Date(row.failedAt),
          attempts: Number(row.retries) + 1,
          error: errorText(row.output),
        })),
    };
  });
}

/** pg-boss stores a thrown error serialised ({ message, stack }); a timeout as { value: ... }. */
function errorText(output: unknown): string {
  const value = typeof output === 'string' ? safeParse(output) : output;
  if (value && typeof value === 'object') {
    const record = value as { message?: unknown; value?: unknown };
    if (typeof record.message === 'string') return record.message;
    if (record.value !== undefined) return errorText(record.value);
  }
  if (typeof value === 'string') return value;
  return value === null || value === undefined ? '(no error recorded)' : JSON.stringify(value);
}

/** A json_agg column: parsed by the driver already, or its text (as some drivers give it). */
function jsonRows(value: unknown): unknown[] {
  const parsed = typeof value === 'string' ? safeParse(value) : value;
  return Array.isArray(parsed) ? parsed : [];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: the text is the error
  }
}

const QUEUE_NAMES = ['asr', 'render'] as const;

const age = (seconds: number) =>
  seconds < 120
    ? `${seconds}s`
    : seconds < 7200
      ? `${Math.round(seconds / 60)} min`
      : `${Math.round(seconds / 3600)} h`;

/**
 * The operator view as text: the live workers per queue (a queue nobody takes said first),
 * then one block per kind. `workers` absent: the process table was not read.
 */
export function formatQueueOverview(overview: QueueOverview, workers?: WorkerProcess[]): string {
  const lines: string[] = [];
  if (workers) {
    const now = Date.now();
    lines.push('workers (live server processes on this database):');
    for (const name of QUEUE_NAMES) {
      const takers = workersOf(name, workers);
      const kinds = overview.filter((queue) => queue.takenBy === name).map((queue) => queue.kind);
      lines.push(
        takers.length
          ? `  ${name}: ${takers
              .map(
                (worker) =>
                  `${worker.hostname} pid ${worker.pid} (up ${age(Math.round((now - worker.startedAt.getTime()) / 1000))})`,
              )
              .join(', ')}`
          : `  ${name}: NO WORKER: ${kinds.join(', ')} wait until one starts (ROLES=worker WORKER_QUEUES=${name})`,
      );
    }
    const apis = workers.filter((worker) => worker.roles.includes('api'));
    lines.push(`  api: ${apis.length} process(es)`);
  }
  for (const queue of overview) {
    const { policy, counts } = queue;
    const rules = [
      `attempts ${policy.attempts}`,
      `timeout ${policy.timeoutSeconds}s`,
      `concurrency ${policy.concurrency}`,
      ...(policy.every ? [`every "${policy.every}"`] : []),
      ...(policy.every && queue.scheduled !== policy.every ? ['NOT SCHEDULED'] : []),
      ...(policy.background ? ['background'] : []),
    ];
    const tally = STATES.map((state) => `${state} ${counts[state]}`).join(', ');
    lines.push(`${queue.kind}  (${rules.join(', ')}, taken by ${queue.takenBy})`, `  ${tally}`);
    const notes: string[] = [];
    if (queue.oldestWaitingSeconds !== null) {
      notes.push(`oldest waiting ${age(queue.oldestWaitingSeconds)}`);
    }
    if (queue.resumes > 0) notes.push(`resumed runs ${queue.resumes}`);
    if (workers) {
      const stale = staleActives(queue, workers);
      if (stale.length) {
        notes.push(
          `${stale.length} active job(s) whose worker is gone [${stale.map((job) => job.id).join(', ')}]: end them with npm run jobs -- --end-stale`,
        );
      }
    }
    if (notes.length) lines.push(`  ${notes.join('; ')}`);
    for (const failure of queue.failures) {
      const when = failure.failedAt?.toISOString() ?? 'unknown time';
      lines.push(
        `  failed ${when} after ${failure.attempts} attempt(s) [${failure.id}]: ${failure.error}`,
      );
    }
  }
  return lines.join('\n');
}
