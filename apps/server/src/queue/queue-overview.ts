import type PgBoss from 'pg-boss';
import { JOB_KINDS, jobPolicy, type JobKind } from './job-kinds.js';

const STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type JobState = (typeof STATES)[number];

export interface QueueFailure {
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
     )
     SELECT (SELECT coalesce(json_agg(counts), '[]'::json) FROM counts) AS counts,
            (SELECT coalesce(json_agg(failures ORDER BY name, "failedAt" DESC NULLS LAST), '[]'::json)
               FROM failures) AS failures`,
    [FAILURES_SHOWN],
  );
  const schedules = await db.executeSql(`SELECT name, cron FROM pgboss.schedule`, []);
  const scheduleRows = schedules.rows as Array<{ name: string; cron: string }>;
  const read = snapshot.rows[0] as { counts: unknown; failures: unknown };
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

/** The operator view as text: one block per queue. */
export function formatQueueOverview(overview: QueueOverview): string {
  const lines: string[] = [];
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
    lines.push(`${queue.kind}  (${rules.join(', ')})`, `  ${tally}`);
    for (const failure of queue.failures) {
      const when = failure.failedAt?.toISOString() ?? 'unknown time';
      lines.push(
        `  failed ${when} after ${failure.attempts} attempt(s) [${failure.id}]: ${failure.error}`,
      );
    }
  }
  return lines.join('\n');
}
