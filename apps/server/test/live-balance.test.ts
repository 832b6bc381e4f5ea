/**
 * Every credit movement is pushed to the user's open clients (CREDITS_CHANGED), so each balance on
 * screen follows the ledger without a reload, in every tab: a charge at start, its refund, a
 * grant. Only the owner's clients hear of it. On PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { seedUpload } from './support/fixtures.js';

describe.each(DATABASE_TARGETS)('live balance on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  const heard: { userId: string; type: string }[] = [];
  let stop: () => Promise<void>;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
    stop = await t.services.bus.subscribe((userId, message) => {
      heard.push({ userId, type: message.type });
    });
  });
  afterAll(async () => {
    await stop?.();
    await t?.close();
  });

  const balanceChangesOf = (userId: string) =>
    heard.filter((m) => m.userId === userId && m.type === 'CREDITS_CHANGED').length;

  it('pushes a change to the owner when a start charges, a refund gives back and a grant adds', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'live');
    const other = await signUp(t.app, 'bystander');
    const video = await seedUpload(t, user.userId);
    // Signing up granted each their plan's credits: that was a change too.
    await expect.poll(() => balanceChangesOf(other.userId)).toBe(1);
    const before = balanceChangesOf(user.userId);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=upload&source_lang=en',
      headers: user.headers,
      payload: video,
    });
    expect(started.statusCode, started.body).toBe(200);
    await expect.poll(() => balanceChangesOf(user.userId)).toBeGreaterThan(before);

    const afterStart = balanceChangesOf(user.userId);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/highlight_moment/task?id=${started.json().data.id}`,
      headers: user.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expect.poll(() => balanceChangesOf(user.userId)).toBeGreaterThan(afterStart);

    const afterRefund = balanceChangesOf(user.userId);
    await t.services.billing.ledger.grant(user.userId, {
      source: 'reward',
      amount: 50,
      key: `test:reward:${user.userId}`,
      reason: 'A reward',
    });
    await expect.poll(() => balanceChangesOf(user.userId)).toBeGreaterThan(afterRefund);
    expect(balanceChangesOf(other.userId), 'nothing of it reached another user').toBe(1);
  });
});
