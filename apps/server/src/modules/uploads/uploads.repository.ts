import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOneBy, findOwned, insertOne } from '../../db/owned.js';
import { tasks, uploads, uploadStarts } from '../../db/schema.js';

export type UploadRow = typeof uploads.$inferSelect;
export type NewUpload = typeof uploads.$inferInsert;

/** Stored uploads: one row per validated video file, with its thumbnail. */
export class UploadsRepository {
  constructor(private readonly db: Db) {}

  insert(row: NewUpload): Promise<UploadRow> {
    return insertOne(this.db, uploads, row);
  }

  /** The user's upload, or 404 when it is not theirs (another user's id reads as missing). */
  findOwned(userId: string, id: unknown): Promise<UploadRow> {
    return findOwned(this.db, uploads, userId, id, 'Upload');
  }

  /** The user's upload, or undefined when it is gone (a task reading an upload it started from). */
  findOfUser(userId: string, id: string): Promise<UploadRow | undefined> {
    return findOneBy(this.db, uploads, and(eq(uploads.id, id), eq(uploads.userId, userId)));
  }

  /** What the user's kept uploads hold, in bytes. */
  async usedBytes(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<string | number | null>`coalesce(sum(${uploads.sizeBytes}), 0)` })
      .from(uploads)
      .where(eq(uploads.userId, userId));
    return Number(row?.total ?? 0);
  }

  /** When the user's uploads started since `since` (the rate window). */
  async startsSince(userId: string, since: Date): Promise<Date[]> {
    const rows = await this.db
      .select({ createdAt: uploadStarts.createdAt })
      .from(uploadStarts)
      .where(and(eq(uploadStarts.userId, userId), gt(uploadStarts.createdAt, since)));
    return rows.map((row) => row.createdAt);
  }

  /** Counts a started upload; the user's starts older than `forgetBefore` no longer count. */
  async recordStart(userId: string, at: Date, forgetBefore: Date): Promise<void> {
    await this.db
      .delete(uploadStarts)
      .where(and(eq(uploadStarts.userId, userId), lt(uploadStarts.createdAt, forgetBefore)));
    await this.db.insert(uploadStarts).values({ userId, createdAt: at });
  }

  /** Whether a task of the user still running reads the upload at `url` (upload://id). */
  async isReadByRunningTask(userId: string, url: string): Promise<boolean> {
    const running = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(
        and(
          eq(tasks.userId, userId),
          sql`${tasks.video}->>'url' = ${url}`,
          inArray(tasks.status, ['START', 'IN_PROGRESS']),
        ),
      )
      .limit(1);
    return running.length > 0;
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(uploads).where(eq(uploads.id, id));
  }
}
