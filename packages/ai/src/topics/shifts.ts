/**
 * Where the talk moves to a new topic: one rule for the summary's chapters and for
 * moments, which never run across a shift into the next topic. TextTiling depth scores over the
 * sentences' MiniLM embeddings (the gaps where the meaning before and after differs most), with
 * the speaker's pause at the gap as a second voice: people pause longer between topics than
 * between the sentences of one; and a third, the words a speaker opens a new topic with ("Now,",
 * "Okay, let's talk about").
 */
import type { Sentence } from '../moments/sentences';
import type { Transcript } from '../moments/types';
import { cosine, type SentenceEmbedder } from '../search/embeddings';
import { contentTerms } from '../search/text';

export type Vector = Float32Array;

/** Sentences on each side of a gap whose meaning is compared (TextTiling's block size). */
const WINDOW = 2;
/**
 * How topics are cut, chosen on the dev sets (bench/dev2's 4-7 minute talks by a writer kept away
 * from the code): a shift is a candidate gap whose depth
 * stands `depthDeviations` standard deviations above this talk's own candidate gaps, so chapters
 * follow how strongly the talk changes topic rather than a count; a topic lasts at least
 * `minTopicMs` (a `minTopicShare` of a short talk), at most one per `msPerTopic` of speech.
 * On bench/dev2 (7 talks) this put 13 of 16 chapter starts on a marked shift, against 16 of 61
 * with one deviation over all gaps, 20 s topics and no cue phrases.
 */
export const TUNING = {
  minTopicMs: 45_000,
  minTopicShare: 1 / 5,
  msPerTopic: 20_000,
  maxTopics: 12,
  depthDeviations: 1,
  /**
   * A talk gets at least one topic per this much speech where its gaps allow (the deepest gaps
   * below the deviation rule fill up to it); 0: the deviation rule alone, as moments use it
   * (`CHAPTER_TUNING` for the summary's chapters).
   */
  msPerTopicAtLeast: 0,
  /** What a sentence opening with a topic-shift cue ("Now,", "Okay, let's talk about") adds to the gap's depth. */
  cueWeight: 0.6,
};

/**
 * The summary's chapters: at least one per 45 s of speech where the talk's gaps allow. On bench/dev
 * and dev2 (106 marked topics in 26 talks) the deviation rule alone made 62 chapters; with 45 s,
 * 96, and the marked shifts found rose from 24 to 32 of 80 (60 s: 91 and 30; 90 s: 73 and 26).
 * Moments keep the deviation rule alone: cut at every one of these gaps, clips lost highlights
 * (dev+dev2 recall@3 44 to 39 of 76).
 */
export const CHAPTER_TUNING: Partial<typeof TUNING> = { msPerTopicAtLeast: 45_000 };

/**
 * Words with which speakers open a new topic (the cue phrases of discourse segmentation, e.g.
 * Hirschberg & Litman 1993; Passonneau & Litman 1997): "Now,", "Okay,", "Right.", "Next",
 * "Finally", "Let's talk about", "Moving on", "Another thing", ordinals ("Third, ...").
 */
const SHIFT_CUE =
  /^(?:(?:so|and|but|well),? )?(?:now\b|ok(?:ay)?\b|all ?right\b|alright\b|right[.,!]|anyway\b|next\b|finally\b|last(?:ly)?\b|moving on\b|let'?s (?:talk|turn|move|look|get|go)\b|another\b|(?:the )?(?:first|second|third|fourth|fifth) (?:thing|step|mechanism|point|reason|tip|rule|lesson|mistake|question)\b|(?:second|third|fourth|fifth)(?:ly)?,|what about\b|how about\b|on to\b|turning to\b)/i;

/** 1 when the sentence opens with a topic-shift cue, 0 otherwise. */
export function shiftCue(text: string): number {
  return SHIFT_CUE.test(text.trim().replace(/^[^\p{L}]+/u, '')) ? 1 : 0;
}
/** How much a pause twice the talk's usual one adds to a gap's depth (depths run about 0..0.6). */
const PAUSE_WEIGHT = 0.1;
/** A gap 1.5 times the talk's usual pause between sentences (strength 0.5) reads as a paragraph break. */
const PARAGRAPH_PAUSE = 0.5;

/** The normalised mean of vectors: the centre of their meaning. */
export function meanVector(vectors: readonly Vector[]): Vector {
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
export function lexicalVectors(texts: readonly string[]): Vector[] {
  const vocabulary = new Map<string, number>();
  const termLists = texts.map((text) => contentTerms(text));
  for (const terms of termLists)
    for (const term of terms) if (!vocabulary.has(term)) vocabulary.set(term, vocabulary.size);
  return termLists.map((terms) => {
    const vector = new Float32Array(Math.max(1, vocabulary.size));
    for (const term of terms) vector[vocabulary.get(term)!]! += 1;
    return meanVector([vector]);
  });
}

const vectorCache = new WeakMap<Transcript, { key: string; vectors: Promise<Vector[]> }>();

/**
 * Each embedder's vectors of sentences it embedded lately, by text: a transcript that grows chunk
 * by chunk (an hour is 20 growths, each ranked for the task page) embeds only its new sentences,
 * not the whole talk again each time. Bounded: 20,000 sentences of 384 floats are about 30 MB.
 */
const SENTENCE_CACHE_SIZE = 20_000;
const sentenceCache = new WeakMap<SentenceEmbedder, Map<string, Vector>>();

/**
 * One vector per sentence: MiniLM embeddings when an embedder is given, bag-of-stems otherwise.
 * Kept per transcript, so the moments and the summary of one task embed its sentences once.
 */
export function sentenceVectors(
  transcript: Transcript,
  sentences: readonly Sentence[],
  embedder: SentenceEmbedder | null,
  signal?: AbortSignal,
): Promise<Vector[]> {
  const texts = sentences.map((sentence) => sentence.text);
  const key = `${embedder?.modelId ?? 'lexical'}:${texts.length}:${texts[0] ?? ''}:${texts.at(-1) ?? ''}`;
  const cached = vectorCache.get(transcript);
  if (cached?.key === key) return cached.vectors;
  const vectors = embedder
    ? embedRemembered(embedder, texts, signal)
    : Promise.resolve(lexicalVectors(texts));
  vectors.catch(() => vectorCache.delete(transcript));
  vectorCache.set(transcript, { key, vectors });
  return vectors;
}

/** `texts` embedded, only those the embedder has not embedded lately going through the model. */
export async function embedRemembered(
  embedder: SentenceEmbedder,
  texts: readonly string[],
  signal?: AbortSignal,
): Promise<Vector[]> {
  let known = sentenceCache.get(embedder);
  if (!known) sentenceCache.set(embedder, (known = new Map()));
  // Taken before the wait: another call may push some of them out meanwhile.
  const found = new Map<string, Vector>();
  for (const text of texts) {
    const vector = known.get(text);
    if (vector) found.set(text, vector);
  }
  const missing = [...new Set(texts.filter((text) => !found.has(text)))];
  const embedded = missing.length ? await embedder.embed(missing, { signal }) : [];
  missing.forEach((text, index) => found.set(text, embedded[index]!));
  const vectors = texts.map((text) => found.get(text)!);
  // Least recently used out first: a text used again moves to the end.
  for (const [index, text] of texts.entries()) {
    known.delete(text);
    known.set(text, vectors[index]!);
  }
  for (const oldest of known.keys()) {
    if (known.size <= SENTENCE_CACHE_SIZE) break;
    known.delete(oldest);
  }
  return vectors;
}

/**
 * Depth of each gap (between sentence i and i+1): how far the similarity across it dips below the
 * peaks on either side. The similarity across a gap mixes two blocks of WINDOW sentences with the
 * two sentences that meet there, so a shift is placed at the sentence where it happens.
 */
function gapDepths(vectors: readonly Vector[]): number[] {
  const n = vectors.length;
  const similarity: number[] = [];
  for (let gap = 1; gap < n; gap++) {
    const left = meanVector(vectors.slice(Math.max(0, gap - WINDOW), gap));
    const right = meanVector(vectors.slice(gap, Math.min(n, gap + WINDOW)));
    similarity.push(0.5 * cosine(left, right) + 0.5 * cosine(vectors[gap - 1]!, vectors[gap]!));
  }
  return depthsOf(similarity);
}

/** TextTiling's depth: how far each point of a similarity curve dips below its peaks on either side. */
function depthsOf(similarity: readonly number[]): number[] {
  return similarity.map((value, i) => {
    let leftPeak = value;
    for (let j = i; j >= 0 && similarity[j]! >= leftPeak - 1e-9; j--) leftPeak = similarity[j]!;
    let rightPeak = value;
    for (let j = i; j < similarity.length && similarity[j]! >= rightPeak - 1e-9; j++)
      rightPeak = similarity[j]!;
    return leftPeak - value + (rightPeak - value);
  });
}

/** 0..1 per gap: the pause there against the talk's usual pause between sentences. */
function pauseStrengths(sentences: readonly Sentence[]): number[] {
  const gaps = sentences
    .slice(1)
    .map((sentence, k) => Math.max(0, sentence.startMs - sentences[k]!.endMs));
  const median = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 500;
  return gaps.map((gap) => Math.max(0, Math.min(1, gap / Math.max(200, median) - 1)));
}

/**
 * Indices of the sentences that open a new topic (the first is always 0). Gaps are taken deepest
 * first while every topic stays at least TUNING.minTopicMs long (a fifth of a short talk).
 */
export function topicStarts(
  sentences: readonly Sentence[],
  vectors: readonly Vector[],
  tuning: Partial<typeof TUNING> = {},
): number[] {
  const t = { ...TUNING, ...tuning };
  const n = sentences.length;
  if (n < 2) return [0];
  const spokenMs = sentences[n - 1]!.endMs - sentences[0]!.startMs;
  const minTopicMs = Math.min(t.minTopicMs, spokenMs * t.minTopicShare);
  const maxTopics = Math.min(t.maxTopics, Math.max(1, Math.round(spokenMs / t.msPerTopic)));
  const pauses = pauseStrengths(sentences);
  const cues = sentences.map((sentence) => shiftCue(sentence.text));
  const depths = gapDepths(vectors).map((value, i) => value + PAUSE_WEIGHT * (pauses[i] ?? 0));
  // When the speaker's pauses show paragraphs, a topic changes at one of them: a dip in meaning
  // a sentence away from a paragraph break is that break's.
  const breaks = pauses.flatMap((pause, i) => (pause >= PARAGRAPH_PAUSE ? [i] : []));
  // Paragraphs show when some gaps, but not most, are clearly longer than the rest; at least
  // three, since over two candidates "a deviation above their mean" is the larger one itself and
  // no shift could ever stand out (a 50 s talk with three topics got one chapter).
  const atBreaks = breaks.length >= 3 && breaks.length <= depths.length / 2;
  const gaps = atBreaks ? breaks : depths.map((_, i) => i);
  const valued = gaps.map((i) => ({
    sentence: i + 1,
    value:
      (atBreaks
        ? Math.max(...depths.slice(Math.max(0, i - 1), i + 2)) + PAUSE_WEIGHT * (pauses[i] ?? 0)
        : depths[i]!) +
      t.cueWeight * (cues[i + 1] ?? 0),
  }));
  // A shift stands clearly out of this talk's own candidate gaps.
  const pool = valued.map((gap) => gap.value);
  const average = pool.reduce((sum, value) => sum + value, 0) / pool.length;
  const spread = Math.sqrt(
    pool.reduce((sum, value) => sum + (value - average) ** 2, 0) / pool.length,
  );
  const threshold = average + t.depthDeviations * spread;
  const byDepth = valued.filter((gap) => gap.value > 0.05).sort((a, b) => b.value - a.value);
  const chosen: number[] = [];
  const take = (candidate: { sentence: number }) => {
    if (chosen.includes(candidate.sentence)) return;
    const starts = [0, ...chosen, candidate.sentence].sort((a, b) => a - b);
    const long = starts.every((start, k) => {
      const end = k + 1 < starts.length ? starts[k + 1]! - 1 : n - 1;
      return sentences[end]!.endMs - sentences[start]!.startMs >= minTopicMs;
    });
    if (long) chosen.push(candidate.sentence);
  };
  for (const candidate of byDepth) {
    if (chosen.length >= maxTopics - 1 || candidate.value <= threshold) break;
    take(candidate);
  }
  // A long talk that changes topic gently still gets its chapters: the deepest of the remaining
  // gaps, up to one topic per msPerTopicAtLeast of speech.
  const atLeast = t.msPerTopicAtLeast > 0 ? Math.floor(spokenMs / t.msPerTopicAtLeast) : 0;
  for (const candidate of byDepth) {
    if (chosen.length + 1 >= Math.min(maxTopics, atLeast)) break;
    take(candidate);
  }
  return [0, ...chosen.sort((a, b) => a - b)];
}

/** For each sentence, the index of its topic (0, 1, ...), from the topic starts. */
export function topicOfSentence(sentenceCount: number, starts: readonly number[]): number[] {
  const topics: number[] = [];
  let topic = 0;
  for (let i = 0; i < sentenceCount; i++) {
    while (topic + 1 < starts.length && starts[topic + 1]! <= i) topic++;
    topics.push(topic);
  }
  return topics;
}
