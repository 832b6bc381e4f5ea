import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { creditLedger, entitlements } from '../src/db/schema.js';
import { CreditsService } from '../src/modules/credits/credits.service.js';
import { UsersRepository } from '../src/repositories/users.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';

describe.each(DATABASE_TARGETS)('credit ledger under concurrency on $name', (target) => {
  let skip: string | null = null;
  let database: Database;
  let credits: CreditsService;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    database = await target.open();
    credits = new CreditsService(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** A user whose CREDIT balance is `limit` units. */
  const userWithBalance = async (limit: number) => {
    const user = await new UsersRepository(database.db).createWithEntitlements(
      {
        email: `ledger-${Math.random().toString(36).slice(2)}@example.com`,
        username: 'ledger',
        passwordHash: 'x',
        currentPlan: 'free',
      },
      [{ feature: 'CREDIT', limit }],
    );
    return user.id;
  };
  const usageOf = async (userId: string) => {
    const [row] = await database.db
      .select()
      .from(entitlements)
      .where(eq(entitlements.userId, userId));
    return row!.usage;
  };

  it('lets exactly 10 of 50 parallel charges through a balance that covers 10', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(100);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        credits.charge(userId, 'CREDIT', 10, `parallel:${userId}:${i}`, 'parallel charge'),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'BALANCE_NOT_ENOUGH' });
    }
    expect(await usageOf(userId)).toBe(100);
    const rows = await database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId));
    expect(rows).toHaveLength(10);
  });

  it('charges concurrent retries with the same key once, without errors', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(1000);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => credits.charge(userId, 'CREDIT', 30, 'task:same', 'retry')),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await usageOf(userId)).toBe(30);
    // And a retry much later is still a no-op.
    await credits.charge(userId, 'CREDIT', 30, 'task:same', 'retry');
    expect(await usageOf(userId)).toBe(30);
  });

  it('refunds failed work once, even when refunds race', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(100);
    await credits.charge(userId, 'CREDIT', 40, `job:${userId}`, 'export');
    await credits.charge(userId, 'CREDIT', 20, `task:${userId}`, 'task');
    expect(await usageOf(userId)).toBe(60);
    await Promise.all(Array.from({ length: 10 }, () => credits.refund(`job:${userId}`)));
    expect(await usageOf(userId)).toBe(20);
    await credits.refund(`job:${userId}`);
    expect(await usageOf(userId)).toBe(20);
    // The refunded balance can be spent again, up to the limit and no further.
    await credits.charge(userId, 'CREDIT', 80, `again:${userId}`, 'again');
    await expect(
      credits.charge(userId, 'CREDIT', 1, `over:${userId}`, 'over'),
    ).rejects.toMatchObject({
      code: 'BALANCE_NOT_ENOUGH',
    });
    expect(await usageOf(userId)).toBe(100);
  });

  it('moves the ledger for plan grants and top-ups once per key', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(100);
    await credits.charge(userId, 'CREDIT', 100, `spent:${userId}`, 'spent');
    expect(await credits.grantPlan(userId, 'vip_month', 'CREATE', `create:${userId}`)).toBe(true);
    expect(await credits.grantPlan(userId, 'vip_month', 'CREATE', `create:${userId}`)).toBe(false);
    const rows = await database.db
      .select()
      .from(entitlements)
      .where(eq(entitlements.userId, userId));
    const credit = rows.find((row) => row.feature === 'CREDIT')!;
    expect(credit).toMatchObject({ limit: 2000, usage: 0 });
    expect(rows.find((row) => row.feature === 'CANVAS_EXPORT')!.limit).toBe(-1);
    await Promise.all([
      credits.topUp(userId, 1000, `topup:${userId}`),
      credits.topUp(userId, 1000, `topup:${userId}`),
    ]);
    const [after] = await database.db
      .select()
      .from(entitlements)
      .where(eq(entitlements.userId, userId))
      .then((all) => all.filter((row) => row.feature === 'CREDIT'));
    expect(after!.limit).toBe(3000);
    const actions = await database.db
      .select({ action: creditLedger.action })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId));
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['CREATE', 'CREDIT']));
  });

  it('refuses work over a ceiling limit such as the longest video', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(100);
    await credits.grantPlan(userId, 'free', 'CREATE', `free:${userId}`);
    await credits.assertWithinLimit(userId, 'MAX_VIDEO_MINUTES', 60, 'A 60 min video');
    await expect(
      credits.assertWithinLimit(userId, 'MAX_VIDEO_MINUTES', 61, 'This video (61 min)'),
    ).rejects.toMatchObject({
      code: 'USAGE_LIMIT_REACHED',
      message: expect.stringMatching(/limit of 60/),
    });
    await credits.grantPlan(userId, 'ssvip_month', 'UPGRADE', `up:${userId}`);
    await credits.assertWithinLimit(userId, 'MAX_VIDEO_MINUTES', 600, 'A 10 hour video');
  });
});
