import type { CreditBucket } from '@moments/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  creditBuckets,
  creditLedger,
  creditOperations,
  jobs,
  tasks,
  users,
} from '../../../db/schema.js';

/** A transaction handle, so callers can move credits inside their own transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type OperationRow = typeof creditOperations.$inferSelect;
export type LedgerRowInsert = typeof creditLedger.$inferInsert;

/**
 * The ledger's SQL: operation keys, buckets and ledger rows. Only the Ledger writes through it
 * (its rules decide what moves); the shown cost of a task or export is set here too, from what
 * the ledger still holds for it.
 */
export class LedgerRepository {
  constructor(readonly db: Db) {}

  /** Inside a caller's transaction this is a savepoint: a refused charge rolls back only itself. */
  transaction<T>(tx: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
    return (tx ?? this.db).transaction(work);
  }

  /**
   * Serialises every credit movement of one user (PostgreSQL: a transaction-scoped advisory lock;
   * PGlite runs one transaction at a time anyway), so concurrent charges never both spend the
   * same balance.
   */
  async lockUser(tx: Tx | Db, userId: string): Promise<void> {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`credits:${userId}`}, 0))`,
    );
  }

  /** Claims an operation key; false when it exists (the operation happened before). */
  async claim(tx: Tx | Db, row: typeof creditOperations.$inferInsert): Promise<boolean> {
    const claimed = await tx
      .insert(creditOperations)
      .values(row)
      .onConflictDoNothing({ target: creditOperations.key })
      .returning({ key: creditOperations.key });
    return claimed.length > 0;
  }

  async operation(tx: Tx | Db, key: string): Promise<OperationRow | undefined> {
    const [row] = await tx
      .select()
      .from(creditOperations)
      .where(eq(creditOperations.key, key))
      .limit(1);
    return row;
  }

  /** What the charge `key` took from each bucket. */
  chargedParts(tx: Tx | Db, key: string): Promise<{ bucket: string; amount: number }[]> {
    return tx
      .select({ bucket: creditLedger.bucket, amount: creditLedger.amount })
      .from(creditLedger)
      .where(and(eq(creditLedger.operationKey, key), eq(creditLedger.kind, 'charge')));
  }

  async buckets(
    tx: Tx | Db,
    userId: string,
    feature: string,
  ): Promise<{ bucket: CreditBucket; balance: number; unlimited: boolean }[]> {
    const rows = await tx
      .select()
      .from(creditBuckets)
      .where(and(eq(creditBuckets.userId, userId), eq(creditBuckets.feature, feature)));
    return rows.map((row) => ({
      bucket: row.bucket as CreditBucket,
      balance: row.balance,
      unlimited: row.unlimited,
    }));
  }

  /** Every bucket of the user, of every feature (balances, entitlements, the history's header). */
  allBuckets(userId: string, tx: Tx | Db = this.db) {
    return tx.select().from(creditBuckets).where(eq(creditBuckets.userId, userId));
  }

  /** Net credit units the work still holds: its charges minus its refunds. */
  async netCharged(work: { taskId: string } | { jobId: string }, tx: Tx | Db = this.db) {
    const where =
      'taskId' in work ? eq(creditLedger.taskId, work.taskId) : eq(creditLedger.jobId, work.jobId);
    const [row] = await tx
      .select({ net: sql<number>`coalesce(-sum(${creditLedger.amount}), 0)::int` })
      .from(creditLedger)
      .where(and(where, sql`${creditLedger.kind} in ('charge', 'refund')`));
    return Number(row?.net ?? 0);
  }

  /** One page of the user's movements, newest first, with the work each belongs to. */
  movements(userId: string, limit: number, offset: number) {
    return this.db
      .select({
        movement: creditLedger,
        chargeKind: creditOperations.chargeKind,
        taskVideo: tasks.video,
        jobTitle: jobs.title,
      })
      .from(creditLedger)
      .leftJoin(creditOperations, eq(creditOperations.key, creditLedger.operationKey))
      .leftJoin(tasks, eq(tasks.id, creditLedger.taskId))
      .leftJoin(jobs, eq(jobs.id, creditLedger.jobId))
      .where(eq(creditLedger.userId, userId))
      .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
      .limit(limit)
      .offset(offset);
  }

  /** Adds `amount` (negative takes) to one bucket, creating it; returns the balance after. */
  async addToBucket(
    tx: Tx | Db,
    userId: string,
    feature: string,
    bucket: CreditBucket,
    amount: number,
  ): Promise<number | null> {
    const [row] = await tx
      .insert(creditBuckets)
      .values({ userId, feature, bucket, balance: Math.max(0, amount) })
      .onConflictDoUpdate({
        target: [creditBuckets.userId, creditBuckets.feature, creditBuckets.bucket],
        set: { balance: sql`${creditBuckets.balance} + ${amount}`, updatedAt: new Date() },
      })
      .returning({ balance: creditBuckets.balance });
    return row?.balance ?? null;
  }

  /** The plan bucket starts a period: `balance` to spend (or unlimited), nothing used yet. */
  async resetPlanBucket(
    tx: Tx | Db,
    userId: string,
    feature: string,
    balance: number,
    unlimited: boolean,
  ): Promise<void> {
    await tx
      .insert(creditBuckets)
      .values({ userId, feature, bucket: 'plan', balance, unlimited, periodUsed: 0 })
      .onConflictDoUpdate({
        target: [creditBuckets.userId, creditBuckets.feature, creditBuckets.bucket],
        set: { balance, unlimited, periodUsed: 0, updatedAt: new Date() },
      });
  }

  /** The plan bucket's `period_used`: what the user spent this period, from every bucket. */
  async addPeriodUse(tx: Tx | Db, userId: string, feature: string, amount: number) {
    await tx
      .insert(creditBuckets)
      .values({ userId, feature, bucket: 'plan', balance: 0, periodUsed: Math.max(0, amount) })
      .onConflictDoUpdate({
        target: [creditBuckets.userId, creditBuckets.feature, creditBuckets.bucket],
        set: { periodUsed: sql`greatest(${creditBuckets.periodUsed} + ${amount}, 0)` },
      });
  }

  async insertLedgerRow(tx: Tx | Db, row: LedgerRowInsert): Promise<void> {
    await tx.insert(creditLedger).values(row);
  }

  /** The user's plan, which prices and limits their work ('free' for an unknown user). */
  async planOf(userId: string, tx: Tx | Db = this.db): Promise<string> {
    const [row] = await tx
      .select({ plan: users.currentPlan })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row?.plan ?? 'free';
  }

  async setTaskCost(taskId: string, costCredits: number): Promise<void> {
    await this.db.update(tasks).set({ costCredits }).where(eq(tasks.id, taskId));
  }

  async setExportCost(jobId: string, costCredits: number): Promise<void> {
    await this.db.update(jobs).set({ costCredits }).where(eq(jobs.id, jobId));
  }
}
