import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { moments, tasks, transcripts } from '../../db/schema.js';

/** One ranked hit as the database orders it; the service loads and shapes the rows of a page. */
export interface RankedHit {
  kind: 'task' | 'moment';
  taskId: string;
  momentId: string | null;
}

export interface SearchScope {
  /** The signed-in requester, or null: anonymous visitors search shared moments only (spec §6). */
  userId: string | null;
  /** The query as typed: full-text search reads it with websearch syntax ("quotes", -not, or). */
  query: string;
  /** Words for the substring fallback (partial words, scripts the 'simple' parser does not split). */
  fallbackWords: string[];
  limit: number;
  offset: number;
}

/** `%`, `_` and the escape character itself match literally (used with `ESCAPE '\'`). */
export const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

function containsAll(column: SQL, words: string[]): SQL {
  if (!words.length) return sql`false`;
  return sql.join(
    words.map((word) => sql`${column} ILIKE ${`%${escapeLike(word)}%`} ESCAPE '\\'`),
    sql` AND `,
  );
}

/**
 * Thin data access for the home search. Text vectors are stored, generated columns with GIN
 * indexes (migration 0002_security: moments.search_vec, transcripts.search_vec, tasks.search_title
 * and the search_text columns the substring fallback reads), so a query no longer builds a vector
 * for every visible row. The same SQL runs on PGlite and PostgreSQL.
 */
export class SearchRepository {
  constructor(private readonly db: Db) {}

  /**
   * Hits the requester may see, best first: title hits above text hits, then full-text rank, then
   * moment score and recency. Visibility is decided here and only here: published moments for
   * everyone (an unlisted share is not published), plus the requester's own moments and tasks.
   */
  async rank(scope: SearchScope): Promise<RankedHit[]> {
    const { userId, query, fallbackWords, limit, offset } = scope;
    const titleHit = sql`(to_tsvector('simple', d.title) @@ q.tsq OR (${containsAll(sql`d.title`, fallbackWords)}))`;
    const anyHit = sql`(d.vec @@ q.tsq OR (${containsAll(sql`(d.title || ' ' || d.body)`, fallbackWords)}))`;
    const statement = sql`
      WITH q AS (SELECT websearch_to_tsquery('simple', ${query}) AS tsq),
      docs AS (
        SELECT 'moment'::text AS kind, m.id AS moment_id, m.task_id, m.title,
          m.search_text AS body, m.search_vec AS vec, m.score, m.created_at
        FROM moments m
        WHERE (m.share_id IS NOT NULL AND m.published) OR m.user_id = ${userId}
        UNION ALL
        SELECT 'task'::text, NULL::uuid, t.id, t.search_title,
          coalesce(tr.search_text, ''),
          setweight(to_tsvector('simple', t.search_title), 'A') || coalesce(tr.search_vec, ''::tsvector),
          NULL::integer, t.created_at
        FROM tasks t LEFT JOIN transcripts tr ON tr.task_id = t.id
        WHERE t.user_id = ${userId}
      )
      SELECT d.kind, d.task_id, d.moment_id
      FROM docs d, q
      WHERE ${anyHit}
      ORDER BY ${titleHit} DESC, ts_rank(d.vec, q.tsq) DESC, d.score DESC NULLS LAST,
        d.created_at DESC, coalesce(d.moment_id, d.task_id)
      LIMIT ${limit} OFFSET ${offset}`;
    const result = (await this.db.execute(statement)) as unknown as {
      rows: { kind: 'task' | 'moment'; task_id: string; moment_id: string | null }[];
    };
    return result.rows.map((row) => ({
      kind: row.kind,
      taskId: row.task_id,
      momentId: row.moment_id,
    }));
  }

  momentsWithTasks(ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .select({ moment: moments, video: tasks.video })
      .from(moments)
      .innerJoin(tasks, eq(tasks.id, moments.taskId))
      .where(inArray(moments.id, ids));
  }

  tasksWithTranscripts(ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .select({ task: tasks, segments: transcripts.segments })
      .from(tasks)
      .leftJoin(transcripts, eq(transcripts.taskId, tasks.id))
      .where(inArray(tasks.id, ids));
  }
}
