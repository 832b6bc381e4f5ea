import type { Db } from '../../db/client.js';
import { findOwned } from '../../db/owned.js';
import { uploads } from '../../db/schema.js';

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
}
