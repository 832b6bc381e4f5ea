import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { insertOne } from '../../db/owned.js';
import { notifications } from '../../db/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

/** Thin data access for stored notifications; every read and write is scoped to the owner. */
export class NotificationsRepository {
  constructor(private readonly db: Db) {}

  insert(row: { userId: string; type: string; data: Record<string, unknown> }) {
    return insertOne(this.db, notifications, row);
  }

  /** One page, newest first; `before` (exclusive) leaves out the newer ones. */
  page(userId: string, limit: number, offset: number, before?: Date): Promise<NotificationRow[]> {
    return this.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, userId),
          before ? lt(notifications.createdAt, before) : undefined,
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.seq))
      .limit(limit)
      .offset(offset);
  }

  /** Marks viewed the user's notifications among `ids` (all still unviewed when 'unviewed'). */
  async markViewed(userId: string, ids: string[] | 'unviewed'): Promise<string[]> {
    const which =
      ids === 'unviewed' ? eq(notifications.viewed, false) : inArray(notifications.id, ids);
    const rows = await this.db
      .update(notifications)
      .set({ viewed: true })
      .where(and(eq(notifications.userId, userId), which))
      .returning({ id: notifications.id });
    return rows.map((row) => row.id);
  }

  async delete(userId: string, ids: string[]): Promise<string[]> {
    const rows = await this.db
      .delete(notifications)
      .where(and(eq(notifications.userId, userId), inArray(notifications.id, ids)))
      .returning({ id: notifications.id });
    return rows.map((row) => row.id);
  }
}
