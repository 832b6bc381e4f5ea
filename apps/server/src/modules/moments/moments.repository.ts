import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { findOwned } from '../../db/owned.js';
import { moments, tasks } from '../../db/schema.js';

export type MomentRow = typeof moments.$inferSelect;
export type NewMoment = typeof moments.$inferInsert;

/** Thin data access for moments. */
export class MomentsRepository {
  constructor(private readonly db: Db) {}

  /** The task's `limit` best-ranked moments: their span and the layout chosen for them. */
  bestOfTask(taskId: string, limit: number) {
    return this.db
      .select({ startMs: moments.startMs, endMs: moments.endMs, layout: moments.layout })
      .from(moments)
      .where(eq(moments.taskId, taskId))
      .orderBy(asc(moments.rank))
      .limit(limit);
  }

  /**
   * Stores a (re-)analysis of a task's moments of one type in one transaction, keeping what the
   * user did: a found moment whose span matches a stored one updates it in place (same id, so
   * favourites, feedback, clipped flags, share links and exports pointing at it survive); a
   * stored moment the analysis no longer finds is kept when the user touched it and dropped
   * otherwise. Returns the ids of the moments this analysis found for the first time.
   */
  async syncForTask(taskId: string, type: string, rows: NewMoment[]): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const stored = await tx
        .select()
        .from(moments)
        .where(and(eq(moments.taskId, taskId), eq(moments.type, type)));
      const unmatched = new Set(stored);
      const created: string[] = [];
      for (const row of rows) {
        const match = bestSpanMatch(row, unmatched);
        if (match) {
          unmatched.delete(match);
          const { taskId: _task, userId: _user, type: _type, ...analysis } = row;
          await tx
            .update(moments)
            .set({ ...analysis, isNew: false })
            .where(eq(moments.id, match.id));
        } else {
          const [inserted] = await tx
            .insert(moments)
            .values({ ...row, isNew: true })
            .returning({ id: moments.id });
          created.push(inserted!.id);
        }
      }
      let rank = rows.length;
      for (const old of [...unmatched].sort((a, b) => a.rank - b.rank)) {
        if (hasUserState(old)) {
          await tx
            .update(moments)
            .set({ rank: rank++, isNew: false })
            .where(eq(moments.id, old.id));
        } else {
          await tx.delete(moments).where(eq(moments.id, old.id));
        }
      }
      return created;
    });
  }

  forTask(taskId: string) {
    return this.db.select().from(moments).where(eq(moments.taskId, taskId)).orderBy(moments.rank);
  }

  /** The user's moment, or 404 when it is not theirs (another user's id reads as missing). */
  findOwned(userId: string, id: unknown): Promise<MomentRow> {
    return findOwned(this.db, moments, userId, id, 'Moment');
  }

  async findById(id: string): Promise<MomentRow | undefined> {
    const rows = await this.db.select().from(moments).where(eq(moments.id, id)).limit(1);
    return rows[0];
  }

  /** `tx`: the caller's transaction, so the change commits with what it goes with. */
  async update(
    id: string,
    patch: Partial<NewMoment>,
    tx: Db = this.db,
  ): Promise<MomentRow | undefined> {
    const [row] = await tx.update(moments).set(patch).where(eq(moments.id, id)).returning();
    return row;
  }

  favorites(userId: string) {
    return this.flagged(userId, moments.favorite);
  }

  clipped(userId: string) {
    return this.flagged(userId, moments.clipped);
  }

  /** The user's moments with `flag` set, newest first. */
  private flagged(userId: string, flag: typeof moments.favorite | typeof moments.clipped) {
    return this.db
      .select()
      .from(moments)
      .where(and(eq(moments.userId, userId), eq(flag, true)))
      .orderBy(desc(moments.createdAt));
  }

  allForUser(userId: string, limit: number) {
    return this.db
      .select()
      .from(moments)
      .where(eq(moments.userId, userId))
      .orderBy(desc(moments.createdAt), moments.rank)
      .limit(limit);
  }

  /**
   * Published moments of one list type, best first, each with its task, in one query: the public
   * default list of the home page (unlisted shares never).
   */
  sharedByTypeWithTasks(type: string, limit: number) {
    return this.db
      .select({
        moment: moments,
        task: {
          id: tasks.id,
          video: tasks.video,
          mediaKey: tasks.mediaKey,
          thumbnailKey: tasks.thumbnailKey,
        },
      })
      .from(moments)
      .innerJoin(tasks, eq(tasks.id, moments.taskId))
      .where(and(eq(moments.type, type), isNotNull(moments.shareId), eq(moments.published, true)))
      .orderBy(desc(moments.score), desc(moments.createdAt))
      .limit(limit);
  }

  async byShareId(shareId: string): Promise<MomentRow | undefined> {
    const rows = await this.db.select().from(moments).where(eq(moments.shareId, shareId)).limit(1);
    return rows[0];
  }

  async taskOf(moment: MomentRow) {
    const rows = await this.db.select().from(tasks).where(eq(tasks.id, moment.taskId)).limit(1);
    return rows[0];
  }
}

/** Spans this much alike (intersection over union) are the same moment found again. */
const SAME_MOMENT_OVERLAP = 0.8;

function bestSpanMatch(row: NewMoment, candidates: Iterable<MomentRow>): MomentRow | undefined {
  let best: MomentRow | undefined;
  let bestOverlap = SAME_MOMENT_OVERLAP;
  for (const candidate of candidates) {
    const overlap = spanOverlap(row, candidate);
    if (overlap >= bestOverlap) {
      best = candidate;
      bestOverlap = overlap;
    }
  }
  return best;
}

function spanOverlap(a: { startMs: number; endMs: number }, b: { startMs: number; endMs: number }) {
  const intersection = Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs));
  const union = Math.max(a.endMs, b.endMs) - Math.min(a.startMs, b.startMs);
  return union > 0 ? intersection / union : 0;
}

/** Whether the user did anything with the moment that a re-analysis must not throw away. */
function hasUserState(row: MomentRow): boolean {
  return row.favorite || row.clipped || row.feedback != null || row.shareId != null;
}
