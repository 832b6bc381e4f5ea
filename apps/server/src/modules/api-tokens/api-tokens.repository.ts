import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { UserRows } from '../../db/owned.js';
import { apiTokens } from '../../db/schema.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Thin data access for personal API tokens; every read but the lookup by hash is per owner. */
export class ApiTokensRepository extends UserRows<typeof apiTokens> {
  constructor(db: Db) {
    super(db, apiTokens, [asc(apiTokens.createdAt), asc(apiTokens.id)]);
  }

  /** Removes the owner's token; false when the user has no token with this id. */
  async delete(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(apiTokens)
      .where(and(eq(apiTokens.userId, userId), eq(apiTokens.id, id)))
      .returning({ id: apiTokens.id });
    return rows.length > 0;
  }

  /** Removes every token of the user; the ids removed. */
  async deleteAllOf(userId: string): Promise<string[]> {
    const rows = await this.db
      .delete(apiTokens)
      .where(eq(apiTokens.userId, userId))
      .returning({ id: apiTokens.id });
    return rows.map((row) => row.id);
  }

  async findByHash(tokenHash: string): Promise<ApiTokenRow | undefined> {
    const [row] = await this.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, tokenHash))
      .limit(1);
    return row;
  }

  /** Records a use, at most once per `staleBefore` (a busy script does not write on every call). */
  async touch(id: string, now: Date, staleBefore: Date): Promise<void> {
    await this.db
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiTokens.id, id),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore)),
        ),
      );
  }
}
