import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOwned } from '../../db/owned.js';
import { tasks, uploads } from '../../db/schema.js';

export type UploadRow = typeof uploads.$inferSelect;
export type NewUpload = typeof uploads.$inferInsert;

/** Stored uploads: one row per validated video file, with its thumbnail. */
export class UploadsRepository {
  constructor(private readonly db: Db) {}

  async insert(row: NewUpload): Promise<UploadRow> {
    const [saved] = await this.db.insert(uploads).values(row).returning();
    return saved!;
  }

  /** The user's upload, or 404 when it is not theirs (another user's id reads as missing). */
  findOwned(userId: string, id: unknown): Promise<UploadRow> {
    return findOwned(this.db, uploads, userId, id, 'Upload');
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
