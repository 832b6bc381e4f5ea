/**
 * The job table: every periodic piece of background work is a declared kind
 * that pg-boss keeps on a clock and a worker runs, and the operator view (`npm run jobs`) lists
 * each queue with its policy, its jobs by state and a failed job's error text. On PGlite and
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_KINDS, PERIODIC_KINDS, jobPolicy, type JobKind } from '../src/queue/job-kinds.js';
import { formatQueueOverview, type QueueOverview } from '../src/queue/queue-overview.js';
import { createJobQueue } from '../src/queue/queue.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { startTestApp, type TestApp } from './support/app.js';

const total = (overview: QueueOverview, kind: JobKind) =>
  Object.values(overview.find((queue) => queue.kind === kind)!.counts).reduce((a, b) => a + b, 0);

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.each(DATABASE_TARGETS)('the job table on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    // The clock looks every second here (10 s in the product), so its first runs come at once.
    t = await startTestApp(await target.open(), { JOB_CLOCK_SECONDS: '1' }, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('schedules every periodic kind, and a worker runs them', async (ctx) => {
    if (skip) return ctx.skip(skip);
    expect(PERIODIC_KINDS).toEqual(
      expect.arrayContaining([
        'housekeeping',
        'task-reap',
        'export-reap',
        'upload-sweep',
        'subscription-renewals',
      ]),
    );
    const overview = await t.services.queue.overview();
    expect(overview.map((queue) => queue.kind).sort()).toEqual(Object.keys(JOB_KINDS).sort());
    for (const kind of PERIODIC_KINDS) {
      expect(overview.find((queue) => queue.kind === kind)?.scheduled, kind).toBe(
        jobPolicy(kind).every,
      );
    }
    // The minute's kinds are sent by the clock's first look after the schedules are written;
    // housekeeping by the worker's start.
    for (const kind of ['task-reap', 'subscription-renewals', 'housekeeping'] as const) {
      await waitFor(
        `${kind} to be completed`,
        async () => {
          const queue = (await t.services.queue.overview()).find((q) => q.kind === kind)!;
          return queue.counts.completed > 0 ? queue : undefined;
        },
        30_000,
      );
    }
    const text = formatQueueOverview(await t.services.queue.overview());
    expect(text).toContain(
      'housekeeping  (attempts 2, timeout 1800s, concurrency 1, every "17 * * * *", taken by every)',
    );
    expect(text).not.toContain('NOT SCHEDULED');
  }, 60_000);

  it("shows a failed job's error text in the operator view", async (ctx) => {
    if (skip) return ctx.skip(skip);
    // A second process on the same database whose export reaping breaks (one attempt, no retry).
    const broken = await createJobQueue(t.services.database, undefined, { keepsClock: false });
    try {
      await t.services.queue.stopTaking();
      await broken.work(
        {
          'export-reap': async () => {
            throw new Error('exports table unreachable: connection reset');
          },
        },
        1,
      );
      const before = total(await broken.overview(), 'export-reap');
      await broken.send('export-reap', {});
      const queue = await waitFor('the failure', async () => {
        const found = (await broken.overview()).find((q) => q.kind === 'export-reap')!;
        return found.failures.length ? found : undefined;
      });
      expect(total(await broken.overview(), 'export-reap')).toBeGreaterThan(before);
      // The app's clock sends export-reap every minute too, and the broken worker may take that
      // one as well: each failure it ran is counted and listed, in one snapshot, with its text.
      expect(queue.counts.failed).toBeGreaterThanOrEqual(1);
      expect(queue.counts.failed).toBe(queue.failures.length);
      for (const failure of queue.failures) {
        expect(failure.error).toBe('exports table unreachable: connection reset');
        expect(failure.attempts).toBe(1);
      }
      expect(formatQueueOverview(await broken.overview())).toMatch(
        /export-reap .*\n.*failed [1-9]\d*\n {2}failed \S+ after 1 attempt\(s\) \[[0-9a-f-]+\]: exports table unreachable: connection reset/,
      );
    } finally {
      await broken.stop();
    }
  });
});
