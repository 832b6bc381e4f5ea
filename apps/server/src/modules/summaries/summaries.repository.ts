import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOneBy } from '../../db/owned.js';
import { summaries } from '../../db/schema.js';

export type SummaryRow = typeof summaries.$inferSelect;
export type NewSummary = typeof summaries.$inferInsert;

/** Thin data access for summaries (one per task). */
export class SummariesRepository {
  constructor(private readonly db: Db) {}

  forTask(taskId: string): Promise<SummaryRow | undefined> {
    return findOneBy(this.db, summaries, eq(summaries.taskId, taskId));
  }

  byShareId(shareId: string): Promise<SummaryRow | undefined> {
    return findOneBy(this.db, summaries, eq(summaries.shareId, shareId));
  }

  /** Writes the task's summary, keeping an existing share link (a refresh does not unshare). */
  async upsert(row: NewSummary): Promise<SummaryRow> {
    const [saved] = await this.db
      .insert(summaries)
      .values(row)
      .onConflictDoUpdate({
        target: summaries.taskId,
        set: {
          overview: row.overview,
          chapters: row.chapters,
          keyPoints: row.keyPoints,
          method: row.method,
          warnings: row.warnings,
          updatedAt: new Date(),
        },
      })
      .returning();
    return saved!;
  }

  /** A follow-up on the same video gets its root's summary (not shared: it has its own link). */
  async copy(fromTaskId: string, toTaskId: string, db: Db = this.db): Promise<void> {
    const [row] = await db
      .select()
      .from(summaries)
      .where(eq(summaries.taskId, fromTaskId))
      .limit(1);
    if (!row) return;
    const {
      taskId: _from,
      shareId: _share,
      createdAt: _created,
      updatedAt: _updated,
      ...copy
    } = row;
    await db
      .insert(summaries)
      .values({ ...copy, taskId: toTaskId })
      .onConflictDoNothing();
  }

  async setShareId(taskId: string, shareId: string | null): Promise<SummaryRow | undefined> {
    const [row] = await this.db
      .update(summaries)
      .set({ shareId })
      .where(eq(summaries.taskId, taskId))
      .returning();
    return row;
  }
}
