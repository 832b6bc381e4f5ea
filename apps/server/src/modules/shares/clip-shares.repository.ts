import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOwned } from '../../db/owned.js';
import { jobs } from '../../db/schema.js';

export type ExportRow = typeof jobs.$inferSelect;

/** The share link of an export (a column of its row). */
export class ClipSharesRepository {
  constructor(private readonly db: Db) {}

  /** The user's export, or 404 when it is not theirs (another user's id reads as missing). */
  ownedExport(userId: string, jobId: unknown): Promise<ExportRow> {
    return findOwned(this.db, jobs, userId, jobId, 'Export');
  }

  async setShareId(jobId: string, shareId: string | null): Promise<void> {
    await this.db.update(jobs).set({ shareId }).where(eq(jobs.id, jobId));
  }

  async byShareId(shareId: string): Promise<ExportRow | undefined> {
    const [job] = await this.db.select().from(jobs).where(eq(jobs.shareId, shareId)).limit(1);
    return job;
  }
}
