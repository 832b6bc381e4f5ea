import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mediaAnalyses } from '../../db/schema.js';

/** What is kept per source and span (see the media_analyses table). */
export type MediaAnalysisKind = 'framing' | 'loudness' | 'faces' | 'probe' | 'silences';

/**
 * The `probe` span key of a source's facts with its length measured from its packets (an
 * upload's validation, a task's probing); `source` holds the header's facts an export reads.
 */
export const MEASURED_PROBE = 'measured';

/**
 * Stored measurements of a source: one row per media, kind and span key. A repeated store of the
 * same key (two workers finishing the same analysis) keeps the first, which is as good.
 */
export class MediaAnalysesRepository {
  constructor(private readonly db: Db) {}

  async find<T>(
    mediaKey: string,
    kind: MediaAnalysisKind,
    spanKey: string,
  ): Promise<T | undefined> {
    const rows = await this.db
      .select({ data: mediaAnalyses.data })
      .from(mediaAnalyses)
      .where(
        and(
          eq(mediaAnalyses.mediaKey, mediaKey),
          eq(mediaAnalyses.kind, kind),
          eq(mediaAnalyses.spanKey, spanKey),
        ),
      )
      .limit(1);
    return rows[0]?.data as T | undefined;
  }

  /** Every row of one kind kept for a source whose span key starts with `spanKeyPrefix`. */
  async list<T>(mediaKey: string, kind: MediaAnalysisKind, spanKeyPrefix = ''): Promise<T[]> {
    const rows = await this.db
      .select({ spanKey: mediaAnalyses.spanKey, data: mediaAnalyses.data })
      .from(mediaAnalyses)
      .where(and(eq(mediaAnalyses.mediaKey, mediaKey), eq(mediaAnalyses.kind, kind)));
    return rows.filter((row) => row.spanKey.startsWith(spanKeyPrefix)).map((row) => row.data as T);
  }

  async save(
    mediaKey: string,
    kind: MediaAnalysisKind,
    spanKey: string,
    data: unknown,
  ): Promise<void> {
    await this.db
      .insert(mediaAnalyses)
      .values({ mediaKey, kind, spanKey, data })
      .onConflictDoNothing();
  }

  /** Forgets everything measured about a source (its media was deleted). */
  async deleteForMedia(mediaKey: string): Promise<void> {
    await this.db.delete(mediaAnalyses).where(eq(mediaAnalyses.mediaKey, mediaKey));
  }
}
