import { z } from 'zod';
import {
  endsOnFunctionWord,
  featuresLowConfidence,
  isUnsureContentWord,
  keyphrases,
  lowConfidenceForms,
  nounPhrases,
  type Keyphrase,
} from '../language/index';
import { pickDiverse } from '../language/diversity';
import { parseJsonReply, type LlmClient } from '../llm/index';
import { interest, sentenceCues } from '../moments/clip-judge';
import { findViralMoments } from '../moments/find';
import { splitSentences, type Sentence } from '../moments/sentences';
import type { Transcript } from '../moments/types';
import { contentTerms } from '../search/text';
import { cosine, loadDefaultEmbedder, type SentenceEmbedder } from '../search/embeddings';
import {
  CHAPTER_TUNING,
  meanVector,
  sentenceVectors,
  shiftCue,
  topicStarts,
  type Vector,
} from '../topics/shifts';

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

/** The overview states about one main point per minute of speech (3 at least, 6 at most). */
const OVERVIEW_SENTENCES_PER_MINUTE = 1;
/** The talk's best moments (by the offline clip judge) whose strongest sentences are key points. */
const TOP_MOMENTS_IN_KEY_POINTS = 3;
/** Key points: 8, or two a minute on longer talks, at most 12 (and a third of a short talk). */
const MIN_KEY_POINTS = 8;
const MAX_KEY_POINTS = 12;
/** At most this share of the talk's sentences are key points. */
const KEY_POINTS_SHARE = 1 / 3;
/** A clean sentence replaces an unsure one as a key point when it weighs at least this share of it
 * (chosen on bench/dev: 0.6 keeps the main points stated, 0.4 loses one in four talks). */
const CLEAN_ALTERNATIVE_SHARE = 0.6;
/** MMR trade-off for the overview: mostly salience, enough diversity not to say one thing twice. */
const OVERVIEW_RELEVANCE_SHARE = 0.7;

/** The longest line that opens a topic without stating anything ("Last thing, the vibe stuff."). */
const SIGNPOST_MAX_WORDS = 12;

/** Words that open a question ("Why does the sky...", "Do you want..."). */
const QUESTION_OPENING =
  /^(?:so,? |and,? |but,? |okay,? |now,? )?(?:what|why|how|who|whom|whose|where|when|which|do|does|did|is|are|was|were|can|could|should|would|will|have|has|had|isn't|aren't|don't|doesn't|didn't|can't|won't|shall|may|might)\b/i;

/**
 * A question the talk asks states no point; a long statement or piece of advice that ends by
 * quoting one does ("…before you offer any advice, ask one question, do you want help with this?").
 */
const asksQuestion = (text: string, words: number) =>
  /\?["')]*$/.test(text) && (words <= 12 || QUESTION_OPENING.test(text));

/**
 * How much each sentence states a main point, 0..1: closeness to what the whole talk is about
 * (centrality) and what a listener remembers (a striking number, advice, a conclusion or contrast);
 * greetings, sponsor reads and sign-offs, questions and fragments state none.
 */
function mainPointWeights(
  sentences: readonly Sentence[],
  vectors: readonly Vector[],
): { weights: number[]; housekeeping: boolean[] } {
  const cues = sentences.map((sentence) => sentenceCues(sentence.text));
  const housekeeping = cues.map((c) => c.housekeeping > 0);
  const kept = vectors.filter((_, i) => !housekeeping[i]);
  const centre = meanVector(kept.length ? kept : vectors);
  const closeness = vectors.map((vector) => cosine(vector, centre));
  const sorted = [...closeness].sort((a, b) => a - b);
  const low = sorted[Math.floor(sorted.length * 0.1)] ?? 0;
  const high = sorted[Math.floor(sorted.length * 0.9)] ?? 1;
  const lowForms = lowConfidenceForms(sentences.flatMap((sentence) => sentence.words));
  const weights = sentences.map((sentence, i) => {
    if (housekeeping[i]) return 0;
    const centrality = Math.max(0, Math.min(1, (closeness[i]! - low) / Math.max(1e-6, high - low)));
    const words = sentence.words.length;
    let weight = 0.5 * centrality + 0.5 * interest(cues[i]!);
    if (words < 6) weight *= words / 6;
    // A sentence that names fewer than four things states little ("So I opened the folder.",
    // "Let us start at the beginning."), however central or lively (chosen on bench/dev, dev2).
    weight *= Math.min(1, (contentTerms(sentence.text).length + 1) / 5);
    if (asksQuestion(sentence.text.trim(), words)) weight *= 0.4;
    // A short line opening a topic ("Okay, give people some practical stuff.") announces what the
    // sentences after it state (bench dev+dev2: main points and filler unchanged, signposts out).
    if (words <= SIGNPOST_MAX_WORDS && shiftCue(sentence.text)) weight *= 0.4;
    if (featuresLowConfidence(sentence.text, lowForms)) weight *= 0.85;
    return weight;
  });
  return { weights, housekeeping };
}

/** The most salient sentences among `pool`, each unlike those before it (MMR), in video order. */
function salientSentences(
  pool: readonly number[],
  weights: readonly number[],
  vectors: readonly Vector[],
  count: number,
): number[] {
  return pickDiverse(
    pool.filter((i) => weights[i]! > 0),
    {
      count,
      relevance: (i) => weights[i]!,
      similarity: (a, b) => cosine(vectors[a]!, vectors[b]!),
      relevanceShare: OVERVIEW_RELEVANCE_SHARE,
    },
  ).sort((a, b) => a - b);
}

/** A chapter's title: the noun phrase that best names its topic ("battery life in the cold"). */
async function chapterTitles(
  groups: number[][],
  sentences: readonly Sentence[],
  embedder: SentenceEmbedder | null,
  vectors: readonly Vector[],
  weights: readonly number[],
): Promise<string[]> {
  // A greeting or sign-off names no topic ("Episode", "Lovely place"): titles come from the rest.
  const texts = groups.map((members) => {
    const said = members.filter((i) => weights[i]! > 0);
    return (said.length ? said : members).map((i) => sentences[i]!.text);
  });
  const used = new Set<string>();
  const titles: string[] = [];
  for (const [k, members] of groups.entries()) {
    // The chapter's meaning, weighted by how much each sentence says (asides count little).
    const said = members.filter((i) => weights[i]! > 0);
    const centre = weightedMean(
      (said.length ? said : members).map((i) => vectors[i]!),
      (said.length ? said : members).map((i) => weights[i]! || 1),
    );
    const ranked = await keyphrases(texts[k]!, {
      embedder,
      centre: embedder ? centre : undefined,
      elsewhere: texts.filter((_, j) => j !== k).map((chapter) => chapter.join(' ')),
      lowConfidence: lowConfidenceForms(members.flatMap((i) => sentences[i]!.words)),
      withOf: true,
      maxWords: 5,
      limit: 6,
      relevanceShare: 1,
    });
    // Two chapters are never titled alike, and a title never names what the speaker says is not
    // so ("More money" from "you do not need more money").
    // A title reads as a noun phrase on its own too ("Hammer" alone reads as a verb).
    const fits = (candidate: Keyphrase) =>
      !saidOnlyNegated(candidate.text, texts[k]!) && readsAsNounPhrase(candidate.text);
    const phrase =
      ranked.find((candidate) => !used.has(candidate.head) && fits(candidate)) ??
      ranked.find(fits) ??
      ranked[0];
    if (phrase) used.add(phrase.head);
    const title = phrase?.text ?? `Part ${k + 1}`;
    titles.push(title.charAt(0).toUpperCase() + title.slice(1));
  }
  return titles;
}

/** Whether a chapter title made of the phrase reads as a noun phrase with no loose end. */
function readsAsNounPhrase(phrase: string): boolean {
  const title = phrase.charAt(0).toUpperCase() + phrase.slice(1);
  return nounPhrases(title).length > 0 && !endsOnFunctionWord(title);
}

/** A negation in the words before a phrase, in its clause ("do not need more money"). */
const NEGATED_BEFORE =
  /(?:\b(?:not|never|no|without|nor|neither|hardly|stop|stopped|avoid|quit)\b|n['’]t\b)[^,;:.!?]{0,40}$/i;

/** Whether every time the texts say the phrase, they say it under a negation. */
function saidOnlyNegated(phrase: string, texts: readonly string[]): boolean {
  const pattern = new RegExp(
    `(?<![\\p{L}])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}(?![\\p{L}])`,
    'giu',
  );
  let said = 0;
  let negated = 0;
  for (const text of texts)
    for (const match of text.matchAll(pattern)) {
      said++;
      if (NEGATED_BEFORE.test(text.slice(0, match.index))) negated++;
    }
  return said > 0 && negated === said;
}

function weightedMean(vectors: readonly Vector[], weights: readonly number[]): Vector {
  return meanVector(vectors.map((vector, i) => vector.map((value) => value * weights[i]!)));
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

async function extractive(
  sentences: readonly Sentence[],
  vectors: readonly Vector[],
  starts: number[],
  embedder: SentenceEmbedder | null,
  highlights: readonly { startMs: number; endMs: number }[],
) {
  const groups = starts.map((start, k) =>
    Array.from({ length: (starts[k + 1] ?? sentences.length) - start }, (_, i) => start + i),
  );
  const { weights } = mainPointWeights(sentences, vectors);
  const spokenMinutes = (sentences.at(-1)!.endMs - sentences[0]!.startMs) / 60_000;
  const overviewCount = Math.max(
    3,
    Math.min(6, Math.round(spokenMinutes * OVERVIEW_SENTENCES_PER_MINUTE)),
  );
  const all = sentences.map((_, i) => i);
  const overviewIndices = salientSentences(all, weights, vectors, overviewCount);
  const titles = await chapterTitles(groups, sentences, embedder, vectors, weights);
  const chapters: SummaryChapter[] = groups.map((members, k) => ({
    startMs: sentences[members[0]!]!.startMs,
    endMs: sentences[members.at(-1)!]!.endMs,
    title: titles[k]!,
    summary: clean(
      salientSentences(members, weights, vectors, 2)
        .map((i) => sentences[i]!.text)
        .join(' '),
    ),
  }));
  // Key points: the overview's main points, the strongest sentence of each of the talk's best
  // moments (what a viewer would clip is what they remember), each chapter's most salient
  // sentence, then the most salient of the rest.
  const keyCount = Math.min(
    Math.max(MIN_KEY_POINTS, Math.min(MAX_KEY_POINTS, Math.round(spokenMinutes * 2))),
    // A short talk's key points are not most of what it says.
    Math.max(3, Math.round(sentences.length * KEY_POINTS_SHARE)),
  );
  // A key point never shows a word the engine was unsure of when a clean sentence can make it
  // about as well (CLEAN_ALTERNATIVE_SHARE of the best sentence's weight).
  const unsure = sentences.map((sentence) => sentence.words.some(isUnsureContentWord));
  const cleanOf = (pool: number[]) => {
    const clean = pool.filter((i) => !unsure[i] && weights[i]! > 0);
    const best = Math.max(0, ...pool.map((i) => weights[i]!));
    const bestClean = Math.max(0, ...clean.map((i) => weights[i]!));
    return clean.length && bestClean >= CLEAN_ALTERNATIVE_SHARE * best ? clean : pool;
  };
  const keyIndices = new Set(overviewIndices.filter((i) => !unsure[i]));
  // A line said twice (a quote the speaker comes back to) is one key point.
  const said = sentences.map((sentence) => contentTerms(sentence.text).join(' '));
  const repeats = (i: number) => [...keyIndices].some((k) => k !== i && said[k] === said[i]);
  for (const moment of highlights) {
    const inside = all.filter(
      (i) =>
        sentences[i]!.startMs >= moment.startMs &&
        sentences[i]!.endMs <= moment.endMs &&
        !repeats(i),
    );
    const [best] = salientSentences(cleanOf(inside), weights, vectors, 1);
    if (best !== undefined && keyIndices.size < keyCount) keyIndices.add(best);
  }
  for (const members of groups) {
    if (keyIndices.size >= keyCount) break;
    const [best] = salientSentences(
      cleanOf(members.filter((i) => !repeats(i))),
      weights,
      vectors,
      1,
    );
    if (best !== undefined) keyIndices.add(best);
  }
  const rest = cleanOf(all.filter((i) => !keyIndices.has(i) && !repeats(i)));
  for (const i of salientSentences(rest, weights, vectors, keyCount - keyIndices.size))
    keyIndices.add(i);
  const keyPoints: SummaryKeyPoint[] = [...keyIndices]
    .sort((a, b) => a - b)
    .map((i) => ({
      text: clean(sentences[i]!.text),
      startMs: sentences[i]!.startMs,
      endMs: sentences[i]!.endMs,
    }));
  const overview = clean(overviewIndices.map((i) => sentences[i]!.text).join(' '));
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
  const vectors = await sentenceVectors(transcript, sentences, embedder, options.signal);
  options.signal?.throwIfAborted();
  const starts = topicStarts(sentences, vectors, CHAPTER_TUNING);
  const { moments: highlights } = await findViralMoments(transcript, {
    embedder,
    maxMoments: TOP_MOMENTS_IN_KEY_POINTS,
    signal: options.signal,
  });
  const result = await extractive(sentences, vectors, starts, embedder, highlights);
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
