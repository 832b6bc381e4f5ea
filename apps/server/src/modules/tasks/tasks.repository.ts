import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tasks, transcripts } from '../../db/schema.js';
import type { TaskRow } from './task-mapper.js';

export type NewTask = typeof tasks.$inferInsert;
export type TaskPatch = Partial<Omit<NewTask, 'id' | 'userId' | 'createdAt'>>;

/** Thin data access for tasks and transcripts. */
export class TasksRepository {
  constructor(private readonly db: Db) {}

  async insert(task: NewTask): Promise<TaskRow> {
    const [row] = await this.db.insert(tasks).values(task).returning();
    if (!row) throw new Error('task insert returned nothing');
    return row;
  }

  async findById(id: string): Promise<TaskRow | undefined> {
    const rows = await this.db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
    return rows[0];
  }

  listForUser(userId: string, limit: number, offset: number) {
    return this.db
      .select()
      .from(tasks)
      .where(eq(tasks.userId, userId))
      .orderBy(desc(tasks.createdAt), desc(tasks.id))
      .limit(limit)
      .offset(offset);
  }

  /** The root task and every query task chained to it (spec §7 query_history). */
  history(userId: string, rootTaskId: string) {
    return this.db
      .select()
      .from(tasks)
      .where(
        and(
          eq(tasks.userId, userId),
          or(eq(tasks.id, rootTaskId), eq(tasks.rootTaskId, rootTaskId)),
        ),
      )
      .orderBy(tasks.createdAt);
  }

  /**
   * Updates a task only while the caller still holds its run (runToken matches), so a stale
   * worker from before a restart can never overwrite the fresh run's state.
   */
  async updateRun(id: string, runToken: string, patch: TaskPatch): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .update(tasks)
      .set({ ...patch, updatedAt: new Date() })
      .where(and(eq(tasks.id, id), eq(tasks.runToken, runToken)))
      .returning();
    return row;
  }

  async update(id: string, patch: TaskPatch): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .update(tasks)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(tasks.id, id))
      .returning();
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(tasks).where(eq(tasks.id, id));
  }

  /** Tasks whose worker stopped sending heart-beats: the process died mid-run. */
  findOrphaned(staleBefore: Date) {
    return this.db
      .select()
      .from(tasks)
      .where(
        and(inArray(tasks.status, ['START', 'IN_PROGRESS']), lt(tasks.heartbeatAt, staleBefore)),
      );
  }

  async saveTranscript(row: typeof transcripts.$inferInsert): Promise<void> {
    await this.db
      .insert(transcripts)
      .values(row)
      .onConflictDoUpdate({
        target: transcripts.taskId,
        set: {
          language: row.language,
          durationMs: row.durationMs,
          engine: row.engine,
          segments: row.segments,
          createdAt: sql`now()`,
        },
      });
  }

  async findTranscript(taskId: string) {
    const rows = await this.db
      .select()
      .from(transcripts)
      .where(eq(transcripts.taskId, taskId))
      .limit(1);
    return rows[0];
  }

  async deleteTranscript(taskId: string): Promise<void> {
    await this.db.delete(transcripts).where(eq(transcripts.taskId, taskId));
  }
}
