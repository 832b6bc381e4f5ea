import { selectNonOverlapping, settledScore, type SpanCandidate } from '../moments/candidates';
import { sentenceCues } from '../moments/clip-judge';
import { thoughtBreaks } from '../moments/scoring';
import { splitSentences, type Sentence } from '../moments/sentences';
import { cleanSpokenText, cutTitle, hashtagsFor, keyphraseHashtags } from '../moments/titles';
import type { Moment, Transcript } from '../moments/types';
import { LexicalIndex } from './bm25';
import { embedRemembered, meanVector } from '../topics/index';
import { cosine, loadDefaultEmbedder, type SentenceEmbedder } from './embeddings';
import { contentTerms, contentTermsWithSurface } from './text';

export interface AnswerMomentsOptions {
  limit?: number;
  minMs?: number;
  maxMs?: number;
  /** The sentence embedder; default: the installed local model. `null` searches by words only. */
  embedder?: SentenceEmbedder | null;
  signal?: AbortSignal;
}

export interface AnswerMomentsReport {
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
  // Remembered by text: the passages answers are chosen from hold the same sentences and triples.
  const vectors = embedRemembered(embedder, [...texts, ...withContext], signal);
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
  /** Per sentence, the share of its relevance it keeps: less for asides and the talk's announcement. */
  aside: number[];
  /** Per sentence, whether it holds the kind of answer the query asks for (a number for "how many"). */
  holdsAnswer: boolean[];
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
  // The line that announces the talk ("Today we are looking at how volcanoes warn us", "My guest
  // today runs a workshop") names what every question is about and answers none of them.
  const asksAgenda = AGENDA.test(query) || ASKS_WHAT_THE_TALK_IS.test(query);
  const aside = sentences.map((sentence, i) =>
    isAside[i] || (isAside[i - 1] && isAside[i + 1])
      ? ASIDE_SHARE
      : !asksAgenda && AGENDA.test(sentence.text)
        ? AGENDA_SHARE
        : 1,
  );
  const holdsAnswer = sentences.map((sentence) => expects?.test(sentence.text) ?? false);
  return {
    index,
    queryWeights,
    aside,
    holdsAnswer,
    relevance: sentences.map(
      (sentence, i) => aside[i]! * combine(semantic, i) + (holdsAnswer[i] ? ANSWER_TYPE_BONUS : 0),
    ),
    ownRelevance: sentences.map((_, i) => aside[i]! * combine(semanticOwn, i)),
    semantic,
    queryVector,
    vectors: semantic ? vectors : undefined,
  };
}

/** One answer per strong sentence: the tightest whole-sentence span around it, ranked. */
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
      holdsAnswer: (k) => scores.holdsAnswer[k] ?? false,
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

/** The longest passage compared whole with the query, in sentences. */
const PASSAGE_SENTENCES = 3;
/** Weight of the query's words found in a passage, against its meaning match (chosen on bench/dev, dev2). */
const PASSAGE_WORDS_SHARE = 0.5;
/** What each sentence past the first costs a passage: of two that answer alike, the shorter. */
const PASSAGE_SENTENCE_COST = 0.02;
/** What a passage that runs from one break in the talk to the next gains. */
const PASSAGE_WHOLE_SHARE = 0.2;

/**
 * Every passage of one to three sentences within a stretch of talk, compared whole with the
 * query: the passage that answers is found by its gist and is already the tightest span,
 * where growing a span around its best sentence caught the line that repeats the question's words
 * and padded the answer with the talk around it. Ranked by meaning fused with the query's words
 * the passage holds (stems and synonyms, stopwords ignored); asides and the talk's announcement
 * keep less; widened to the shortest watchable length.
 */
async function passageCandidates(
  sentences: Sentence[],
  scores: QueryRelevance,
  embedder: SentenceEmbedder,
  options: { minMs: number; maxMs: number; signal?: AbortSignal },
): Promise<SpanCandidate[]> {
  const { index, queryWeights, queryVector, relevance, aside } = scores;
  const breakAfter = thoughtBreaks(
    sentences,
    sentences.map((sentence) => ({ terms: contentTerms(sentence.text) })),
  );
  const passages: { first: number; last: number }[] = [];
  for (let first = 0; first < sentences.length; first++)
    for (let last = first; last < Math.min(sentences.length, first + PASSAGE_SENTENCES); last++) {
      // A span is an answer only if its best sentence reaches the relevance floor.
      const peak = Math.max(...relevance.slice(first, last + 1));
      if (peak >= MIN_PEAK_RELEVANCE) passages.push({ first, last });
      if ((breakAfter[last] ?? 1) >= 0.6) break;
    }
  if (passages.length === 0) return [];
  // Sentences and passages repeat across queries on one talk: each is embedded once.
  const vectors = await embedRemembered(
    embedder,
    passages.map(({ first, last }) => spanText(sentences.slice(first, last + 1))),
    options.signal,
  );
  const typedTerms = [...queryWeights.values()].filter((weight) => weight === 1).length;
  const leadIns = {
    sentences,
    breakAfter,
    taken: () => false,
    holdsAnswer: (k: number) => scores.holdsAnswer[k] ?? false,
  };
  return passages.map(({ first, last }, k) => {
    const matched = new Set<string>();
    for (let j = first; j <= last; j++)
      for (const term of index.matchedTerms(j, queryWeights)) matched.add(term);
    // Share of the query's words (synonyms at their weight) the passage mentions.
    const coverage = Math.min(
      1,
      [...matched].reduce((sum, term) => sum + (queryWeights.get(term) ?? 0), 0) /
        Math.max(1, typedTerms),
    );
    const meaning = scaledSimilarity(cosine(queryVector!, vectors[k]!));
    const kept = Math.min(...aside.slice(first, last + 1));
    // Like a clip, an answer reads best as a whole stretch of talk: from a break to a break.
    const whole = ((first > 0 ? (breakAfter[first - 1] ?? 0) : 1) + (breakAfter[last] ?? 0)) / 2;
    const rank =
      kept * ((1 - PASSAGE_WORDS_SHARE) * meaning + PASSAGE_WORDS_SHARE * coverage) +
      PASSAGE_WHOLE_SHARE * whole -
      PASSAGE_SENTENCE_COST * (last - first);
    // A lead-in ("So, the question I get most often is about the winter.") carries its answer.
    let [from, to] = [
      first,
      first === last ? answerAfterLeadIn(first, { ...leadIns, maxMs: options.maxMs }) : last,
    ];
    // A question asked in the talk ("Who was your first hire?") is answered by what follows it.
    const asked = Array.from({ length: last - first + 1 }, (_, j) => last - j).find((j) =>
      isQuestion(sentences, j),
    );
    if (asked !== undefined)
      to = Math.max(to, answerAfterLeadIn(asked, { ...leadIns, maxMs: options.maxMs }));
    ({ first: from, last: to } = completeAnswer(from, to, {
      ...leadIns,
      answers: (k) => relevance[k] ?? 0,
      minMs: options.minMs,
      maxMs: options.maxMs,
    }));
    ({ first: from, last: to } = widenToWatchable(from, to, {
      ...leadIns,
      answers: (k) => relevance[k] ?? 0,
      minMs: options.minMs,
      maxMs: options.maxMs,
    }));
    return {
      first: from,
      last: to,
      startMs: sentences[from]?.startMs ?? 0,
      endMs: sentences[to]?.endMs ?? 0,
      rank,
      scored: { raw: rank, score: Math.round(rank * 100), reasons: [], salientTerms: [] },
    };
  });
}

/** The answer as a moment: titled by its best-matching sentence, with why it answers. */
async function answerMoment(
  candidate: SpanCandidate,
  sentences: Sentence[],
  scores: QueryRelevance,
  query: string,
  embedder: SentenceEmbedder | null,
): Promise<Moment> {
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
  const hashtags = scores.vectors
    ? await keyphraseHashtags(spanSentences, {
        embedder,
        centre: meanVector(spanSentences.map((sentence) => scores.vectors![sentence.index]!)),
        elsewhere: sentences
          .filter((s) => s.index < candidate.first || s.index > candidate.last)
          .map((s) => s.text),
      })
    : [];
  return {
    startMs: candidate.startMs,
    endMs: candidate.endMs,
    // Relevance is its own scale: one reason, the match itself, out of 100.
    ...settledScore(candidate.scored.score, [
      { kind: 'relevance', detail, weight: Math.max(1, candidate.scored.score) },
    ]),
    title: cutTitle(title),
    // The excerpt starts where the title comes from, so both describe the same part of the span.
    description: excerptFrom(spanSentences, best),
    hashtags: hashtags.length ? hashtags : hashtagsFor(spanSentences, salientTerms),
    text: spanText(spanSentences),
  };
}

/**
 * Finds the spans of whole sentences that answer a query (moment list type `search_snippet`), by meaning
 * when the local sentence-embedding model is installed, and by words, stems and synonyms otherwise.
 */
export async function findAnswerMomentsWithReport(
  transcript: Transcript,
  query: string,
  options: AnswerMomentsOptions = {},
): Promise<AnswerMomentsReport> {
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
  const lengths = {
    minMs: options.minMs ?? DEFAULT_MIN_MS,
    maxMs: options.maxMs ?? DEFAULT_MAX_MS,
  };
  let chosen: SpanCandidate[] | undefined;
  if (scores.semantic && embedder && scores.queryVector) {
    try {
      const passages = await passageCandidates(sentences, scores, embedder, {
        ...lengths,
        signal: options.signal,
      });
      chosen = selectNonOverlapping(passages, limit);
    } catch (error) {
      options.signal?.throwIfAborted();
      warnings.push(
        `Passage matching failed (${(error as Error).message}); answers built around the best sentences.`,
      );
    }
  }
  // Words only (no model, or it failed): spans grown around the sentences that match best.
  chosen ??= selectNonOverlapping(
    answerCandidates(sentences, scores, { limit, ...lengths }),
    limit,
  );
  const moments: Moment[] = [];
  for (const candidate of chosen)
    moments.push(await answerMoment(candidate, sentences, scores, query, embedder));
  moments.sort((a, b) => b.score - a.score);
  return { moments, method: scores.semantic ? 'semantic' : 'lexical', warnings };
}

/** What is left of the relevance of a greeting, sponsor read or sign-off. */
const ASIDE_SHARE = 0.5;
/** What is left of the relevance of the line that announces what the talk is about. */
const AGENDA_SHARE = 0.7;
const AGENDA =
  /\b(?:today,? (?:we|i)(?:'re| are|'m| am|'ll| will)? (?:going to |gonna )?(?:look(?:ing)? at|talk(?:ing)? about|discuss(?:ing)?|cover(?:ing)?|explor(?:e|ing)|learn(?:ing)? (?:about|how))|(?:my|our) guests? (?:today|this week|on the show)|(?:in|on) (?:this|today's) (?:talk|episode|video|lecture|show|session)|today's (?:letter|question|topic|guest|episode|lecture|talk))\b/i;
const ASKS_WHAT_THE_TALK_IS =
  /\bwhat (?:is|was) (?:this|the) (?:talk|episode|video|show|lecture)\b/i;
/** What a sentence holding the expected kind of answer gains in relevance. */
const ANSWER_TYPE_BONUS = 0.08;
const NUMBER_ANSWER =
  /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|half|third|quarter|dozen|percent)\b/i;

/** A question that asks what to do: its answer is the sentence with the advice in it. */
const ASKS_ADVICE =
  /\b(?:advice|advise|tips?|recommend\w*|suggest\w*|what should|should (?:i|you|we|people|they)|how (?:do|can|should) (?:i|you|we|people) (?:avoid|stop|start|get|keep|make)|what (?:can|do|should) (?:i|you|we|people) do)\b/i;
/** What a sentence needs to give advice: an imperative, "you should", "my advice" and the like. */
const ADVICE_SHARE = 0.6;

/** The shape of the answer a question asks for, when it asks for one (numbers, reasons, advice). */
function expectedAnswer(query: string): { test(text: string): boolean } | undefined {
  const lower = query.toLowerCase();
  if (
    /\bhow (?:many|much|long|often|far|old|big|fast)\b|\bwhat (?:percentage|share|number)\b/.test(
      lower,
    )
  )
    return NUMBER_ANSWER;
  if (/^\s*why\b|\bwhat (?:is|was) the reason\b/.test(lower))
    return /\b(?:because|so that|since|the reason|that is why|that's why|which means)\b/i;
  if (ASKS_ADVICE.test(lower)) return { test: (text) => sentenceCues(text).advice >= ADVICE_SHARE };
  return undefined;
}

/**
 * A neighbour answering at least this much (relative relevance, or meaning close to the best
 * sentence) joins. Less is asked of the sentences after: a sentence that matches the question's
 * words often introduces the answer ("Inspectors still walk bridges with a hammer.") that follows.
 */
const JOINS_ANSWER = 0.6;
const JOINS_ANSWER_AFTER = 0.45;
/** What follows a lead-in across a break (its own paragraph) answers it, up to this many sentences. */
const LEAD_IN_ANSWER_SENTENCES = 3;
/**
 * What follows a lead-in in the same breath answers it, sentence by sentence until this many words
 * are said: "Good question." or "Maybe." is not yet the answer, and a whole reply is not padded
 * with the talk after it (chosen on bench/dev, dev2: 8, 12, 16, 20 words against 3 sentences).
 */
const LEAD_IN_ANSWER_WORDS = 16;
/** A lead-in this short ("Here is a simple test.") comes with the answer it introduces. */
const LEAD_IN_MAX_WORDS = 8;

const isQuestion = (sentences: readonly Sentence[], k: number) =>
  /\?["')]*$/.test(sentences[k]?.text.trim() ?? '');

/**
 * Where the answer to a lead-in at sentence p ends (p itself when p is none). A question's answer
 * follows it, often after a pause and in another voice; so does the answer to a short sentence
 * that ends its paragraph ("Heavy clay." "So, the question I get is about the winter."): the whole
 * next paragraph is the answer, up to LEAD_IN_ANSWER_SENTENCES; a reply in the same breath runs to
 * LEAD_IN_ANSWER_WORDS.
 */
function answerAfterLeadIn(
  p: number,
  talk: {
    sentences: readonly Sentence[];
    breakAfter: readonly number[];
    maxMs: number;
    taken: (k: number) => boolean;
    holdsAnswer: (k: number) => boolean;
  },
): number {
  const { sentences, breakAfter } = talk;
  const leadIn =
    isQuestion(sentences, p) ||
    ((breakAfter[p] ?? 1) >= 0.6 && (sentences[p]?.words.length ?? 99) <= 12);
  let last = p;
  if (!leadIn) return throughAnnouncedList(p, last, talk);
  let crossed = false;
  let said = 0;
  // Across a break the answer is the next paragraph; said on in one breath, its first words.
  const answeredApart = (breakAfter[p] ?? 1) >= 0.6;
  while (
    last + 1 < sentences.length &&
    !talk.taken(last + 1) &&
    !isQuestion(sentences, last + 1) &&
    (sentences[last + 1]?.endMs ?? 0) - (sentences[p]?.startMs ?? 0) <= talk.maxMs &&
    (answeredApart ? last - p < LEAD_IN_ANSWER_SENTENCES : said < LEAD_IN_ANSWER_WORDS) &&
    (!crossed || (breakAfter[last] ?? 1) < 0.6)
  ) {
    crossed = true;
    last++;
    said += sentences[last]?.words.length ?? 0;
    // "How much range do you lose?" is answered by the sentence with the number.
    if (talk.holdsAnswer(last)) break;
  }
  return throughAnnouncedList(p, last, talk);
}

/** A short sentence that announces a list ("Three reasons, and they pile up."): how many items. */
const ANNOUNCED_LIST =
  /\b(two|three|four|five|a couple of|a few|several) (?:\w+ )?(?:reasons|things|ways|steps|tips|rules|points|parts|mistakes|options|problems|factors|causes|lessons|tricks|signs|questions)\b/i;
const LIST_LENGTHS: Record<string, number> = {
  two: 2,
  'a couple of': 2,
  three: 3,
  'a few': 3,
  several: 3,
  four: 4,
  five: 5,
};
const ANNOUNCEMENT_MAX_WORDS = 10;

/**
 * Where an answer ends that announces a list in sentences p..last: it runs on through that many
 * sentences ("Three reasons, and they pile up." is not yet the answer; its three sentences are).
 */
function throughAnnouncedList(
  p: number,
  last: number,
  talk: { sentences: readonly Sentence[]; maxMs: number; taken: (k: number) => boolean },
): number {
  const { sentences } = talk;
  for (let j = p; j <= last; j++) {
    const sentence = sentences[j];
    if (!sentence || sentence.words.length > ANNOUNCEMENT_MAX_WORDS) continue;
    const items = LIST_LENGTHS[ANNOUNCED_LIST.exec(sentence.text)?.[1]?.toLowerCase() ?? ''];
    while (
      items !== undefined &&
      last < j + items &&
      last + 1 < sentences.length &&
      !talk.taken(last + 1) &&
      !isQuestion(sentences, last + 1) &&
      (sentences[last + 1]?.endMs ?? 0) - (sentences[p]?.startMs ?? 0) <= talk.maxMs
    )
      last++;
  }
  return last;
}

/** The talk around an answer: its sentences, the breaks between thoughts, what answers, what is taken. */
interface TalkAround {
  sentences: readonly Sentence[];
  breakAfter: readonly number[];
  answers: (k: number) => number;
  minMs: number;
  maxMs: number;
  taken: (k: number) => boolean;
  holdsAnswer: (k: number) => boolean;
}

const spanMs = (sentences: readonly Sentence[], first: number, last: number) =>
  (sentences[last]?.endMs ?? 0) - (sentences[first]?.startMs ?? 0);

/**
 * The tightest span of whole sentences that answers, around its best sentence p: the
 * neighbours that answer too (relevant to the query, or close in meaning to p) within the same
 * stretch of talk, plus a short lead-in, never padding. A question in the talk ("Who was your
 * first hire?") is a lead-in: its answer is what follows it.
 */
function answerSpan(p: number, talk: TalkAround): { first: number; last: number } {
  const { sentences, breakAfter } = talk;
  const duration = (a: number, b: number) => spanMs(sentences, a, b);
  const joinable = (k: number, boundary: number) =>
    k >= 0 &&
    k < sentences.length &&
    !talk.taken(k) &&
    (breakAfter[boundary] ?? 1) < 0.6 &&
    !isQuestion(sentences, k);
  let first = p;
  let last = answerAfterLeadIn(p, talk);
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
    (isQuestion(sentences, before) ||
      (sentences[before]?.words.length ?? 99) <= LEAD_IN_MAX_WORDS) &&
    duration(before, last) <= talk.maxMs
  )
    first = before;
  return widenToWatchable(first, last, talk);
}

/** A line that announces what comes next ("So here is my advice.", "The trick is this:"). */
const ANNOUNCES =
  /(?::["')]*$|\b(?:here(?:'s| is) (?:my|the|what|how|a|one)|my (?:advice|tip|answer|rule)|the (?:answer|trick|secret|key|rule|point) is)\b)/i;
/**
 * A sentence after the answer, in the same stretch of talk, joins it when it answers at least this
 * share of the answer's best (bench dev+dev2: 0.9 kept 54 of 77 good answers and held the marked
 * answer sentences in 35 against 33; 0.75 held 37 but made 4 answers run too long). Running on to
 * the next sentence with a number or advice, tried too, held none more and lost a good answer.
 */
const CONTINUES_ANSWER = 0.9;
/**
 * The answer grown to the end of its sentences and cut free of lead-in that is not its own:
 * - a sentence that announces what follows ("So here is my advice.") takes what it announces;
 * - the sentences after it in the same stretch that answer about as well join;
 * - an opening sentence from the stretch before (across a break) that answers less goes.
 */
function completeAnswer(
  first: number,
  last: number,
  talk: TalkAround,
): { first: number; last: number } {
  const { sentences, breakAfter } = talk;
  const within = (k: number, boundary: number) =>
    k < sentences.length &&
    !talk.taken(k) &&
    (breakAfter[boundary] ?? 1) < 0.6 &&
    !isQuestion(sentences, k) &&
    spanMs(sentences, first, k) <= talk.maxMs;
  const peak = () =>
    Math.max(...Array.from({ length: last - first + 1 }, (_, j) => talk.answers(first + j)));
  let grown = true;
  while (grown) {
    grown = false;
    const next = last + 1;
    if (!within(next, last)) break;
    const announced = ANNOUNCES.test(sentences[last]?.text ?? '');
    const answersOn = talk.answers(next) >= CONTINUES_ANSWER * peak();
    if (announced || answersOn) {
      last = next;
      grown = true;
    }
  }
  // Lead-in from the stretch before: a sentence that ends another thought and answers less.
  while (
    first < last &&
    (breakAfter[first] ?? 0) >= 0.6 &&
    talk.answers(first) < 0.5 * peak() &&
    !talk.holdsAnswer(first)
  )
    first++;
  return { first, last };
}

/**
 * Too short to watch: the neighbour that answers more joins, within the same stretch of talk if it
 * can (the sentence across a break ends another thought: "…doing the math you already did for
 * them." before "Fourth, if they say no to the rent…"), never past maxMs.
 */
function widenToWatchable(
  first: number,
  last: number,
  talk: TalkAround,
): { first: number; last: number } {
  const { sentences, breakAfter } = talk;
  const duration = (a: number, b: number) => spanMs(sentences, a, b);
  const free = (k: number) => k >= 0 && k < sentences.length && !talk.taken(k);
  const sameStretch = (k: number, boundary: number) =>
    free(k) && (breakAfter[boundary] ?? 1) < 0.6 && !isQuestion(sentences, k);
  while (duration(first, last) < talk.minMs) {
    const fitsNext = free(last + 1) && duration(first, last + 1) <= talk.maxMs;
    const fitsPrevious = free(first - 1) && duration(first - 1, last) <= talk.maxMs;
    const nextWithin = fitsNext && sameStretch(last + 1, last);
    const previousWithin = fitsPrevious && sameStretch(first - 1, first - 1);
    const within = nextWithin || previousWithin;
    const canNext = within ? nextWithin : fitsNext;
    const canPrevious = within ? previousWithin : fitsPrevious;
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
export async function findAnswerMoments(
  transcript: Transcript,
  query: string,
  options: AnswerMomentsOptions = {},
): Promise<Moment[]> {
  const report = await findAnswerMomentsWithReport(transcript, query, options);
  for (const warning of report.warnings) console.warn(`[moments/search] ${warning}`);
  return report.moments;
}
