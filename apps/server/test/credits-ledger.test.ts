import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { creditBuckets, creditLedger } from '../src/db/schema.js';
import {
  CreditReads,
  Ledger,
  LedgerRepository,
  type ChargeKey,
} from '../src/modules/billing/index.js';
import { UsersRepository } from '../src/modules/auth/users.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';

describe.each(DATABASE_TARGETS)('credit ledger under concurrency on $name', (target) => {
  let skip: string | null = null;
  let database: Database;
  let ledger: Ledger;
  let reads: CreditReads;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    database = await target.open();
    const ledgerRepo = new LedgerRepository(database.db);
    ledger = new Ledger(ledgerRepo);
    reads = new CreditReads(ledgerRepo);
  });
  afterAll(async () => {
    await database?.close();
  });

  const task = (n = 0): ChargeKey => ({ kind: 'task-run', taskId: randomUUID(), attempt: n });

  /** A user on the free plan whose CREDIT balance is `units` (all of it the plan's grant). */
  const userWithBalance = async (units: number) => {
    const user = await new UsersRepository(database.db).create({
      email: `ledger-${Math.random().toString(36).slice(2)}@example.com`,
      username: 'ledger',
      passwordHash: 'x',
      currentPlan: 'free',
    });
    await ledger.grant(user.id, {
      source: 'plan',
      plan: 'free',
      action: null,
      key: `s:${user.id}`,
    });
    await ledger.charge(user.id, task(), 'CREDIT', 600 - units);
    return user.id;
  };
  const credit = async (userId: string) =>
    (await reads.entitlements(userId, 'free')).find((e) => e.feature === 'CREDIT')!;
  const buckets = async (userId: string) =>
    Object.fromEntries(
      (await database.db.select().from(creditBuckets).where(eq(creditBuckets.userId, userId)))
        .filter((row) => row.feature === 'CREDIT')
        .map((row) => [row.bucket, row.balance]),
    );

  it('lets exactly 10 of 50 parallel charges through a balance that covers 10', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(100);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => ledger.charge(userId, task(), 'CREDIT', 10)),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'BALANCE_NOT_ENOUGH' });
    }
    expect(await credit(userId)).toMatchObject({ limit: 600, usage: 600 });
    expect((await buckets(userId)).plan).toBe(0);
  });

  it('charges concurrent retries with the same key once, without errors', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(600);
    const same = task(3);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => ledger.charge(userId, same, 'CREDIT', 30)),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect((await credit(userId)).usage).toBe(30);
    await ledger.charge(userId, same, 'CREDIT', 30);
    expect((await credit(userId)).usage).toBe(30);
  });

  it('refunds failed work once, to the buckets it came from, even when refunds race', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(100);
    await ledger.grant(userId, {
      source: 'purchased',
      amount: 50,
      key: `buy:${userId}`,
      reason: 'top-up',
    });
    // 120 units: the plan's 100 first, then 20 of the 50 purchased.
    const job: ChargeKey = { kind: 'caption-export', jobId: randomUUID() };
    await ledger.charge(userId, job, 'CREDIT', 120);
    expect(await buckets(userId)).toMatchObject({ plan: 0, purchased: 30 });
    await Promise.all(Array.from({ length: 10 }, () => ledger.refund(job)));
    expect(await buckets(userId)).toMatchObject({ plan: 100, purchased: 50 });
    expect(await ledger.refund(job)).toBe(false);
    const rows = await database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.jobId, (job as { jobId: string }).jobId));
    expect(rows.map((row) => [row.kind, row.bucket, row.amount, row.balanceAfter]).sort()).toEqual(
      [
        ['charge', 'plan', -100, 0],
        ['charge', 'purchased', -20, 30],
        ['refund', 'plan', 100, 100],
        ['refund', 'purchased', 20, 50],
      ].sort(),
    );
  });

  it('keeps purchased and reward credits through plan grants; the plan grant resets once per key', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const userId = await userWithBalance(100);
    await Promise.all([
      ledger.grant(userId, {
        source: 'purchased',
        amount: 1000,
        key: `topup:${userId}`,
        reason: 'top-up',
      }),
      ledger.grant(userId, {
        source: 'purchased',
        amount: 1000,
        key: `topup:${userId}`,
        reason: 'top-up',
      }),
    ]);
    await ledger.grant(userId, {
      source: 'reward',
      amount: 500,
      key: `ref:${userId}`,
      reason: 'invite',
    });
    const vip = {
      source: 'plan' as const,
      plan: 'vip_month',
      action: 'CREATE' as const,
      key: `c:${userId}`,
    };
    expect(await ledger.grant(userId, vip)).toBe(true);
    expect(await ledger.grant(userId, vip)).toBe(false);
    expect(await buckets(userId)).toEqual({ plan: 2000, reward: 500, purchased: 1000 });
    const entitlements = await reads.entitlements(userId, 'vip_month');
    expect(entitlements.find((e) => e.feature === 'CREDIT')).toMatchObject({
      limit: 3500,
      usage: 0,
    });
    expect(entitlements.find((e) => e.feature === 'CANVAS_EXPORT')!.limit).toBe(-1);
    // The free plan's 100 left expired with the new period, as a ledger row.
    const expired = await database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.operationKey, `c:${userId}:expire`));
    expect(expired.filter((row) => row.feature === 'CREDIT').map((row) => row.amount)).toEqual([
      -100,
    ]);
  });

  it('refuses a video longer than the plan allows', async (ctx) => {
    if (skip) return ctx.skip(skip);
    expect(() => reads.assertVideoLength('free', 60 * 60_000)).not.toThrow();
    expect(() => reads.assertVideoLength('free', 61 * 60_000)).toThrow(
      expect.objectContaining({
        code: 'VIDEO_TOO_LONG',
        message: expect.stringMatching(/limit of 60/),
      }),
    );
    expect(() => reads.assertVideoLength('ssvip_month', 600 * 60_000)).not.toThrow();
  });
});
