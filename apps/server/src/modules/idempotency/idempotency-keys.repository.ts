import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema.js';

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** The kept replies of paid calls, by user and Idempotency-Key. */
export class IdempotencyKeysRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the key for a first request: true when this request is the first (a row older than
   * `expiredBefore` is forgotten first), false when another request holds or held it.
   */
  async claim(
    userId: string,
    key: string,
    fingerprint: string,
    expiredBefore: Date,
  ): Promise<boolean> {
    const mine = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
    await this.db
      .delete(idempotencyKeys)
      .where(and(mine, lt(idempotencyKeys.createdAt, expiredBefore)));
    const taken = await this.db
      .insert(idempotencyKeys)
      .values({ userId, key, fingerprint })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return taken.length === 1;
  }

  async find(userId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .limit(1);
    return row;
  }

  /** Keeps the first request's reply for the requests that repeat it. */
  async complete(userId: string, key: string, status: number, body: string): Promise<void> {
    await this.db
      .update(idempotencyKeys)
      .set({ status, body })
      .where(
        and(
          eq(idempotencyKeys.userId, userId),
          eq(idempotencyKeys.key, key),
          isNull(idempotencyKeys.status),
        ),
      );
  }

  /** Forgets a key whose first request failed on our side, so the same key may try again. */
  async release(userId: string, key: string): Promise<void> {
    await this.db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.userId, userId),
          eq(idempotencyKeys.key, key),
          isNull(idempotencyKeys.status),
        ),
      );
  }

  /** Housekeeping: removes the keys older than `before`; returns how many. */
  async removeOlderThan(before: Date): Promise<number> {
    const removed = await this.db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, before))
      .returning({ key: idempotencyKeys.key });
    return removed.length;
  }
}
