import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOwned } from '../../db/owned.js';
import { jobs, moments, tasks } from '../../db/schema.js';

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

  /** The shared export with where it came from: its video's title and its moment's own words. */
  async byShareId(shareId: string): Promise<
    | {
        job: ExportRow;
        videoTitle: string | null;
        momentText: string | null;
        /** The source video's key, for its stored facts (its frame size). */
        mediaKey: string | null;
      }
    | undefined
  > {
    const [row] = await this.db
      .select({
        job: jobs,
        videoTitle: sql<string | null>`${tasks.video}->>'title'`,
        mediaKey: tasks.mediaKey,
        momentText: sql<
          string | null
        >`coalesce(nullif(${moments.description}, ''), ${moments.transcript})`,
      })
      .from(jobs)
      .leftJoin(tasks, eq(tasks.id, jobs.taskId))
      .leftJoin(moments, eq(moments.id, jobs.momentId))
      .where(eq(jobs.shareId, shareId))
      .limit(1);
    return row;
  }
}
