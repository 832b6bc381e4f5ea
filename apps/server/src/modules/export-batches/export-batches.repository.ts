import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOwned, insertOne } from '../../db/owned.js';
import { exportBatches, jobs, moments } from '../../db/schema.js';
import type { Tx } from '../billing/index.js';

export type ExportBatchRow = typeof exportBatches.$inferSelect;
export type MomentRow = typeof moments.$inferSelect;
export type BatchClipRow = typeof jobs.$inferSelect;

/** Data access for export-all batches; their clips are ordinary rows of `jobs`. */
export class ExportBatchesRepository {
  constructor(private readonly db: Db) {}

  /** `tx`: the caller's transaction, so the batch and its clips' jobs and charges commit together. */
  async insert(
    batch: { userId: string; taskId: string; options: unknown },
    tx: Db | Tx = this.db,
  ): Promise<ExportBatchRow> {
    return insertOne(tx, exportBatches, batch);
  }

  async setJobIds(id: string, jobIds: string[], tx: Db | Tx = this.db): Promise<void> {
    await tx.update(exportBatches).set({ jobIds }).where(eq(exportBatches.id, id));
  }

  /** The user's batch, or 404 when it is not theirs (another user's id reads as missing). */
  findOwned(userId: string, id: unknown): Promise<ExportBatchRow> {
    return findOwned(this.db, exportBatches, userId, id, 'Export batch');
  }

  /** One of the user's clips (any export of theirs), or 404 as for a batch. */
  ownedClip(userId: string, id: unknown): Promise<BatchClipRow> {
    return findOwned(this.db, jobs, userId, id, 'Job');
  }

  async findById(id: string): Promise<ExportBatchRow | undefined> {
    const rows = await this.db
      .select()
      .from(exportBatches)
      .where(eq(exportBatches.id, id))
      .limit(1);
    return rows[0];
  }

  /** The clips' jobs of a batch (in no particular order: the batch's `job_ids` orders them). */
  clips(batchId: string): Promise<BatchClipRow[]> {
    return this.db.select().from(jobs).where(eq(jobs.batchId, batchId));
  }

  /** The best `count` moments of a task of the user, best first. */
  topMoments(userId: string, taskId: string, count: number): Promise<MomentRow[]> {
    return this.db
      .select()
      .from(moments)
      .where(and(eq(moments.taskId, taskId), eq(moments.userId, userId)))
      .orderBy(asc(moments.rank), asc(moments.startMs))
      .limit(count);
  }

  /** The moments of `ids` that are the user's and belong to the task. */
  momentsOf(userId: string, taskId: string, ids: string[]): Promise<MomentRow[]> {
    return this.db
      .select()
      .from(moments)
      .where(and(eq(moments.userId, userId), eq(moments.taskId, taskId), inArray(moments.id, ids)));
  }

  async findMoment(id: string): Promise<MomentRow | undefined> {
    const rows = await this.db.select().from(moments).where(eq(moments.id, id)).limit(1);
    return rows[0];
  }

  /**
   * Marks the batch finished when none of its clips is still rendering, once: of two clips
   * ending together, whichever commits its end last finds the other ended too, and only one of
   * them sets `finished_at` (the row lock and the `IS NULL` check). Returns the row when this
   * call finished it.
   */
  async finishIfDone(id: string): Promise<ExportBatchRow | undefined> {
    const [row] = await this.db
      .update(exportBatches)
      .set({ finishedAt: new Date() })
      .where(
        and(
          eq(exportBatches.id, id),
          isNull(exportBatches.finishedAt),
          sql`NOT EXISTS (SELECT 1 FROM ${jobs} WHERE ${jobs.batchId} = ${exportBatches.id} AND ${jobs.status} = 'IN_PROGRESS')`,
        ),
      )
      .returning();
    return row;
  }
}
