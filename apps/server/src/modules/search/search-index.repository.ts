import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { TranscriptPassage } from '@moments/ai/search';

/** A searchable document still waiting for its embedding. */
export interface PendingDocument {
  kind: 'moment' | 'passage';
  id: string;
  text: string;
}

export interface DocumentEmbedding {
  kind: 'moment' | 'passage';
  id: string;
  /** pgvector text of the unit vector (pgvectorText). */
  vector: string;
  model: string;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Writes of the search index (migration 0013_search_ranking): transcript passages, stored
 * embeddings and the BM25 corpus statistics. Reads for ranking live in SearchRepository.
 */
export class SearchIndexRepository {
  constructor(private readonly db: Db) {}

  /** Replaces a task's passages (a new transcript, or a re-run). */
  async replacePassages(taskId: string, userId: string, passages: TranscriptPassage[]) {
    await this.db.transaction(async (tx) => {
      // One writer per task at a time (the task's run and the backfill job may meet here).
      await tx.execute(sql`SELECT 1 FROM tasks WHERE id = ${taskId} FOR UPDATE`);
      await tx.execute(sql`DELETE FROM search_passages WHERE task_id = ${taskId}`);
      for (let i = 0; i < passages.length; i += 200) {
        const values = passages
          .slice(i, i + 200)
          .map(
            (p) =>
              sql`(${taskId}, ${userId}, ${p.startMs}, ${p.endMs}, ${p.lines.join('\n')}, ${`{${p.segmentStarts.join(',')}}`}::integer[])`,
          );
        await tx.execute(
          sql`INSERT INTO search_passages (task_id, user_id, start_ms, end_ms, text, segment_starts) VALUES ${sql.join(values, sql`, `)}`,
        );
      }
    });
  }

  /** Transcripts that have no passages yet (stored before this index existed), oldest first. */
  async transcriptsWithoutPassages(limit: number) {
    return rowsOf<{ task_id: string; user_id: string; segments: unknown }>(
      await this.db.execute(sql`
        SELECT tr.task_id, t.user_id, tr.segments FROM transcripts tr JOIN tasks t ON t.id = tr.task_id
        WHERE NOT EXISTS (SELECT 1 FROM search_passages p WHERE p.task_id = tr.task_id)
        ORDER BY tr.created_at LIMIT ${limit}`),
    );
  }

  /** Documents without an embedding from `model`: one task's, or any (the backfill). */
  async pendingEmbeddings(model: string, limit: number, taskId?: string) {
    const ofTask = (alias: string) =>
      taskId ? sql`AND ${sql.raw(alias)}.task_id = ${taskId}` : sql``;
    return rowsOf<PendingDocument>(
      await this.db.execute(sql`
        (SELECT 'moment' AS kind, m.id::text AS id, m.title || '. ' || m.transcript AS text
         FROM moments m WHERE (m.search_vector IS NULL OR m.search_model IS DISTINCT FROM ${model}) ${ofTask('m')}
         LIMIT ${limit})
        UNION ALL
        (SELECT 'passage', p.id::text, replace(p.text, E'\n', ' ')
         FROM search_passages p WHERE (p.search_vector IS NULL OR p.search_model IS DISTINCT FROM ${model}) ${ofTask('p')}
         LIMIT ${limit})`),
    );
  }

  async saveEmbeddings(embeddings: DocumentEmbedding[]) {
    for (const e of embeddings) {
      const table = e.kind === 'moment' ? sql`moments` : sql`search_passages`;
      const id = e.kind === 'moment' ? sql`${e.id}::uuid` : sql`${e.id}::bigint`;
      await this.db.execute(sql`
        UPDATE ${table} SET search_vector = ${e.vector}::halfvec(384), search_model = ${e.model}
        WHERE id = ${id}`);
    }
  }

  /**
   * Adds documents not yet counted to the corpus statistics, one task's or all. One statement:
   * rows are claimed with SKIP LOCKED (two workers never count one row twice) and the words are
   * upserted in order, so concurrent counts never deadlock.
   */
  async countNewDocuments(taskId?: string) {
    const ofTask = taskId ? sql`AND task_id = ${taskId}` : sql``;
    await this.db.execute(sql`
      WITH claimed_moments AS (
        UPDATE moments SET search_counted = true WHERE id IN (
          SELECT id FROM moments WHERE NOT search_counted ${ofTask} FOR UPDATE SKIP LOCKED)
        RETURNING search_terms, search_len),
      claimed_passages AS (
        UPDATE search_passages SET search_counted = true WHERE id IN (
          SELECT id FROM search_passages WHERE NOT search_counted ${ofTask} FOR UPDATE SKIP LOCKED)
        RETURNING search_terms, search_len),
      claimed AS (SELECT * FROM claimed_moments UNION ALL SELECT * FROM claimed_passages),
      words AS (
        INSERT INTO search_term_docs (lexeme, docs)
        SELECT u.lexeme, count(*) FROM claimed c, unnest(c.search_terms) u
        GROUP BY u.lexeme ORDER BY u.lexeme
        ON CONFLICT (lexeme) DO UPDATE SET docs = search_term_docs.docs + excluded.docs
        RETURNING 1)
      UPDATE search_corpus SET
        docs = docs + (SELECT count(*) FROM claimed),
        length = length + (SELECT coalesce(sum(search_len), 0) FROM claimed)
      WHERE (SELECT count(*) FROM words) >= 0`);
  }

  /** Recounts the corpus statistics from every document (deleted documents stop counting). */
  async recountCorpus() {
    await this.db.transaction(async (tx) => {
      // One recount at a time; writers of new documents are not blocked (they count later).
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('search_corpus_recount'))`);
      await tx.execute(sql`UPDATE moments SET search_counted = true WHERE NOT search_counted`);
      await tx.execute(
        sql`UPDATE search_passages SET search_counted = true WHERE NOT search_counted`,
      );
      await tx.execute(sql`DELETE FROM search_term_docs`);
      await tx.execute(sql`
        INSERT INTO search_term_docs (lexeme, docs)
        SELECT u.lexeme, count(*) FROM (
          SELECT search_terms FROM moments UNION ALL SELECT search_terms FROM search_passages) d,
          unnest(d.search_terms) u
        GROUP BY u.lexeme`);
      await tx.execute(sql`
        UPDATE search_corpus SET
          docs = (SELECT count(*) FROM moments) + (SELECT count(*) FROM search_passages),
          length = (SELECT coalesce(sum(search_len), 0) FROM moments)
            + (SELECT coalesce(sum(search_len), 0) FROM search_passages)`);
    });
  }
}
