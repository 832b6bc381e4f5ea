import { selectNonOverlapping, type SpanCandidate } from '../moments/candidates';
import { sentenceCues } from '../moments/clip-judge';
import { thoughtBreaks } from '../moments/scoring';
import { splitSentences, type Sentence } from '../moments/sentences';
import { cleanSpokenText, cutTitle, hashtagsFor } from '../moments/titles';
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
// Search answers are a few sentences: the tightest span that answers, long enough to watch.
const DEFAULT_MIN_MS = 8_000;
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
/** How much each sentence answers the query, and what that was computed from. */
interface QueryRelevance {
  index: LexicalIndex;
  queryWeights: Map<string, number>;
  /** Per sentence, 0..1 (+ a bonus for the expected kind of answer): the sentence with its neighbours. */
  relevance: number[];
  /** Per sentence, the sentence on its own: what keeps an answer from running on into other talk. */
  ownRelevance: number[];
  /** Per sentence, the meaning match alone, when the embedder worked. */
  semantic?: number[];
  queryVector?: Float32Array;
  vectors?: Float32Array[];
}

async function queryRelevance(
  transcript: Transcript,
  sentences: Sentence[],
  query: string,
  embedder: SentenceEmbedder | null,
  options: { signal?: AbortSignal; warnings: string[] },
): Promise<QueryRelevance> {
  const index = new LexicalIndex(sentences.map((sentence) => sentence.text));
  const queryWeights = LexicalIndex.expandQuery(query);
  const lexical = [...index.scoreAll(queryWeights)].map(
    (score) => score / (score + LEXICAL_SATURATION),
  );
  let semantic: number[] | undefined;
  let semanticOwn: number[] | undefined;
  let queryVector: Float32Array | undefined;
  let vectors: Float32Array[] | undefined;
  if (embedder) {
    try {
      vectors = await sentenceVectors(transcript, sentences, embedder, options.signal);
      [queryVector] = await embedder.embed([query], { signal: options.signal });
      if (!queryVector) throw new Error('no query vector');
      const against = (vector: Float32Array | undefined) =>
        vector ? cosine(queryVector!, vector) : 0;
      semantic = sentences.map((_, i) =>
        scaledSimilarity(Math.max(against(vectors![i]), against(vectors![sentences.length + i]))),
      );
      semanticOwn = sentences.map((_, i) => scaledSimilarity(against(vectors![i])));
    } catch (error) {
      options.signal?.throwIfAborted();
      options.warnings.push(
        `Semantic search failed (${(error as Error).message}); using word matching with synonyms only.`,
      );
    }
  }
  const combine = (similarities: number[] | undefined, i: number) =>
    similarities ? 0.75 * (similarities[i] ?? 0) + 0.25 * (lexical[i] ?? 0) : (lexical[i] ?? 0);
  // Classic question answering: the kind of answer a question expects (a number for "how many").
  const expects = expectedAnswer(query);
  // A greeting, sponsor read or sign-off names the talk's topic but answers no question about it,
  // unless the query asks for that kind of talk itself ("the sponsor", "the guest").
  // So does the line said between two of them ("Welcome. My guest today runs a workshop. Thanks
  // for coming in."): it introduces the topic the rest of the talk answers about.
  const asksAside = sentenceCues(query).housekeeping > 0;
  const isAside = sentences.map(
    (sentence) => !asksAside && sentenceCues(sentence.text).housekeeping > 0,
  );
  const aside = sentences.map((_, i) =>
    isAside[i] ? ASIDE_SHARE : isAside[i - 1] && isAside[i + 1] ? ASIDE_SHARE : 1,
  );
  return {
    index,
    queryWeights,
    relevance: sentences.map(
      (sentence, i) =>
        aside[i]! * combine(semantic, i) + (expects?.test(sentence.text) ? ANSWER_TYPE_BONUS : 0),
    ),
    ownRelevance: sentences.map((_, i) => aside[i]! * combine(semanticOwn, i)),
    semantic,
    queryVector,
    vectors: semantic ? vectors : undefined,
  };
}

/** One answer per strong sentence: the tightest whole-sentence span around it (issue 20), ranked. */
function answerCandidates(
  sentences: Sentence[],
  scores: QueryRelevance,
  options: { limit: number; minMs: number; maxMs: number },
): SpanCandidate[] {
  const { index, queryWeights, relevance, ownRelevance, vectors } = scores;
  const breakAfter = thoughtBreaks(
    sentences,
    sentences.map((sentence) => ({ terms: contentTerms(sentence.text) })),
  );
  const termSets = sentences.map((sentence) => new Set(contentTerms(sentence.text)));
  const typedTerms = [...queryWeights.values()].filter((weight) => weight === 1).length;
  const matchedBySentence = sentences.map((sentence) =>
    index.matchedTerms(sentence.index, queryWeights),
  );
  // How close sentence i is in meaning to the answer's best sentence p (its vectors, or shared words).
  const similarityTo = (i: number, p: number): number => {
    if (i === p) return 1;
    const a = vectors?.[i];
    const b = vectors?.[p];
    if (a && b) return Math.max(0, Math.min(1, (cosine(a, b) - 0.1) / 0.5));
    const own = termSets[i];
    const peakTerms = termSets[p];
    if (!own || !peakTerms || own.size === 0) return 0;
    return Math.min(1, ([...own].filter((term) => peakTerms.has(term)).length / own.size) * 2);
  };
  const candidates: SpanCandidate[] = [];
  const taken = (k: number) => candidates.some((c) => c.first <= k && k <= c.last);
  const peaks = sentences
    .map((sentence) => sentence.index)
    .filter((i) => (relevance[i] ?? 0) >= MIN_PEAK_RELEVANCE)
    .sort((a, b) => (relevance[b] ?? 0) - (relevance[a] ?? 0));
  const poolSize = Math.max(options.limit * 2, 12);
  for (const p of peaks) {
    if (candidates.length >= poolSize) break;
    if (taken(p)) continue;
    const span = answerSpan(p, {
      sentences,
      breakAfter,
      answers: (k) =>
        Math.max((ownRelevance[k] ?? 0) / Math.max(1e-6, ownRelevance[p] ?? 0), similarityTo(k, p)),
      minMs: options.minMs,
      maxMs: options.maxMs,
      taken,
    });
    const completeness =
      ((span.first > 0 ? (breakAfter[span.first - 1] ?? 0) : 1) + (breakAfter[span.last] ?? 0)) / 2;
    const matched = new Set<string>();
    for (let k = span.first; k <= span.last; k++)
      for (const term of matchedBySentence[k] ?? []) matched.add(term);
    // Share of the query's words (synonyms at their weight) the answer mentions anywhere.
    const coverage = Math.min(
      1,
      [...matched].reduce((sum, term) => sum + (queryWeights.get(term) ?? 0), 0) /
        Math.max(1, typedTerms),
    );
    const rank = 0.6 * (relevance[p] ?? 0) + 0.2 * coverage + 0.2 * completeness;
    candidates.push({
      first: span.first,
      last: span.last,
      startMs: sentences[span.first]?.startMs ?? 0,
      endMs: sentences[span.last]?.endMs ?? 0,
      rank,
      scored: { raw: rank, score: Math.round(rank * 100), reasons: [], salientTerms: [] },
    });
  }
  return candidates;
}

/** Re-ranks the answers by embedding each whole span: a passage can answer what no sentence does. */
async function rerankByPassage(
  candidates: SpanCandidate[],
  sentences: Sentence[],
  queryVector: Float32Array,
  embedder: SentenceEmbedder,
  signal?: AbortSignal,
): Promise<SpanCandidate[]> {
  const passageVectors = await embedder.embed(
    candidates.map((candidate) => spanText(sentences.slice(candidate.first, candidate.last + 1))),
    { signal },
  );
  candidates.forEach((candidate, i) => {
    const vector = passageVectors[i];
    const passage = vector ? scaledSimilarity(cosine(queryVector, vector)) : 0;
    const rank = (1 - PASSAGE_SHARE) * candidate.rank + PASSAGE_SHARE * passage;
    candidate.rank = rank;
    candidate.scored = { ...candidate.scored, raw: rank, score: Math.round(rank * 100) };
  });
  return [...candidates].sort((a, b) => b.rank - a.rank);
}

/** The answer as a moment: titled by its best-matching sentence, with why it answers. */
function answerMoment(
  candidate: SpanCandidate,
  sentences: Sentence[],
  scores: QueryRelevance,
  query: string,
): Moment {
  const { index, queryWeights, relevance, semantic } = scores;
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
    title: cutTitle(title),
    // The excerpt starts where the title comes from, so both describe the same part of the span.
    description: excerptFrom(spanSentences, best),
    hashtags: hashtagsFor(spanSentences, salientTerms),
    text: spanText(spanSentences),
  };
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
  const warnings: string[] = [];
  const sentences = splitSentences(transcript);
  if (!query.trim())
    return { moments: [], method: 'lexical', warnings: ['The search query is empty.'] };
  if (sentences.length === 0)
    return { moments: [], method: 'lexical', warnings: ['The transcript has no words to search.'] };
  let embedder = options.embedder;
  if (embedder === undefined) {
    const loaded = await loadDefaultEmbedder();
    embedder = loaded.embedder ?? null;
    if (loaded.warning) warnings.push(loaded.warning);
  }
  const scores = await queryRelevance(transcript, sentences, query, embedder, {
    signal: options.signal,
    warnings,
  });
  const candidates = answerCandidates(sentences, scores, {
    limit,
    minMs: options.minMs ?? DEFAULT_MIN_MS,
    maxMs: options.maxMs ?? DEFAULT_MAX_MS,
  });
  let chosen = selectNonOverlapping(candidates, limit);
  if (scores.semantic && embedder && scores.queryVector) {
    try {
      const ranked = await rerankByPassage(
        candidates,
        sentences,
        scores.queryVector,
        embedder,
        options.signal,
      );
      chosen = ranked.slice(0, limit);
    } catch (error) {
      options.signal?.throwIfAborted();
      warnings.push(
        `Passage re-ranking failed (${(error as Error).message}); sentence scores used.`,
      );
    }
  }
  const moments = chosen.map((candidate) => answerMoment(candidate, sentences, scores, query));
  moments.sort((a, b) => b.score - a.score);
  return { moments, method: scores.semantic ? 'semantic' : 'lexical', warnings };
}

/** What is left of the relevance of a greeting, sponsor read or sign-off. */
const ASIDE_SHARE = 0.5;
/** What a sentence holding the expected kind of answer gains in relevance. */
const ANSWER_TYPE_BONUS = 0.08;
const NUMBER_ANSWER =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|half|third|quarter|dozen|percent)\b/i;

/** The shape of the answer a question asks for, when it asks for one (numbers, reasons). */
function expectedAnswer(query: string): RegExp | undefined {
  const lower = query.toLowerCase();
  if (
    /\bhow (?:many|much|long|often|far|old|big|fast)\b|\bwhat (?:percentage|share|number)\b/.test(
      lower,
    )
  )
    return NUMBER_ANSWER;
  if (/^\s*why\b|\bwhat (?:is|was) the reason\b/.test(lower))
    return /\b(?:because|so that|since|the reason|that is why|that's why|which means)\b/i;
  return undefined;
}

/**
 * A neighbour answering at least this much (relative relevance, or meaning close to the best
 * sentence) joins. Less is asked of the sentences after: a sentence that matches the question's
 * words often introduces the answer ("Inspectors still walk bridges with a hammer.") that follows.
 */
const JOINS_ANSWER = 0.6;
const JOINS_ANSWER_AFTER = 0.45;
/** What follows a lead-in (a question, a short line ending its paragraph) answers it, up to this many sentences. */
const LEAD_IN_ANSWER_SENTENCES = 3;
/** A lead-in this short ("Here is a simple test.") comes with the answer it introduces. */
const LEAD_IN_MAX_WORDS = 8;

/**
 * The tightest span of whole sentences that answers, around its best sentence p (issue 20): the
 * neighbours that answer too (relevant to the query, or close in meaning to p) within the same
 * stretch of talk, plus a short lead-in, never padding. A question in the talk ("Who was your
 * first hire?") is a lead-in: its answer is what follows it.
 */
function answerSpan(
  p: number,
  talk: {
    sentences: readonly Sentence[];
    breakAfter: readonly number[];
    answers: (k: number) => number;
    minMs: number;
    maxMs: number;
    taken: (k: number) => boolean;
  },
): { first: number; last: number } {
  const { sentences, breakAfter } = talk;
  const isQuestion = (k: number) => /\?["')]*$/.test(sentences[k]?.text.trim() ?? '');
  const duration = (a: number, b: number) =>
    (sentences[b]?.endMs ?? 0) - (sentences[a]?.startMs ?? 0);
  const joinable = (k: number, boundary: number) =>
    k >= 0 &&
    k < sentences.length &&
    !talk.taken(k) &&
    (breakAfter[boundary] ?? 1) < 0.6 &&
    !isQuestion(k);
  let first = p;
  let last = p;
  // A question's answer follows it, often after a pause and in another voice; so does the answer
  // to a short sentence that ends its paragraph ("Heavy clay." "So, the question I get is about
  // the winter."): the whole next paragraph is the answer.
  const leadIn =
    isQuestion(p) || ((breakAfter[p] ?? 1) >= 0.6 && (sentences[p]?.words.length ?? 99) <= 12);
  if (leadIn) {
    let crossed = false;
    while (
      last + 1 < sentences.length &&
      !talk.taken(last + 1) &&
      !isQuestion(last + 1) &&
      duration(first, last + 1) <= talk.maxMs &&
      last - p < LEAD_IN_ANSWER_SENTENCES &&
      (!crossed || (breakAfter[last] ?? 1) < 0.6)
    ) {
      crossed = true;
      last++;
    }
  }
  let grown = true;
  while (grown) {
    grown = false;
    if (
      joinable(last + 1, last) &&
      talk.answers(last + 1) >= JOINS_ANSWER_AFTER &&
      duration(first, last + 1) <= talk.maxMs
    ) {
      last++;
      grown = true;
    }
    if (
      joinable(first - 1, first - 1) &&
      talk.answers(first - 1) >= JOINS_ANSWER &&
      duration(first - 1, last) <= talk.maxMs
    ) {
      first--;
      grown = true;
    }
  }
  // A short lead-in before the answer: a question asked, or a few words that introduce it.
  const before = first - 1;
  if (
    before >= 0 &&
    !talk.taken(before) &&
    (breakAfter[before] ?? 1) < 0.6 &&
    (isQuestion(before) || (sentences[before]?.words.length ?? 99) <= LEAD_IN_MAX_WORDS) &&
    duration(before, last) <= talk.maxMs
  )
    first = before;
  // Too short to watch: the neighbour that answers more, within the same stretch of talk if it can.
  const free = (k: number) => k >= 0 && k < sentences.length && !talk.taken(k);
  while (duration(first, last) < talk.minMs) {
    const within = joinable(last + 1, last) || (first > 0 && joinable(first - 1, first - 1));
    const canNext = within ? joinable(last + 1, last) : free(last + 1);
    const canPrevious = within ? first > 0 && joinable(first - 1, first - 1) : free(first - 1);
    if (!canNext && !canPrevious) break;
    // The answer more often follows than precedes: the sentence before must answer clearly more.
    const next = canNext ? talk.answers(last + 1) + 0.2 : -1;
    const previous = canPrevious ? talk.answers(first - 1) : -1;
    if (next >= previous) last++;
    else first--;
  }
  return { first, last };
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
