import type { ClipSettings } from '@moments/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { clipDrafts } from '../../db/schema.js';

export type ClipDraftRow = typeof clipDrafts.$inferSelect;

/** Thin data access for the clip editor's saved settings, one row per user and moment. */
export class ClipDraftsRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string, momentId: string): Promise<ClipDraftRow | undefined> {
    const rows = await this.db
      .select()
      .from(clipDrafts)
      .where(and(eq(clipDrafts.userId, userId), eq(clipDrafts.momentId, momentId)))
      .limit(1);
    return rows[0];
  }

  /** The latest save wins: two tabs editing one clip keep what was changed last. */
  async save(userId: string, momentId: string, settings: ClipSettings): Promise<ClipDraftRow> {
    const [row] = await this.db
      .insert(clipDrafts)
      .values({ userId, momentId, settings })
      .onConflictDoUpdate({
        target: [clipDrafts.userId, clipDrafts.momentId],
        set: { settings, updatedAt: sql`now()` },
      })
      .returning();
    if (!row) throw new Error('clip draft upsert returned nothing');
    return row;
  }
}
