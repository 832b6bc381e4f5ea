import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOwned, insertOne, type RowPatch } from '../../db/owned.js';
import { jobs } from '../../db/schema.js';

export type ExportRow = typeof jobs.$inferSelect;
export type NewExport = typeof jobs.$inferInsert;
export type ExportPatch = RowPatch<NewExport>;

/** Thin data access for export jobs. */
export class ExportsRepository {
  constructor(private readonly db: Db) {}

  /** `tx`: the caller's transaction, so the row, its charge and its queue job commit together. */
  insert(job: NewExport, tx: Db = this.db): Promise<ExportRow> {
    return insertOne(tx, jobs, job);
  }

  /** The user's export, or 404 when it is not theirs (another user's id reads as missing). */
  findOwned(userId: string, id: unknown): Promise<ExportRow> {
    return findOwned(this.db, jobs, userId, id, 'Job');
  }

  async findById(id: string): Promise<ExportRow | undefined> {
    const rows = await this.db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
    return rows[0];
  }

  listForUser(userId: string, limit: number, offset: number, type?: string) {
    const conditions = [eq(jobs.userId, userId)];
    if (type) conditions.push(eq(jobs.type, type));
    return this.db
      .select()
      .from(jobs)
      .where(and(...conditions))
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(limit)
      .offset(offset);
  }

  /** Updates a job only while the caller holds its run, so a stale worker never overwrites it. */
  async updateRun(
    id: string,
    runToken: string,
    patch: ExportPatch,
  ): Promise<ExportRow | undefined> {
    const [row] = await this.db
      .update(jobs)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(jobs.id, id), eq(jobs.runToken, runToken)))
      .returning();
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(jobs).where(eq(jobs.id, id));
  }

  /** The exports made of a task (its moments' clips and its caption videos). */
  async idsForTask(taskId: string): Promise<string[]> {
    const rows = await this.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.taskId, taskId));
    return rows.map((row) => row.id);
  }

  /**
   * Claims the run for one worker: only a queued run, or one whose worker stopped heart-beating,
   * can be claimed, so a second delivery of the same token (pg-boss expiry retry) is refused
   * while the first run is alive.
   */
  async claimRun(id: string, runToken: string, staleBefore: Date): Promise<ExportRow | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(jobs)
      .set({ startedAt: now, heartbeatAt: now, updatedAt: now })
      .where(
        and(
          eq(jobs.id, id),
          eq(jobs.runToken, runToken),
          eq(jobs.status, 'IN_PROGRESS'),
          or(isNull(jobs.startedAt), lt(jobs.heartbeatAt, staleBefore)),
        ),
      )
      .returning();
    return row;
  }

  /**
   * Unfinished jobs nobody heart-beats: a started run whose worker died, or a queued one whose
   * queue job was lost (the heart-beat of a queued job is its creation or last claim).
   */
  findOrphaned(staleBefore: Date) {
    return this.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.status, 'IN_PROGRESS'), lt(jobs.heartbeatAt, staleBefore)));
  }
}
