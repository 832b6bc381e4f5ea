/**
 * Pieces of the library search (the home search) that need no database: transcript passages,
 * embeddings as pgvector text, and reciprocal rank fusion of the word ranking with the meaning one.
 */

export interface TimedText {
  text: string;
  startMs: number;
  endMs: number;
}

export interface Passage {
  startMs: number;
  endMs: number;
  /** The segments' texts, one per line, and where each is heard. */
  lines: string[];
  segmentStarts: number[];
}

/** A passage is a few sentences: enough for an embedding to catch its gist, short enough to point at. */
const PASSAGE_MIN_WORDS = 40;
const PASSAGE_MAX_WORDS = 80;
const PASSAGE_MAX_MS = 30_000;

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * Consecutive transcript segments grouped into passages of about 40-80 words (at most 30 s unless
 * one segment is longer), never splitting a segment.
 */
export function transcriptPassages(segments: readonly TimedText[]): Passage[] {
  const passages: Passage[] = [];
  let current: Passage | null = null;
  let words = 0;
  for (const segment of segments) {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const size = wordCount(text);
    const full =
      current &&
      (words >= PASSAGE_MIN_WORDS ||
        words + size > PASSAGE_MAX_WORDS ||
        segment.endMs - current.startMs > PASSAGE_MAX_MS);
    if (!current || full) {
      current = { startMs: segment.startMs, endMs: segment.endMs, lines: [], segmentStarts: [] };
      passages.push(current);
      words = 0;
    }
    current.lines.push(text);
    current.segmentStarts.push(segment.startMs);
    current.endMs = Math.max(current.endMs, segment.endMs);
    words += size;
  }
  return passages;
}

/**
 * A vector as pgvector's text form (`[0.01234,-0.5,...]`), for a `vector` or `halfvec` column or
 * parameter. Five significant digits: more than a halfvec keeps.
 */
export function pgvectorText(vector: Float32Array): string {
  let text = '[';
  for (let i = 0; i < vector.length; i++) {
    if (i) text += ',';
    text += Number.isFinite(vector[i]) ? Number(vector[i]!.toPrecision(5)) : 0;
  }
  return `${text}]`;
}

/** The constant of reciprocal rank fusion (Cormack, Clarke and Büttcher 2009). */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each ranking (best first) gives an item 1 / (k + rank); an item missing
 * from a ranking gets nothing from it. Rank-based, so BM25's and cosine's scales need no tuning.
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly string[])[],
  k = RRF_K,
): Map<string, number> {
  const fused = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, index) => fused.set(id, (fused.get(id) ?? 0) + 1 / (k + index + 1)));
  }
  return fused;
}
