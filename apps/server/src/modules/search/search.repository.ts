import { createHash } from 'node:crypto';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../../db/client.js';
import { moments, tasks } from '../../db/schema.js';

/** One searchable document the index proposed, with its word score and its cosine to the query. */
export interface CandidateDocument {
  /** A moment, a transcript passage, or a video's title. */
  kind: 'moment' | 'passage' | 'title';
  /** The moment's or task's uuid, or the passage's id. */
  id: string;
  taskId: string;
  /** BM25 over stems, null when only the embedding proposed it. */
  bm25: number | null;
  /** BM25 of the title's words alone (0 when the title has none of the query's words). */
  titleBm25: number;
  /**
   * Cosine between the query's embedding and the document's stored one: for every meaning
   * candidate and the best word candidates (null without either embedding).
   */
  cosine: number | null;
}

export interface CandidateScope {
  /** The signed-in requester, or null: anonymous visitors search published moments only. */
  userId: string | null;
  query: string;
  /** Per query word and kind of document, at most this many documents containing it. */
  perWordCap: number;
  /**
   * The query's embedding (pgvector text, `[0.1,...]`), its model, and how many nearest
   * documents of each kind to propose.
   */
  meaning?: { vector: string; model: string; cap: number };
  /** How many of the best word candidates bring their embedding for the meaning ranking. */
  rescoreCap: number;
}

/** BM25's constants, Robertson's usual values. */
const K1 = 1.2;
const B = 0.75;
/** BM25's saturating term frequency, normalised by the document's length (c.len) against the average (a.len). */
const bm25Tf = (tf: SQL) => {
  const [k1, b] = [sql.raw(K1.toFixed(2)), sql.raw(B.toFixed(2))];
  return sql`CASE WHEN ${tf} > 0 THEN ${tf} * (${k1} + 1) / (${tf} + ${k1} * (1 - ${b} + ${b} * c.len / a.len)) ELSE 0 END`;
};

/** `%`, `_` and the escape character itself match literally (used with `ESCAPE '\'`). */
const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

function containsAll(column: SQL, words: string[]): SQL {
  if (!words.length) return sql`false`;
  return sql.join(
    words.map((word) => sql`${column} ILIKE ${`%${escapeLike(word)}%`} ESCAPE '\\'`),
    sql` AND `,
  );
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Reads of the home search (migration 0013_search_ranking). Visibility is decided here and only
 * here: published moments for everyone (an unlisted share is not published), plus the requester's
 * own moments, passages and titles. The same SQL runs on PGlite and PostgreSQL.
 */
export class SearchRepository {
  private readonly dialect = new PgDialect();

  constructor(
    private readonly db: Db,
    /** PostgreSQL's prepared statements (Database.prepared): the candidates query plans once. */
    private readonly prepared?: Database['prepared'],
  ) {}

  /** Runs the statement prepared on PostgreSQL (named by its text), plainly on PGlite. */
  private async run(statement: SQL): Promise<unknown> {
    if (!this.prepared) return this.db.execute(statement);
    const { sql: text, params } = this.dialect.sqlToQuery(statement);
    const name = `search_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    return this.prepared(name, text, params);
  }

  /**
   * The candidate documents of a query, from the indexes only: for each content word of the query
   * (PostgreSQL's English stems, function words dropped) at most `perWordCap` documents of each
   * kind containing it (GIN index), scored with BM25 against the corpus statistics; and, when the
   * query has an embedding, the `meaning.cap` documents of each kind nearest to it by cosine
   * (pgvector's HNSW indexes, migration 0025_pgvector_search), each with its cosine.
   */
  async candidates(scope: CandidateScope): Promise<CandidateDocument[]> {
    const { userId, query, perWordCap: cap } = scope;
    const own = userId !== null;
    // Each source: documents of one kind that the requester may see, containing the word t.tsq.
    // A word in more than a tenth of all documents is looked for by scanning the requester's
    // documents (its GIN posting list would be longer than the scan, which stops at the cap);
    // a rarer word through the GIN index. ts_match_vq is @@ spelled so that no index is used.
    const containing = (alias: string) => {
      const vec = sql.raw(`${alias}.search_terms`);
      return [sql`NOT t.common AND ${vec} @@ t.tsq`, sql`t.common AND ts_match_vq(${vec}, t.tsq)`];
    };
    const source = (select: SQL, from: SQL, alias: string, visible: SQL) =>
      containing(alias).map(
        (match) => sql`(SELECT ${select} FROM ${from} WHERE ${visible} AND ${match} LIMIT ${cap})`,
      );
    const momentColumns = sql`'moment' AS kind, m.id::text AS id, m.task_id, m.search_terms AS vec,
      m.search_len AS len, m.search_vector AS emb`;
    const sources: SQL[] = [
      ...source(
        momentColumns,
        sql`moments m`,
        'm',
        sql`m.share_id IS NOT NULL AND m.published ${own ? sql`AND m.user_id <> ${userId}` : sql``}`,
      ),
    ];
    if (own) {
      sources.push(
        ...source(momentColumns, sql`moments m`, 'm', sql`m.user_id = ${userId}`),
        ...source(
          sql`'passage', p.id::text, p.task_id, p.search_terms, p.search_len, p.search_vector`,
          sql`search_passages p`,
          'p',
          sql`p.user_id = ${userId}`,
        ),
        ...source(
          sql`'title', k.id::text, k.id, k.search_terms, search_length(k.search_terms), NULL::halfvec`,
          sql`tasks k`,
          'k',
          sql`k.user_id = ${userId}`,
        ),
      );
    }
    const lateral = sources.map(
      (part) => sql`SELECT c.* FROM terms t CROSS JOIN LATERAL ${part} c`,
    );
    const queryVector = scope.meaning ? sql`${scope.meaning.vector}::halfvec(384)` : null;
    const queryCosine = (column: SQL) =>
      queryVector ? sql`1 - (${column} <=> ${queryVector})` : sql`NULL::float8`;
    const meaning = scope.meaning
      ? this.meaningSql(userId, scope.meaning)
      : sql`SELECT NULL::text AS kind, NULL::text AS id, NULL::uuid AS task_id, NULL::float8 AS cosine WHERE false`;
    const statement = sql`
      WITH corpus AS MATERIALIZED (
        SELECT greatest(docs, 1)::float8 AS docs, greatest(1, "length"::float8 / greatest(docs, 1)) AS len
        FROM search_corpus WHERE id = true),
      terms AS MATERIALIZED (
        SELECT u.lexeme,
          ln(1 + (greatest(c.docs, coalesce(d.docs, 0)) - coalesce(d.docs, 0) + 0.5)
            / (coalesce(d.docs, 0) + 0.5)) AS idf,
          ('''' || replace(replace(u.lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery AS tsq,
          coalesce(d.docs, 0) > c.docs / 10 AS common
        FROM unnest(to_tsvector('english', ${query})) u
        LEFT JOIN search_term_docs d ON d.lexeme = u.lexeme
        CROSS JOIN corpus c),
      found AS (${sql.join(lateral, sql` UNION ALL `)}),
      candidates AS (SELECT DISTINCT ON (kind, id) * FROM found),
      -- BM25 per candidate, summed over the query words: ts_rank_cd of one word with these
      -- weights is the word's weighted count (a title occurrence, weight A, counts three times).
      -- Summed per candidate in a lateral subquery, not grouped: grouping would sort the
      -- candidates by their embeddings.
      scored AS (
        SELECT c.kind, c.id, c.task_id, c.emb, s.bm25, s.title_bm25
        FROM candidates c CROSS JOIN corpus a CROSS JOIN LATERAL (
          SELECT sum(t.idf * ${bm25Tf(sql`f.tf`)}) AS bm25, sum(t.idf * ${bm25Tf(sql`f.title_tf`)}) AS title_bm25
          FROM terms t CROSS JOIN LATERAL (
            SELECT 3 * ts_rank_cd('{0.33333334,0.33333334,0.33333334,1}', c.vec, t.tsq, 0)::float8 AS tf,
              CASE WHEN c.kind = 'passage' THEN 0
                ELSE 3 * ts_rank_cd('{0,0,0,1}', c.vec, t.tsq, 0)::float8 END AS title_tf) f) s),
      ranked AS (SELECT *, row_number() OVER (ORDER BY bm25 DESC, kind, id) AS place FROM scored),
      meaning AS (${meaning})
      SELECT kind, id, task_id, bm25, title_bm25,
        CASE WHEN place <= ${scope.rescoreCap} THEN ${queryCosine(sql`emb`)} END AS cosine
      FROM ranked
      UNION ALL
      SELECT kind, id, task_id, NULL, NULL, cosine FROM meaning`;
    return rowsOf<{
      kind: CandidateDocument['kind'];
      id: string;
      task_id: string;
      bm25: number | string | null;
      title_bm25: number | string | null;
      cosine: number | string | null;
    }>(await this.run(statement)).map((row) => ({
      kind: row.kind,
      id: row.id,
      taskId: row.task_id,
      bm25: row.bm25 === null ? null : Number(row.bm25),
      titleBm25: Number(row.title_bm25 ?? 0),
      cosine: row.cosine === null ? null : Number(row.cosine),
    }));
  }

  /**
   * The documents of each kind nearest to the query by cosine, through the HNSW indexes (a
   * filtered scan goes on until it has `cap` visible rows: hnsw.iterative_scan, db/client.ts).
   * The published moments have an index of their own (moments_published_vector_idx); the
   * requester's own moments and passages are read from their owner's partition, whose graph holds
   * theirs and few others' (moment_vectors, migration 0029; search_passages, 0028).
   */
  private meaningSql(userId: string | null, meaning: NonNullable<CandidateScope['meaning']>): SQL {
    const nearest = (from: SQL, id: SQL, where: SQL, kind: string) => sql`(
      SELECT ${kind}::text AS kind, ${id}::text AS id, n.task_id,
        1 - (n.search_vector <=> ${meaning.vector}::halfvec(384)) AS cosine
      FROM ${from} n WHERE ${where} AND n.search_model = ${meaning.model}
      ORDER BY n.search_vector <=> ${meaning.vector}::halfvec(384) LIMIT ${meaning.cap})`;
    const parts = [
      nearest(
        sql`moments`,
        sql`n.id`,
        sql`n.share_id IS NOT NULL AND n.published ${userId ? sql`AND n.user_id <> ${userId}` : sql``}`,
        'moment',
      ),
    ];
    if (userId) {
      parts.push(
        nearest(sql`moment_vectors`, sql`n.moment_id`, sql`n.user_id = ${userId}`, 'moment'),
        nearest(sql`search_passages`, sql`n.id`, sql`n.user_id = ${userId}`, 'passage'),
      );
    }
    return sql.join(parts, sql` UNION ALL `);
  }

  /**
   * The substring fallback, for queries the English parser leaves no word of (a partial word
   * typed so far, scripts it does not split): documents containing every word, at most `cap`.
   */
  async substringMatches(userId: string | null, words: string[], cap: number) {
    if (!words.length) return [];
    const own = userId !== null;
    const parts: SQL[] = [
      sql`(SELECT 'moment' AS kind, m.id::text AS id, m.task_id FROM moments m
           WHERE ((m.share_id IS NOT NULL AND m.published) ${own ? sql`OR m.user_id = ${userId}` : sql``})
             AND ${containsAll(sql`(m.title || ' ' || m.search_text)`, words)}
           ORDER BY m.score DESC, m.id LIMIT ${cap})`,
    ];
    if (own) {
      parts.push(sql`(SELECT 'title', k.id::text, k.id FROM tasks k
           LEFT JOIN transcripts tr ON tr.task_id = k.id
           WHERE k.user_id = ${userId}
             AND ${containsAll(sql`(k.search_title || ' ' || coalesce(tr.search_text, ''))`, words)}
           ORDER BY k.created_at DESC, k.id LIMIT ${cap})`);
    }
    return rowsOf<{ kind: 'moment' | 'title'; id: string; task_id: string }>(
      await this.db.execute(sql.join(parts, sql` UNION ALL `)),
    ).map((row) => ({ kind: row.kind, id: row.id, taskId: row.task_id }));
  }

  momentsWithTasks(ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .select({ moment: moments, video: tasks.video })
      .from(moments)
      .innerJoin(tasks, eq(tasks.id, moments.taskId))
      .where(inArray(moments.id, ids));
  }

  /**
   * What makes results the same video: its owner and its address (a follow-up task, a caption
   * task and a rerun of one link or upload all carry the same one).
   */
  async videoKeys(taskIds: string[]): Promise<Map<string, string>> {
    if (!taskIds.length) return new Map();
    const rows = await this.db
      .select({ id: tasks.id, userId: tasks.userId, url: sql<string>`${tasks.video}->>'url'` })
      .from(tasks)
      .where(inArray(tasks.id, taskIds));
    return new Map(rows.map((row) => [row.id, `${row.userId}\u0000${row.url ?? row.id}`]));
  }

  tasksByIds(ids: string[]) {
    if (!ids.length) return Promise.resolve([]);
    return this.db
      .select({
        id: tasks.id,
        video: tasks.video,
        thumbnailKey: tasks.thumbnailKey,
        query: tasks.query,
      })
      .from(tasks)
      .where(inArray(tasks.id, ids));
  }

  /**
   * Passages to pick a snippet from: the given ones, and for each of `taskIds` (videos found by
   * their title) its first passage containing a word of the query, else its first passage. Only
   * the owner's, as only the owner finds a passage: the read stays in their partition (0028).
   */
  async passages(userId: string, passageIds: string[], taskIds: string[], query: string) {
    const byId = passageIds.length
      ? sql`SELECT p.id::text AS id, p.task_id, p.start_ms, p.text, p.segment_starts
          FROM search_passages p
          WHERE p.user_id = ${userId} AND p.id IN (${sql.join(
            passageIds.map((id) => sql`${id}::bigint`),
            sql`, `,
          )})`
      : null;
    // The query's stems as an OR query: strip(...)::text is 'a' 'b', quoted as tsquery wants.
    const anyWord = sql`replace(strip(to_tsvector('english', ${query}))::text, ''' ''', ''' | ''')::tsquery`;
    const byTask = taskIds.length
      ? sql`SELECT DISTINCT ON (p.task_id) p.id::text AS id, p.task_id, p.start_ms, p.text, p.segment_starts
          FROM search_passages p
          WHERE p.user_id = ${userId} AND p.task_id IN (${sql.join(
            taskIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
          ORDER BY p.task_id, (p.search_terms @@ ${anyWord}) DESC, p.start_ms`
      : null;
    const parts = [byId, byTask].filter((part): part is SQL => part !== null);
    if (!parts.length) return [];
    return rowsOf<{
      id: string;
      task_id: string;
      start_ms: number;
      text: string;
      segment_starts: number[];
    }>(
      await this.db.execute(
        sql.join(
          parts.map((part) => sql`(${part})`),
          sql` UNION ALL `,
        ),
      ),
    );
  }
}
