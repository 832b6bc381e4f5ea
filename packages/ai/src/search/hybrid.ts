/**
 * Pieces of the library search (the home search) that need no database: transcript passages,
 * compact stored embeddings, and reciprocal rank fusion of the word ranking with the meaning one.
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

/** An embedding as stored: int8 components (the scale does not matter for a cosine) and sign bits. */
export interface StoredEmbedding {
  int8: Buffer;
  /** One bit per dimension, 1 where the component is positive: PostgreSQL `bit varying` text. */
  signBits: string;
}

export function storedEmbedding(vector: Float32Array): StoredEmbedding {
  let max = 0;
  for (const value of vector) max = Math.max(max, Math.abs(value));
  const scale = max > 0 ? 127 / max : 0;
  const int8 = Buffer.alloc(vector.length);
  let bits = '';
  vector.forEach((value, i) => {
    int8.writeInt8(Math.round(value * scale), i);
    bits += value > 0 ? '1' : '0';
  });
  return { int8, signBits: bits };
}

/** Sign bits of a query vector, to compare with stored codes by Hamming distance. */
export const signBitsOf = (vector: Float32Array) => storedEmbedding(vector).signBits;

/** Cosine between a unit query vector and a stored int8 embedding. */
export function storedCosine(query: Float32Array, stored: Uint8Array): number {
  if (stored.length !== query.length) return 0;
  const view = new Int8Array(stored.buffer, stored.byteOffset, stored.length);
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < view.length; i++) {
    const value = view[i]!;
    dot += query[i]! * value;
    norm += value * value;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
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
