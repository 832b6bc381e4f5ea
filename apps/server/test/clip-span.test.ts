/**
 * A moment's clip export has a longest span, by plan: one export buys a short, not the whole video
 * (which the caption export prices by its length). On PGlite and PostgreSQL, with the fake media
 * tools.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { maxClipExportMs } from '@moments/domain/plans';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, users } from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { entitlementOf } from './support/credits.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask } from './support/fixtures.js';

describe.each(DATABASE_TARGETS)('the span of a clip export on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { media: new FakeMediaRepository() });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a clip longer than the plan's longest, naming it, and takes one within it", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'whole-video');
    const video = path.join(t.dataDir, 'source.mp4');
    await fs.writeFile(video, 'stand-in media: the fake tools never read it');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'A long talk',
      durationMs: 600_000,
      words: [
        { text: 'first', startMs: 0, endMs: 500 },
        { text: 'middle', startMs: 100_000, endMs: 100_500 },
        { text: 'last', startMs: 590_000, endMs: 590_500 },
      ],
      moment: { startMs: 0, endMs: 30_000, title: 'The start' },
    });
    const exportSpan = (endMs: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/job',
        headers: user.headers,
        payload: {
          type: 'VIRAL_MOMENT_EXPORT',
          moment_id: momentId,
          options: {
            aspect: '9:16',
            quality: '720p',
            template: 'one_word',
            start_ms: 0,
            end_ms: endMs,
          },
        },
      });
    const before = await entitlementOf(t.services, user.userId, 'CANVAS_EXPORT');
    const whole = await exportSpan(591_000);
    expect(whole.statusCode).toBe(422);
    expect(whole.json().code).toBe('CLIP_TOO_LONG');
    expect(whole.json().message).toMatch(/at most 3:00 long .*captions page/);
    expect(whole.json().details).toMatchObject({ limit_ms: 180_000 });
    expect(
      await t.services.database.db.select().from(jobs).where(eq(jobs.userId, user.userId)),
    ).toHaveLength(0);
    expect((await entitlementOf(t.services, user.userId, 'CANVAS_EXPORT')).usage).toBe(
      before.usage,
    );

    // Five minutes: over the free plan's three, within the standard plan's ten.
    const fiveMinutes = await exportSpan(300_000);
    expect(fiveMinutes.statusCode).toBe(422);
    expect(fiveMinutes.json().code).toBe('CLIP_TOO_LONG');

    const clip = await exportSpan(Math.min(101_000, maxClipExportMs('free')));
    expect(clip.statusCode, clip.body).toBe(200);

    await t.services.database.db
      .update(users)
      .set({ currentPlan: 'vip_month' })
      .where(eq(users.id, user.userId));
    expect(maxClipExportMs('vip_month')).toBeGreaterThanOrEqual(300_000);
    const paid = await exportSpan(300_000);
    expect(paid.statusCode, paid.body).toBe(200);
  });
});
