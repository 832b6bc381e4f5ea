import { selectNonOverlapping, type SpanCandidate } from '../moments/candidates';
import { thoughtBreaks } from '../moments/scoring';
import { splitSentences, type Sentence } from '../moments/sentences';
import { cleanSpokenText, hashtagsFor } from '../moments/titles';
import type { Moment, Transcript } from '../moments/types';
import { LexicalIndex } from './bm25';
import { cosine, loadDefaultEmbedder, type SentenceEmbedder } from './embeddings';
import { contentTerms, contentTermsWithSurface } from './text';

export interface SearchMomentsOptions {
  limit?: number;
  minMs?: number;
  maxMs?: number;
  /** The sentence embedder; default: the installed local model. `null` searches by words only. */
  embedder?: SentenceEmbedder | null;
  signal?: AbortSignal;
}

export interface SearchMomentsReport {
  moments: Moment[];
  method: 'semantic' | 'lexical';
  warnings: string[];
}

const DEFAULT_LIMIT = 10;
// Search answers are often a few sentences: shorter clips than viral moments by default.
const DEFAULT_MIN_MS = 10_000;
const DEFAULT_MAX_MS = 60_000;
/** Cosine similarity below which a sentence is unrelated to the query (all-MiniLM-L6-v2 scale). */
const SEMANTIC_FLOOR = 0.15;
const SEMANTIC_FULL = 0.65;
/** A span is an answer only if its best sentence reaches this relevance. */
const MIN_PEAK_RELEVANCE = 0.3;
const LEXICAL_SATURATION = 4;
/** Weight of the whole-span similarity when re-ranking the best spans. */
const PASSAGE_SHARE = 0.4;

const vectorCache = new WeakMap<
  Transcript,
  { modelId: string; vectors: Promise<Float32Array[]> }
>();

function sentenceVectors(
  transcript: Transcript,
  sentences: Sentence[],
  embedder: SentenceEmbedder,
  signal?: AbortSignal,
) {
  const cached = vectorCache.get(transcript);
  if (cached && cached.modelId === embedder.modelId) return cached.vectors;
  // Each sentence is embedded with its neighbours too, so a passage answer is found by its gist.
  const texts = sentences.map((sentence) => sentence.text);
  const withContext = sentences.map((_, i) => texts.slice(Math.max(0, i - 1), i + 2).join(' '));
  const vectors = embedder.embed([...texts, ...withContext], { signal });
  vectors.catch(() => vectorCache.delete(transcript));
  vectorCache.set(transcript, { modelId: embedder.modelId, vectors });
  return vectors;
}

/** Cosine similarity mapped to 0..1 between "unrelated" and "clearly about it". */
function scaledSimilarity(similarity: number): number {
  return Math.max(0, Math.min(1, (similarity - SEMANTIC_FLOOR) / (SEMANTIC_FULL - SEMANTIC_FLOOR)));
}

function spanText(sentences: readonly Sentence[]): string {
  return sentences.map((sentence) => sentence.text).join(' ');
}

/**
 * Finds the spans of whole sentences that answer a query (moment list type `search_snippet`), by meaning
 * when the local sentence-embedding model is installed, and by words, stems and synonyms otherwise.
 */
export async function searchMomentsWithReport(
  transcript: Transcript,
  query: string,
  options: SearchMomentsOptions = {},
): Promise<SearchMomentsReport> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const minMs = options.minMs ?? DEFAULT_MIN_MS;
  const maxMs = options.maxMs ?? DEFAULT_MAX_MS;
  const warnings: string[] = [];
  const sentences = splitSentences(transcript);
  if (!query.trim())
    return { moments: [], method: 'lexical', warnings: ['The search query is empty.'] };
  if (sentences.length === 0)
    return { moments: [], method: 'lexical', warnings: ['The transcript has no words to search.'] };

  const index = new LexicalIndex(sentences.map((sentence) => sentence.text));
  const queryWeights = LexicalIndex.expandQuery(query);
  const lexical = [...index.scoreAll(queryWeights)].map(
    (score) => score / (score + LEXICAL_SATURATION),
  );

  let embedder = options.embedder;
  if (embedder === undefined) {
    const loaded = await loadDefaultEmbedder();
    embedder = loaded.embedder ?? null;
    if (loaded.warning) warnings.push(loaded.warning);
  }
  let semantic: number[] | undefined;
  // Similarity of each sentence on its own: what keeps a window from running on into neighbouring talk.
  let semanticOwn: number[] | undefined;
  let queryVector: Float32Array | undefined;
  let sentenceVectorsReady: Float32Array[] | undefined;
  if (embedder) {
    try {
      const vectors = await sentenceVectors(transcript, sentences, embedder, options.signal);
      sentenceVectorsReady = vectors;
      [queryVector] = await embedder.embed([query], { signal: options.signal });
      if (!queryVector) throw new Error('no query vector');
      const queryVectorSet = queryVector;
      semantic = sentences.map((_, i) => {
        const own = vectors[i];
        const context = vectors[sentences.length + i];
        const similarity = Math.max(
          own ? cosine(queryVectorSet, own) : 0,
          context ? cosine(queryVectorSet, context) : 0,
        );
        return scaledSimilarity(similarity);
      });
      semanticOwn = sentences.map((_, i) => {
        const own = vectors[i];
        return own ? scaledSimilarity(cosine(queryVectorSet, own)) : 0;
      });
    } catch (error) {
      options.signal?.throwIfAborted();
      warnings.push(
        `Semantic search failed (${(error as Error).message}); using word matching with synonyms only.`,
      );
    }
  }
  const combine = (similarities: number[] | undefined, i: number) =>
    similarities ? 0.75 * (similarities[i] ?? 0) + 0.25 * (lexical[i] ?? 0) : (lexical[i] ?? 0);
  const relevance = sentences.map((_, i) => combine(semantic, i));
  const ownRelevance = sentences.map((_, i) => combine(semanticOwn, i));

  const breakAfter = thoughtBreaks(
    sentences,
    sentences.map((sentence) => ({ terms: contentTerms(sentence.text) })),
  );
  const termSets = sentences.map((sentence) => new Set(contentTerms(sentence.text)));
  const typedTerms = [...queryWeights.values()].filter((weight) => weight === 1).length;
  const matchedBySentence = sentences.map((sentence) =>
    index.matchedTerms(sentence.index, queryWeights),
  );
  // How much sentence i stays on the topic of the answer's best sentence p (its vectors, or shared words).
  // Sentences between the same two strong breaks (long pauses, topic shifts) belong to one stretch of talk.
  const paragraphOf: number[] = [];
  sentences.forEach((_, i) => {
    paragraphOf.push(
      i === 0 ? 0 : (paragraphOf[i - 1] ?? 0) + ((breakAfter[i - 1] ?? 0) >= 0.6 ? 1 : 0),
    );
  });
  const topicalTo = (i: number, p: number): number =>
    Math.max(paragraphOf[i] === paragraphOf[p] ? 0.5 : 0, similarityTo(i, p));
  const similarityTo = (i: number, p: number): number => {
    if (i === p) return 1;
    const a = sentenceVectorsReady?.[i];
    const b = sentenceVectorsReady?.[p];
    if (a && b) return Math.max(0, Math.min(1, (cosine(a, b) - 0.1) / 0.3));
    const own = termSets[i];
    const peakTerms = termSets[p];
    if (!own || !peakTerms || own.size === 0) return 0;
    return Math.min(1, ([...own].filter((term) => peakTerms.has(term)).length / own.size) * 2);
  };
  const durationOf = (first: number, last: number) =>
    (sentences[last]?.endMs ?? 0) - (sentences[first]?.startMs ?? 0);

  // One window per answer: around each strong sentence, the whole-sentence span that stays on its topic
  // and starts and ends where the talk pauses or moves on.
  const candidates: SpanCandidate[] = [];
  const peaks = sentences
    .map((sentence) => sentence.index)
    .filter((i) => (relevance[i] ?? 0) >= MIN_PEAK_RELEVANCE)
    .sort((a, b) => (relevance[b] ?? 0) - (relevance[a] ?? 0));
  const poolSize = Math.max(limit * 2, 12);
  for (const p of peaks) {
    if (candidates.length >= poolSize) break;
    if (candidates.some((candidate) => candidate.first <= p && p <= candidate.last)) continue;
    let best: SpanCandidate | undefined;
    for (let first = p; first >= 0 && durationOf(first, p) <= maxMs; first--) {
      for (let last = p; last < sentences.length; last++) {
        const durationMs = durationOf(first, last);
        if (durationMs > maxMs) break;
        if (durationMs < minMs && (first > 0 || last < sentences.length - 1)) continue;
        if (candidates.some((candidate) => first <= candidate.last && candidate.first <= last))
          continue;
        let support = 0;
        const matched = new Set<string>();
        let totalMs = 0;
        for (let k = first; k <= last; k++) {
          const sentence = sentences[k];
          if (!sentence) continue;
          const weight = sentence.endMs - sentence.startMs;
          support += Math.max(ownRelevance[k] ?? 0, topicalTo(k, p)) * weight;
          for (const term of matchedBySentence[k] ?? []) matched.add(term);
          totalMs += weight;
        }
        const completeness =
          ((first > 0 ? (breakAfter[first - 1] ?? 0) : 1) + (breakAfter[last] ?? 0)) / 2;
        const fit = 0.5 * (support / Math.max(1, totalMs)) + 0.5 * completeness;
        // Share of the query's words (synonyms at their weight) the span mentions anywhere.
        const coverage = Math.min(
          1,
          [...matched].reduce((sum, term) => sum + (queryWeights.get(term) ?? 0), 0) /
            Math.max(1, typedTerms),
        );
        const rank = 0.5 * (relevance[p] ?? 0) + 0.2 * coverage + 0.3 * fit;
        if (!best || rank > best.rank) {
          best = {
            first,
            last,
            startMs: sentences[first]?.startMs ?? 0,
            endMs: sentences[last]?.endMs ?? 0,
            rank,
            scored: { raw: rank, score: Math.round(rank * 100), reasons: [], salientTerms: [] },
          };
        }
      }
    }
    if (best) candidates.push(best);
  }

  let chosen = selectNonOverlapping(candidates, limit);
  if (semantic && embedder && queryVector) {
    // Re-rank a wider pool by embedding each whole span: a passage can answer what no single sentence does.
    const pool = candidates;
    try {
      const passageVectors = await embedder.embed(
        pool.map((candidate) => spanText(sentences.slice(candidate.first, candidate.last + 1))),
        { signal: options.signal },
      );
      pool.forEach((candidate, i) => {
        const vector = passageVectors[i];
        const passage = vector ? scaledSimilarity(cosine(queryVector!, vector)) : 0;
        const rank = (1 - PASSAGE_SHARE) * candidate.rank + PASSAGE_SHARE * passage;
        candidate.rank = rank;
        candidate.scored = { ...candidate.scored, raw: rank, score: Math.round(rank * 100) };
      });
      chosen = pool.sort((a, b) => b.rank - a.rank).slice(0, limit);
    } catch (error) {
      options.signal?.throwIfAborted();
      warnings.push(
        `Passage re-ranking failed (${(error as Error).message}); sentence scores used.`,
      );
    }
  }
  const moments = chosen.map((candidate): Moment => {
    const spanSentences = sentences.slice(candidate.first, candidate.last + 1);
    let best = spanSentences[0] as Sentence;
    for (const sentence of spanSentences)
      if ((relevance[sentence.index] ?? 0) > (relevance[best.index] ?? 0)) best = sentence;
    // Matched words as the speaker said them ("advice"), not the index's stems ("advic").
    const spokenForms = new Map(
      contentTermsWithSurface(best.text).map(({ term, surface }) => [term, surface] as const),
    );
    const matched = [
      ...new Set(index.matchedTerms(best.index, queryWeights).map((t) => spokenForms.get(t) ?? t)),
    ];
    const counts = new Map<string, number>();
    for (const term of contentTerms(spanText(spanSentences)))
      counts.set(term, (counts.get(term) ?? 0) + 1);
    const salientTerms = [...counts]
      .map(([term, count]) => [term, count * index.idf(term)] as const)
      .sort((a, b) => b[1] - a[1])
      .map(([term]) => term);
    const title = cleanSpokenText(best.text).replace(/[.,;:…]+$/, '');
    const detail =
      `Answers "${query.trim()}": "${title}"` +
      (semantic ? ` (meaning match ${Math.round((semantic[best.index] ?? 0) * 100)}%` : ' (') +
      (matched.length
        ? `${semantic ? '; ' : ''}words: ${matched.slice(0, 5).join(', ')})`
        : semantic
          ? ')'
          : 'word match)');
    return {
      startMs: candidate.startMs,
      endMs: candidate.endMs,
      score: Math.max(0, Math.min(100, candidate.scored.score)),
      reasons: [{ kind: 'relevance', detail, weight: candidate.scored.score }],
      title: title.length > 70 ? `${title.slice(0, 69).replace(/\s+\S*$/, '')}…` : title,
      // The excerpt starts where the title comes from, so both describe the same part of the span.
      description: excerptFrom(spanSentences, best),
      hashtags: hashtagsFor(spanSentences, salientTerms),
      text: spanText(spanSentences),
    };
  });
  moments.sort((a, b) => b.score - a.score);
  return { moments, method: semantic ? 'semantic' : 'lexical', warnings };
}

function excerptFrom(spanSentences: readonly Sentence[], titleSentence: Sentence): string {
  const from = spanSentences.findIndex((sentence) => sentence.index === titleSentence.index);
  const text = cleanSpokenText(spanText(spanSentences.slice(Math.max(0, from))));
  return text.length > 220 ? `${text.slice(0, 219).replace(/\s+\S*$/, '')}…` : text;
}

/** The spans answering a query, best first; warnings (e.g. no local model) go to the console. */
export async function searchMoments(
  transcript: Transcript,
  query: string,
  options: SearchMomentsOptions = {},
): Promise<Moment[]> {
  const report = await searchMomentsWithReport(transcript, query, options);
  for (const warning of report.warnings) console.warn(`[moments/search] ${warning}`);
  return report.moments;
}
