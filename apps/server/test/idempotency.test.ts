/**
 * Idempotency keys on the calls that start paid work, on PGlite and PostgreSQL: a double click (two
 * requests at once with one key) or a retry after a lost reply makes one piece of work and one
 * charge; the same key with another request is refused; a key is kept a day, per user.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { IDEMPOTENCY_KEY_HEADER } from '@moments/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billingCheckoutSessions,
  creditLedger,
  idempotencyKeys,
  jobs,
  tasks,
} from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { entitlementOf } from './support/credits.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask, seedUpload } from './support/fixtures.js';

type User = Awaited<ReturnType<typeof signUp>>;

describe.each(DATABASE_TARGETS)('idempotency keys on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    // No workers: what is checked is what the calls start and charge, not the work itself.
    t = await startTestApp(await target.open(), {}, { media: new FakeMediaRepository() });
  });
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.services.database.db;
  const post = (user: User, url: string, payload: object | undefined, key?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...user.headers, ...(key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {}) },
      ...(payload ? { payload } : {}),
    });
  const upload = (user: User, durationMs?: number) => seedUpload(t, user.userId, durationMs);
  const START = '/api/highlight_moment/task/start?url_source=upload&source_lang=en';
  const tasksOf = async (user: User) =>
    db().select().from(tasks).where(eq(tasks.userId, user.userId));
  const chargedOf = async (user: User) =>
    -(await db().select().from(creditLedger).where(eq(creditLedger.userId, user.userId)))
      .filter((row) => row.amount < 0)
      .reduce((sum, row) => sum + row.amount, 0);

  it('makes one task and one charge of a double start with one key, and answers both alike', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'double-start');
    const video = await upload(user);
    const [first, second] = await Promise.all([
      post(user, START, video, 'start-click-1'),
      post(user, START, video, 'start-click-1'),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.id).toBe(first.json().data.id);
    const replayed = [first, second].filter((r) => r.headers['idempotent-replayed'] === 'true');
    expect(replayed).toHaveLength(1);
    expect(await tasksOf(user)).toHaveLength(1);
    const charged = await chargedOf(user);
    expect(charged).toBe(first.json().data.cost_credits);

    // A retry after a lost reply, later: the same answer, still one charge.
    const later = await post(user, START, video, 'start-click-1');
    expect(later.json().data.id).toBe(first.json().data.id);
    expect(await chargedOf(user)).toBe(charged);
    // A new intent (a new key) is new work.
    const again = await post(user, START, video, 'start-click-2');
    expect(again.statusCode, again.body).toBe(200);
    expect(await tasksOf(user)).toHaveLength(2);
  });

  it('refuses the same key with another request, and runs nothing for it', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'reused-key');
    const video = await upload(user);
    expect((await post(user, START, video, 'one-key')).statusCode).toBe(200);
    const other = await post(user, `${START}&query=pricing`, video, 'one-key');
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await tasksOf(user)).toHaveLength(1);
  });

  it('keeps keys apart per user: another user with the same key starts their own task', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const ana = await signUp(t.app, 'ana');
    const bo = await signUp(t.app, 'bo');
    const anaStart = await post(ana, START, await upload(ana), 'shared-key');
    const boStart = await post(bo, START, await upload(bo), 'shared-key');
    expect(boStart.statusCode, boStart.body).toBe(200);
    expect(boStart.json().data.id).not.toBe(anaStart.json().data.id);
    expect(await tasksOf(bo)).toHaveLength(1);
  });

  it('makes one question and one charge of a double Ask with one key', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'double-ask');
    const video = await upload(user);
    const root = await seedFinishedTask(t, user.userId, {
      video: path.join(t.dataDir, 'none.mp4'),
      mediaStored: false,
      title: 'Transcribed',
      durationMs: 150_000,
      words: [{ text: 'hello', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 500, title: 'Hello' },
    });
    await db()
      .update(tasks)
      .set({ video: { ...video, video_platform: 'upload' } })
      .where(eq(tasks.id, root.taskId));
    const ask = `${START}&query=pricing&root_task_id=${root.taskId}`;
    const [first, second] = await Promise.all([
      post(user, ask, video, 'ask-1'),
      post(user, ask, video, 'ask-1'),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json().data.id).toBe(first.json().data.id);
    const questions = (await tasksOf(user)).filter((task) => task.id !== root.taskId);
    expect(questions).toHaveLength(1);
    expect(await chargedOf(user)).toBe(first.json().data.cost_credits);
  });

  it('makes one export of a double Export with one key, using one of the plan’s exports', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'double-export');
    const video = path.join(t.dataDir, 'source.mp4');
    await fs.writeFile(video, 'stand-in media: the fake tools never read it');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'A talk',
      durationMs: 60_000,
      words: [{ text: 'hello', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 20_000, title: 'Hello' },
    });
    const before = await entitlementOf(t.services, user.userId, 'CANVAS_EXPORT');
    const body = {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: momentId,
      options: { aspect: '9:16', quality: '720p', template: 'one_word' },
    };
    const [first, second] = await Promise.all([
      post(user, '/api/job', body, 'export-1'),
      post(user, '/api/job', body, 'export-1'),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json().data.job_id).toBe(first.json().data.job_id);
    const made = await db().select().from(jobs).where(eq(jobs.userId, user.userId));
    expect(made).toHaveLength(1);
    const after = await entitlementOf(t.services, user.userId, 'CANVAS_EXPORT');
    expect(after.usage - before.usage).toBe(1);
  });

  it('hands back one checkout for a double Buy with one key', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'double-buy');
    const pricing = await t.app.inject({ method: 'GET', url: '/api/subscription/pricing_table' });
    const body = { price: pricing.json().data.credit_packs[0].price as string, quantity: 1 };
    const [first, second] = await Promise.all([
      post(user, '/api/payment', body, 'buy-1'),
      post(user, '/api/payment', body, 'buy-1'),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json().data).toBe(first.json().data);
    const checkouts = await db()
      .select()
      .from(billingCheckoutSessions)
      .where(eq(billingCheckoutSessions.userId, user.userId));
    expect(checkouts).toHaveLength(1);
  });

  it('keeps a refusal for its key too, and answers a malformed key with 400', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'refused');
    // Longer than the free plan's longest video: refused, and the same key gets the same answer.
    const long = await upload(user, 10 * 3_600_000);
    const first = await post(user, START, long, 'too-long');
    expect(first.statusCode).toBe(402);
    const second = await post(user, START, long, 'too-long');
    expect(second.statusCode).toBe(402);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');

    const video = await upload(user);
    for (const key of ['has spaces', 'k'.repeat(256)]) {
      const bad = await post(user, START, video, key);
      expect(bad.statusCode, key).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_FAILED');
    }
    expect(await tasksOf(user)).toHaveLength(0);
  });

  it('forgets a key after a day: then it is a new action, and housekeeping removes the old row', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'a-day-later');
    const video = await upload(user);
    const first = await post(user, START, video, 'yesterday');
    const mine = and(eq(idempotencyKeys.userId, user.userId), eq(idempotencyKeys.key, 'yesterday'));
    await db()
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(mine);
    const later = await post(user, START, video, 'yesterday');
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().data.id).not.toBe(first.json().data.id);

    await db()
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(mine);
    const swept = await t.services.housekeeping.runOnce();
    expect(swept.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(idempotencyKeys).where(mine)).toHaveLength(0);
  });
});
