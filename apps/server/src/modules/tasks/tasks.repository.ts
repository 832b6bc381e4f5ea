import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOneBy, findOwned, insertOne, ownedBy, type RowPatch } from '../../db/owned.js';
import { tasks, transcripts } from '../../db/schema.js';
import { TASK_DTO_COLUMNS, type TaskRow } from './task-mapper.js';

export type NewTask = typeof tasks.$inferInsert;
export type TaskPatch = RowPatch<NewTask>;

/** Thin data access for tasks and transcripts. */
export class TasksRepository {
  constructor(private readonly db: Db) {}

  /** `db` may be the caller's transaction (the row and its queue job go in together). */
  insert(task: NewTask, db: Db = this.db): Promise<TaskRow> {
    return insertOne(db, tasks, task);
  }

  /** The user's task, or 404 when it is not theirs (another user's id reads as missing). */
  findOwned(userId: string, id: unknown): Promise<TaskRow> {
    return findOwned(this.db, tasks, userId, id, 'Task');
  }

  async findById(id: string): Promise<TaskRow | undefined> {
    const rows = await this.db.select().from(tasks).where(eq(tasks.id, id)).limit(1);
    return rows[0];
  }

  /** A page of the user's tasks, with only the columns the client's Task needs. */
  listForUser(userId: string, limit: number, offset: number) {
    return this.db
      .select(
        Object.fromEntries(TASK_DTO_COLUMNS.map((column) => [column, tasks[column]])) as {
          [K in (typeof TASK_DTO_COLUMNS)[number]]: (typeof tasks)[K];
        },
      )
      .from(tasks)
      .where(eq(tasks.userId, userId))
      .orderBy(desc(tasks.createdAt), desc(tasks.id))
      .limit(limit)
      .offset(offset);
  }

  /** The root task and every query task chained to it (the query history). */
  history(userId: string, rootTaskId: string) {
    return this.db
      .select()
      .from(tasks)
      .where(ownedBy(tasks, userId, or(eq(tasks.id, rootTaskId), eq(tasks.rootTaskId, rootTaskId))))
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

  /**
   * Claims the run for one worker: only a queued run, or one whose worker stopped heart-beating,
   * can be claimed, so a second delivery of the same token (pg-boss expiry retry) is refused
   * while the first run is alive.
   */
  async claimRun(id: string, runToken: string, staleBefore: Date): Promise<TaskRow | undefined> {
    const now = new Date();
    const [row] = await this.db
      .update(tasks)
      .set({ startedAt: now, heartbeatAt: now, updatedAt: now })
      .where(
        and(
          eq(tasks.id, id),
          eq(tasks.runToken, runToken),
          inArray(tasks.status, ['START', 'IN_PROGRESS']),
          or(isNull(tasks.startedAt), lt(tasks.heartbeatAt, staleBefore)),
        ),
      )
      .returning();
    return row;
  }

  async update(id: string, patch: TaskPatch, db: Db = this.db): Promise<TaskRow | undefined> {
    const [row] = await db
      .update(tasks)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(tasks.id, id))
      .returning();
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(tasks).where(eq(tasks.id, id));
  }

  /** Whether any task still reads the media at `mediaKey` (a follow-up reads its root's). */
  async mediaKeyInUse(mediaKey: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(eq(tasks.mediaKey, mediaKey))
      .limit(1);
    return rows.length > 0;
  }

  /** Whether a follow-up question started from the transcript of this chain's root. */
  async transcriptReused(rootId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.rootTaskId, rootId), eq(tasks.reusesTranscript, true)))
      .limit(1);
    return rows.length > 0;
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

  /** Tasks of the user that are queued or running. */
  /**
   * Queued or running tasks of the user. Inside a transaction, `lock` first takes the user's
   * advisory lock, so concurrent starts count one after another and cannot all slip under the limit.
   */
  async countRunning(userId: string, db: Db = this.db, lock = false): Promise<number> {
    if (lock)
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`task-slots:${userId}`}))`);
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(and(eq(tasks.userId, userId), inArray(tasks.status, ['START', 'IN_PROGRESS'])));
    return Number(row?.n ?? 0);
  }

  async saveTranscript(row: typeof transcripts.$inferInsert, db: Db = this.db): Promise<void> {
    await db
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

  findTranscript(taskId: string) {
    return findOneBy(this.db, transcripts, eq(transcripts.taskId, taskId));
  }

  async deleteTranscript(taskId: string, db: Db = this.db): Promise<void> {
    await db.delete(transcripts).where(eq(transcripts.taskId, taskId));
  }
}
