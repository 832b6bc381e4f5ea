import { z } from 'zod';
import { parseJsonReply, type LlmClient } from '../llm/index';
import { splitSentences, type Sentence } from '../moments/sentences';
import type { Transcript } from '../moments/types';
import { cosine, loadDefaultEmbedder, type SentenceEmbedder } from '../search/embeddings';
import { contentTerms, contentTermsWithSurface } from '../search/text';

export interface SummaryChapter {
  startMs: number;
  endMs: number;
  title: string;
  summary: string;
}

/** A point worth remembering, tied to the sentence it comes from so it can seek there. */
export interface SummaryKeyPoint {
  text: string;
  startMs: number;
  endMs: number;
}

export interface VideoSummary {
  overview: string;
  chapters: SummaryChapter[];
  keyPoints: SummaryKeyPoint[];
  method: 'extractive' | 'llm';
  warnings: string[];
}

export interface SummariseOptions {
  /** The sentence embedder; default: the installed MiniLM model (shared with search). `null`: words only. */
  embedder?: SentenceEmbedder | null;
  /** When given, writes the prose; any failure falls back to the extractive summary with a warning. */
  llm?: LlmClient;
  llmTimeoutMs?: number;
  signal?: AbortSignal;
}

/** Sentences on each side of a gap whose meaning is compared (TextTiling's block size). */
const WINDOW = 3;
/** A chapter shorter than this is not made: a topic needs time to be a chapter (less in a short talk). */
const MIN_CHAPTER_MS = 20_000;
const MIN_CHAPTER_SHARE = 1 / 5;
/** About one chapter per this much speech at most, so a long talk is not cut into crumbs. */
const MS_PER_CHAPTER = 20_000;
const MAX_CHAPTERS = 12;

type Vector = Float32Array;

function mean(vectors: readonly Vector[]): Vector {
  const dims = vectors[0]?.length ?? 0;
  const sum = new Float32Array(dims);
  for (const vector of vectors) for (let d = 0; d < dims; d++) sum[d]! += vector[d] ?? 0;
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += sum[d]! ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dims; d++) sum[d]! /= norm;
  return sum;
}

/** Bag-of-stems vectors over a shared vocabulary: the fallback when no embedding model is installed. */
function lexicalVectors(texts: readonly string[]): Vector[] {
  const vocabulary = new Map<string, number>();
  const termLists = texts.map((text) => contentTerms(text));
  for (const terms of termLists)
    for (const term of terms) if (!vocabulary.has(term)) vocabulary.set(term, vocabulary.size);
  return termLists.map((terms) => {
    const vector = new Float32Array(Math.max(1, vocabulary.size));
    for (const term of terms) vector[vocabulary.get(term)!]! += 1;
    return mean([vector]);
  });
}

/**
 * Indices of the sentences that open a new chapter (the first is always 0). Topic shifts are the
 * gaps where the meaning of the sentences before and after differs most (TextTiling depth scores
 * over sentence embeddings); chapters shorter than minChapterMs are not made.
 */
export function chapterBoundaries(
  sentences: readonly Sentence[],
  vectors: readonly Vector[],
): number[] {
  const n = sentences.length;
  if (n < 2) return [0];
  const spokenMs = sentences[n - 1]!.endMs - sentences[0]!.startMs;
  const minChapterMs = Math.min(MIN_CHAPTER_MS, spokenMs * MIN_CHAPTER_SHARE);
  const similarity: number[] = [];
  for (let gap = 1; gap < n; gap++) {
    const left = mean(vectors.slice(Math.max(0, gap - WINDOW), gap));
    const right = mean(vectors.slice(gap, Math.min(n, gap + WINDOW)));
    similarity.push(cosine(left, right));
  }
  // Depth: how far the similarity dips below the peaks on either side of it.
  const depth = similarity.map((value, i) => {
    let leftPeak = value;
    for (let j = i; j >= 0 && similarity[j]! >= leftPeak - 1e-9; j--) leftPeak = similarity[j]!;
    let rightPeak = value;
    for (let j = i; j < similarity.length && similarity[j]! >= rightPeak - 1e-9; j++)
      rightPeak = similarity[j]!;
    return leftPeak - value + (rightPeak - value);
  });
  const average = depth.reduce((sum, value) => sum + value, 0) / depth.length;
  const spread = Math.sqrt(
    depth.reduce((sum, value) => sum + (value - average) ** 2, 0) / depth.length,
  );
  const threshold = average + spread / 2;
  const maxChapters = Math.min(MAX_CHAPTERS, Math.max(1, Math.round(spokenMs / MS_PER_CHAPTER)));
  const candidates = depth
    .map((value, i) => ({ sentence: i + 1, value }))
    .filter((gap) => gap.value > threshold && gap.value > 0.05)
    .sort((a, b) => b.value - a.value);
  const chosen: number[] = [];
  for (const candidate of candidates) {
    if (chosen.length >= maxChapters - 1) break;
    const starts = [0, ...chosen, candidate.sentence].sort((a, b) => a - b);
    const long = starts.every((start, k) => {
      const end = k + 1 < starts.length ? starts[k + 1]! - 1 : n - 1;
      return sentences[end]!.endMs - sentences[start]!.startMs >= minChapterMs;
    });
    if (long) chosen.push(candidate.sentence);
  }
  return [0, ...chosen.sort((a, b) => a - b)];
}

/** The sentence nearest the chapter's centre of meaning: its most representative line. */
function centralSentences(members: readonly number[], vectors: readonly Vector[]): number[] {
  const centre = mean(members.map((i) => vectors[i]!));
  return [...members].sort((a, b) => cosine(vectors[b]!, centre) - cosine(vectors[a]!, centre));
}

/** A short title from the chapter's most distinctive words (frequent here, rare elsewhere). */
function chapterTitle(text: string, otherTexts: readonly string[]): string {
  const elsewhere = new Set(otherTexts.flatMap((other) => contentTerms(other)));
  const counts = new Map<string, { surface: string; count: number }>();
  for (const { term, surface } of contentTermsWithSurface(text)) {
    const entry = counts.get(term) ?? { surface, count: 0 };
    entry.count += elsewhere.has(term) ? 0.5 : 1;
    counts.set(term, entry);
  }
  const words = [...counts.values()]
    .sort((a, b) => b.count - a.count || a.surface.localeCompare(b.surface))
    .slice(0, 3)
    .map((entry) => entry.surface);
  if (!words.length) return 'Chapter';
  const phrase =
    words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words[0]!;
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

function extractive(sentences: readonly Sentence[], vectors: readonly Vector[], starts: number[]) {
  const groups = starts.map((start, k) =>
    Array.from({ length: (starts[k + 1] ?? sentences.length) - start }, (_, i) => start + i),
  );
  const texts = groups.map((members) => members.map((i) => sentences[i]!.text).join(' '));
  const ranked = groups.map((members) => centralSentences(members, vectors));
  const chapters: SummaryChapter[] = groups.map((members, k) => ({
    startMs: sentences[members[0]!]!.startMs,
    endMs: sentences[members.at(-1)!]!.endMs,
    title: chapterTitle(
      texts[k]!,
      texts.filter((_, j) => j !== k),
    ),
    summary: clean(
      ranked[k]!.slice(0, 2)
        .sort((a, b) => a - b)
        .map((i) => sentences[i]!.text)
        .join(' '),
    ),
  }));
  // Key points: each chapter's most representative sentences, in video order.
  const perChapter = Math.max(1, Math.min(3, Math.floor(8 / groups.length)));
  const keyIndices = ranked.flatMap((order) => order.slice(0, perChapter)).sort((a, b) => a - b);
  const keyPoints: SummaryKeyPoint[] = keyIndices.map((i) => ({
    text: clean(sentences[i]!.text),
    startMs: sentences[i]!.startMs,
    endMs: sentences[i]!.endMs,
  }));
  const overview = clean(ranked.map((order) => sentences[order[0]!]!.text).join(' '));
  return { overview, chapters, keyPoints, groups };
}

const LlmSummary = z.object({
  overview: z.string().trim().min(1).max(3000),
  chapters: z.array(
    z.object({ title: z.string().trim().min(1).max(120), summary: z.string().trim().max(1500) }),
  ),
  key_points: z
    .array(z.object({ text: z.string().trim().min(1).max(400), sentence: z.number().int() }))
    .max(20),
});

async function writeWithLlm(
  llm: LlmClient,
  sentences: readonly Sentence[],
  groups: number[][],
  options: SummariseOptions,
): Promise<Pick<VideoSummary, 'overview' | 'chapters' | 'keyPoints'>> {
  const numbered = groups
    .map(
      (members, k) =>
        `## Chapter ${k + 1}\n` + members.map((i) => `[${i}] ${sentences[i]!.text}`).join('\n'),
    )
    .join('\n\n');
  const reply = await llm.complete(
    [
      {
        role: 'system',
        content:
          'You summarise video transcripts. Answer with one JSON object: {"overview": a paragraph, ' +
          '"chapters": [{"title", "summary"}] exactly one per chapter given, in order, ' +
          '"key_points": [{"text", "sentence": the [number] of the sentence it comes from}] (3 to 8)}. ' +
          'Use only what the transcript says.',
      },
      { role: 'user', content: numbered },
    ],
    { json: true, signal: options.signal, timeoutMs: options.llmTimeoutMs },
  );
  const parsed = LlmSummary.parse(parseJsonReply(reply));
  if (parsed.chapters.length !== groups.length)
    throw new Error(`LLM gave ${parsed.chapters.length} chapters for ${groups.length}`);
  const keyPoints = parsed.key_points.map((point) => {
    const sentence = sentences[point.sentence];
    if (!sentence)
      throw new Error(`LLM key point cites sentence ${point.sentence}, which is not there`);
    return { text: point.text, startMs: sentence.startMs, endMs: sentence.endMs };
  });
  return {
    overview: parsed.overview,
    chapters: groups.map((members, k) => ({
      startMs: sentences[members[0]!]!.startMs,
      endMs: sentences[members.at(-1)!]!.endMs,
      title: parsed.chapters[k]!.title,
      summary: parsed.chapters[k]!.summary,
    })),
    keyPoints: keyPoints.sort((a, b) => a.startMs - b.startMs),
  };
}

/**
 * A summary of a transcript: overview, chapters at the topic shifts, key points tied to their time.
 * Deterministic and extractive (sentences of the talk itself) without an LLM; with one, the LLM
 * writes the prose over the same chapters, and any failure of it falls back with a warning.
 */
export async function summariseTranscript(
  transcript: Transcript,
  options: SummariseOptions = {},
): Promise<VideoSummary> {
  const warnings: string[] = [];
  const sentences = splitSentences(transcript);
  if (sentences.length === 0) {
    return {
      overview: '',
      chapters: [],
      keyPoints: [],
      method: 'extractive',
      warnings: ['The transcript has no words: there is nothing to summarise.'],
    };
  }
  let embedder = options.embedder;
  if (embedder === undefined) {
    const loaded = await loadDefaultEmbedder();
    embedder = loaded.embedder ?? null;
    if (loaded.warning)
      warnings.push(
        'Chapters were found from word overlap only: the sentence model is unavailable.',
      );
  }
  const texts = sentences.map((sentence) => sentence.text);
  const vectors = embedder
    ? await embedder.embed(texts, { signal: options.signal })
    : lexicalVectors(texts);
  options.signal?.throwIfAborted();
  const starts = chapterBoundaries(sentences, vectors);
  const result = extractive(sentences, vectors, starts);
  if (options.llm) {
    try {
      const written = await writeWithLlm(options.llm, sentences, result.groups, options);
      return { ...written, method: 'llm', warnings };
    } catch (error) {
      options.signal?.throwIfAborted();
      warnings.push(
        `The language model could not write the summary (${(error as Error).message.slice(0, 160)}); it was made from the transcript's own sentences instead.`,
      );
    }
  }
  return {
    overview: result.overview,
    chapters: result.chapters,
    keyPoints: result.keyPoints,
    method: 'extractive',
    warnings,
  };
}
