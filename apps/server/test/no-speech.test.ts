/**
 * A video in which nothing is said has no summary to make, so it is not charged for one: the
 * task's summary stage makes none and says why (its credits go back), and a refresh is refused
 * before any charge. On PGlite and PostgreSQL.
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
    expect(made).toEqual({ made: false, warnings: [NO_SPEECH_SUMMARY] });

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
