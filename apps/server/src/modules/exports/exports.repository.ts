import { and, desc, eq, lt, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { jobs } from '../../db/schema.js';

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
export type JobPatch = Partial<Omit<NewJob, 'id' | 'userId' | 'createdAt'>>;

/** Thin data access for export jobs. */
export class ExportsRepository {
  constructor(private readonly db: Db) {}

  async insert(job: NewJob): Promise<JobRow> {
    const [row] = await this.db.insert(jobs).values(job).returning();
    if (!row) throw new Error('job insert returned nothing');
    return row;
  }

  async findById(id: string): Promise<JobRow | undefined> {
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
  async updateRun(id: string, runToken: string, patch: JobPatch): Promise<JobRow | undefined> {
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

  /** Running jobs whose worker stopped sending heart-beats. */
  findOrphaned(staleBefore: Date) {
    return this.db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.status, 'IN_PROGRESS'),
          isNotNull(jobs.startedAt),
          lt(jobs.heartbeatAt, staleBefore),
        ),
      );
  }
}
