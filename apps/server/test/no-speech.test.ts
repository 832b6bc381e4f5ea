/**
 * A video in which nothing is said has no summary to make, so it is not charged for one: the
 * task's summary stage makes none and says why (its credits go back, and the credit history says
 * it was for want of speech), and a refresh is refused before any charge. On PGlite and PostgreSQL.
 */
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, tasks, transcripts } from '../src/db/schema.js';
import { NO_SPEECH_SUMMARY } from '../src/modules/summaries/summaries.service.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { seedFinishedTask } from './support/fixtures.js';

describe.each(DATABASE_TARGETS)('a video with no speech on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes no summary and charges none, at the task and at a refresh', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'silent');
    const { taskId } = await seedFinishedTask(t, user.userId, {
      video: path.join(t.dataDir, 'none.mp4'),
      mediaStored: false,
      title: 'Silent film',
      durationMs: 120_000,
      words: [{ text: 'placeholder', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 500, title: 'Nothing' },
    });
    const db = t.services.database.db;
    // The speech engine heard nothing.
    await db.update(transcripts).set({ segments: [] }).where(eq(transcripts.taskId, taskId));
    const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId));

    const made = await t.services.summaries.summariseTask(
      task!,
      { language: 'en', durationMs: 120_000, segments: [] },
      new AbortController().signal,
    );
    expect(made).toEqual({ made: false, heardNothing: true, warnings: [NO_SPEECH_SUMMARY] });

    // The task's summary was charged with it; the summary the stage did not make goes back.
    const charges = t.services.billing.tasks;
    const charged = { ...task!, reusesTranscript: false };
    const quote = await charges.charge(charged, 120_000);
    expect(quote.summary).toBeGreaterThan(0);
    await charges.refundUnmadeSummary(charged, made);
    const history = (
      await t.app.inject({
        method: 'GET',
        url: '/api/credit/history?page_size=100',
        headers: user.headers,
      })
    ).json().data as {
      movements: Array<{
        kind: string;
        amount: number;
        charge_kind: string | null;
        refund_cause: string | null;
      }>;
    };
    const summaryLines = history.movements.filter((m) => m.charge_kind === 'summary');
    expect(summaryLines.map((m) => [m.kind, m.amount, m.refund_cause]).sort()).toEqual(
      [
        ['charge', -quote.summary, null],
        ['refund', quote.summary, 'no_speech'],
      ].sort(),
    );
    // The run itself was delivered (moments), so it stays charged and says nothing of a refund.
    const runLines = history.movements.filter((m) => m.charge_kind === 'task-run');
    expect(runLines.map((m) => m.kind)).toEqual(['charge']);

    const ledgerBefore = await db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user.userId));
    const refresh = await t.app.inject({
      method: 'POST',
      url: `/api/summary/refresh?task_id=${taskId}`,
      headers: user.headers,
    });
    expect(refresh.statusCode).toBe(422);
    expect(refresh.json().message).toMatch(/no speech.*Nothing was charged/);
    const ledgerAfter = await db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user.userId));
    expect(ledgerAfter).toHaveLength(ledgerBefore.length);
  });
});
