import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { moments, tasks } from '../../db/schema.js';

export type MomentRow = typeof moments.$inferSelect;
export type NewMoment = typeof moments.$inferInsert;

/** Thin data access for moments. */
export class MomentsRepository {
  constructor(private readonly db: Db) {}

  /** Replaces a task's moments in one transaction, so a re-run never leaves a mix. */
  async replaceForTask(taskId: string, rows: NewMoment[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(moments).where(eq(moments.taskId, taskId));
      if (rows.length) await tx.insert(moments).values(rows);
    });
  }

  forTask(taskId: string) {
    return this.db.select().from(moments).where(eq(moments.taskId, taskId)).orderBy(moments.rank);
  }

  async findById(id: string): Promise<MomentRow | undefined> {
    const rows = await this.db.select().from(moments).where(eq(moments.id, id)).limit(1);
    return rows[0];
  }

  async update(id: string, patch: Partial<NewMoment>): Promise<MomentRow | undefined> {
    const [row] = await this.db.update(moments).set(patch).where(eq(moments.id, id)).returning();
    return row;
  }

  favorites(userId: string) {
    return this.db
      .select()
      .from(moments)
      .where(and(eq(moments.userId, userId), eq(moments.favorite, true)))
      .orderBy(desc(moments.createdAt));
  }

  clipped(userId: string) {
    return this.db
      .select()
      .from(moments)
      .where(and(eq(moments.userId, userId), eq(moments.clipped, true)))
      .orderBy(desc(moments.createdAt));
  }

  allForUser(userId: string, limit: number) {
    return this.db
      .select()
      .from(moments)
      .where(eq(moments.userId, userId))
      .orderBy(desc(moments.createdAt), moments.rank)
      .limit(limit);
  }

  /** Shared moments, best first: the public default list of the home page. */
  sharedByType(type: string, limit: number) {
    return this.db
      .select()
      .from(moments)
      .where(and(eq(moments.type, type), isNotNull(moments.shareId)))
      .orderBy(desc(moments.score), desc(moments.createdAt))
      .limit(limit);
  }

  async taskOf(moment: MomentRow) {
    const rows = await this.db.select().from(tasks).where(eq(tasks.id, moment.taskId)).limit(1);
    return rows[0];
  }
}
