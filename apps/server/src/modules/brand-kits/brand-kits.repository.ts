import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { UserRows, findOwned } from '../../db/owned.js';
import { brandKits } from '../../db/schema.js';

export type BrandKitRow = typeof brandKits.$inferSelect;
export type BrandKitInsert = typeof brandKits.$inferInsert;

/** Thin data access for brand kits; reads by id are scoped to the owner. */
export class BrandKitsRepository extends UserRows<typeof brandKits> {
  constructor(db: Db) {
    // Listed oldest first: the order the user made them in.
    super(db, brandKits, [asc(brandKits.createdAt), asc(brandKits.id)]);
  }

  /** The owner's kit; another user's id or a malformed one is NOT_FOUND like a missing one. */
  owned(userId: string, id: unknown): Promise<BrandKitRow> {
    return findOwned(this.db, brandKits, userId, id, 'Brand kit');
  }

  async update(id: string, patch: Partial<BrandKitInsert>): Promise<BrandKitRow> {
    const [row] = await this.db
      .update(brandKits)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(brandKits.id, id))
      .returning();
    if (!row) throw new Error(`brand kit ${id} vanished during its update`);
    return row;
  }

  /** The kit went into a preview or an export: the studio opens the next clip with it. */
  async markUsed(id: string): Promise<void> {
    await this.db
      .update(brandKits)
      .set({ lastUsedAt: sql`now()` })
      .where(eq(brandKits.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(brandKits).where(eq(brandKits.id, id));
  }
}
