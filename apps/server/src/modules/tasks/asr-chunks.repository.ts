import { and, asc, eq, inArray, lt, or, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { asrChunks } from '../../db/schema.js';

export type AsrChunkRow = typeof asrChunks.$inferSelect;

/** Thin access to a task's transcription chunks. */
export class AsrChunksRepository {
  constructor(private readonly db: Db) {}

  forTask(taskId: string): Promise<AsrChunkRow[]> {
    return this.db
      .select()
      .from(asrChunks)
      .where(eq(asrChunks.taskId, taskId))
      .orderBy(asc(asrChunks.idx));
  }

  /** Replaces the task's chunks with a new plan (all QUEUED). */
  async replace(
    taskId: string,
    rows: Omit<typeof asrChunks.$inferInsert, 'taskId'>[],
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(asrChunks).where(eq(asrChunks.taskId, taskId));
      if (rows.length) await tx.insert(asrChunks).values(rows.map((row) => ({ ...row, taskId })));
    });
  }

  /** Takes a QUEUED chunk for this worker; undefined when another took it or it is done. */
  async claim(
    taskId: string,
    idx: number,
    runToken: string,
    worker: string,
  ): Promise<AsrChunkRow | undefined> {
    const rows = await this.db
      .update(asrChunks)
      .set({
        status: 'RUNNING',
        attempts: sql`${asrChunks.attempts} + 1`,
        runToken,
        worker,
        heartbeatAt: new Date(),
        error: null,
      })
      .where(
        and(eq(asrChunks.taskId, taskId), eq(asrChunks.idx, idx), eq(asrChunks.status, 'QUEUED')),
      )
      .returning();
    return rows[0];
  }

  /** Writes only while `runToken` still holds the chunk; false once it was taken back. */
  async update(
    taskId: string,
    idx: number,
    runToken: string,
    patch: Partial<Pick<AsrChunkRow, 'status' | 'result' | 'error' | 'heartbeatAt'>>,
  ): Promise<boolean> {
    const rows = await this.db
      .update(asrChunks)
      .set(patch)
      .where(
        and(
          eq(asrChunks.taskId, taskId),
          eq(asrChunks.idx, idx),
          eq(asrChunks.runToken, runToken),
          eq(asrChunks.status, 'RUNNING'),
        ),
      )
      .returning({ idx: asrChunks.idx });
    return rows.length > 0;
  }

  /**
   * Puts chunks back in the queue: those given by index that failed, and those RUNNING whose
   * worker went silent before `staleBefore`. Returns the indices re-queued.
   */
  async requeue(taskId: string, indices: number[], staleBefore: Date): Promise<number[]> {
    if (!indices.length) return [];
    const rows = await this.db
      .update(asrChunks)
      .set({ status: 'QUEUED', runToken: null, heartbeatAt: null })
      .where(
        and(
          eq(asrChunks.taskId, taskId),
          inArray(asrChunks.idx, indices),
          or(
            eq(asrChunks.status, 'ERROR'),
            eq(asrChunks.status, 'QUEUED'),
            and(
              eq(asrChunks.status, 'RUNNING'),
              or(isNull(asrChunks.heartbeatAt), lt(asrChunks.heartbeatAt, staleBefore)),
            ),
          ),
        ),
      )
      .returning({ idx: asrChunks.idx });
    return rows.map((row) => row.idx);
  }

  /**
   * Chunks done in another language than the talk's, queued again to be heard in `language`
   * (a first hearing, not a retry: their attempts start over). Returns the indices queued.
   */
  async hearAgainIn(taskId: string, indices: number[], language: string): Promise<number[]> {
    if (!indices.length) return [];
    const rows = await this.db
      .update(asrChunks)
      .set({
        status: 'QUEUED',
        language,
        attempts: 0,
        result: null,
        runToken: null,
        worker: null,
        heartbeatAt: null,
        error: null,
      })
      .where(
        and(
          eq(asrChunks.taskId, taskId),
          inArray(asrChunks.idx, indices),
          eq(asrChunks.status, 'DONE'),
        ),
      )
      .returning({ idx: asrChunks.idx });
    return rows.map((row) => row.idx);
  }

  /** The transcript is saved: the chunks' own results are no longer needed. */
  async clearResults(taskId: string): Promise<void> {
    await this.db.update(asrChunks).set({ result: null }).where(eq(asrChunks.taskId, taskId));
  }
}
