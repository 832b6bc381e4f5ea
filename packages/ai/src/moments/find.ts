import type { LlmClient } from '../llm/index';
import type { SentenceEmbedder } from '../search/embeddings';
import { judgeSpans, sentenceCues, transcriptCues } from './clip-judge';
import { loadDefaultEmbedder } from '../search/embeddings';
import {
  meanVector,
  sentenceVectors,
  topicOfSentence,
  topicStarts,
  type Vector,
} from '../topics/index';
import { judgeWithLlm } from './judge';
import {
  momentFromSpan,
  scoreCandidates,
  selectNonOverlapping,
  type SpanCandidate,
} from './candidates';
import { buildScoringContext, rankedScore, scoreSpan, type ScoringContext } from './scoring';
import { sentenceAt, splitSentences } from './sentences';
import { keyphraseHashtags } from './titles';
import type { Moment, Transcript } from './types';

export interface FindViralMomentsOptions {
  minMs?: number;
  maxMs?: number;
  /** At most this many moments; default grows with the video's length (about 8 per 10 minutes, 5..30). */
  maxMoments?: number;
  /** An audience or persona ("a startup founder") whose interests steer the choice. */
  actAs?: string;
  /** When given, judges and titles the top candidates; any failure falls back to the deterministic result. */
  llm?: LlmClient;
  llmTimeoutMs?: number;
  /**
   * Sentence embeddings for topic shifts (a moment never runs across one) and hashtags; default the
   * installed MiniLM model, `null` words only.
   */
  embedder?: SentenceEmbedder | null;
  signal?: AbortSignal;
}

export interface FindViralMomentsResult {
  moments: Moment[];
  method: 'deterministic' | 'llm';
  warnings: string[];
}

const DEFAULT_MIN_MS = 15_000;
const DEFAULT_MAX_MS = 90_000;
/** Below this a candidate is ordinary talk, not a moment worth a clip. */
const MIN_SCORE = 12;
/**
 * The first VARIED_MOMENTS moments come from different topics where the talk has them: a top 3 cut
 * from one stretch of talk hides the rest of it. Among them, a candidate on a topic already covered
 * competes with this share of its rank (bench dev+dev2: recall@3 0.51 -> 0.58, filler in a top 3
 * 4 -> 3, recall@5 unchanged; 0.5 and 0.6 gave the same, 0.85 gave 0.54).
 */
const VARIED_MOMENTS = 3;
const REPEATED_TOPIC_SHARE = 0.7;
/** A video shorter than minMs still yields a moment if it holds a complete thought at least this long. */
const SHORT_VIDEO_FLOOR_MS = 5_000;

function defaultMaxMoments(durationMs: number): number {
  // Users expect 5 to 10 ranked moments per 10 minutes, and at least 5 on a short talk.
  return Math.max(5, Math.min(30, Math.round(durationMs / 75_000)));
}

/**
 * Finds the moments of a video most worth clipping (moment list type `video_snippet`): spans of whole
 * sentences, ranked by a virality score with the reasons behind it. Works with no LLM at all.
 */
export async function findViralMoments(
  transcript: Transcript,
  options: FindViralMomentsOptions = {},
): Promise<FindViralMomentsResult> {
  const minMs = options.minMs ?? DEFAULT_MIN_MS;
  const maxMs = options.maxMs ?? DEFAULT_MAX_MS;
  if (!(minMs > 0 && maxMs >= minMs))
    throw new RangeError(`invalid moment length range ${minMs}..${maxMs} ms`);
  const warnings: string[] = [];
  const sentences = splitSentences(transcript);
  if (sentences.length === 0) {
    return {
      moments: [],
      method: 'deterministic',
      warnings: ['The transcript has no words: no moments to find.'],
    };
  }
  const context = buildScoringContext(sentences, options.actAs);
  const { embedder, vectors, topicOf } = await withTopics(transcript, context, options);
  const oneTopic = (candidate: { first: number; last: number }) =>
    topicOf[candidate.first] === topicOf[candidate.last];
  let candidates = scoreCandidates(context, minMs, maxMs, options.signal).filter(oneTopic);
  const spokenMs = (sentences[sentences.length - 1]?.endMs ?? 0) - (sentences[0]?.startMs ?? 0);
  if (candidates.length === 0 && spokenMs < minMs) {
    // A short video: only a complete thought (finished sentences, a real score) counts, never "whatever there is".
    const floorMs = Math.min(minMs, SHORT_VIDEO_FLOOR_MS);
    candidates = scoreCandidates(context, floorMs, maxMs, options.signal).filter(
      (candidate) => context.sentences[candidate.last]?.terminal && oneTopic(candidate),
    );
    warnings.push(
      `The speech lasts ${Math.round(spokenMs / 1000)} s, less than the ${Math.round(minMs / 1000)} s minimum: ` +
        (candidates.length
          ? 'moments shorter than the minimum were considered.'
          : 'no complete thought long enough was found.'),
    );
  } else if (candidates.length === 0) {
    warnings.push('No span of whole sentences fits the requested length range.');
  }
  if (candidates.length > 0) {
    const cues = await transcriptCues(context);
    candidates = judgeSpans(context, candidates, cues).map((judged) => ({
      ...judged,
      scored: { ...judged.scored, score: judged.judgeScore, reasons: judged.judgeReasons },
    }));
  }
  const strong = candidates.filter((candidate) => candidate.scored.score >= MIN_SCORE);
  if (candidates.length > 0 && strong.length === 0)
    warnings.push('No span scored high enough to be a moment.');
  const limit = options.maxMoments ?? defaultMaxMoments(transcript.durationMs || spokenMs);
  const chosen = selectAcrossTopics(strong, limit, topicOf);
  const deterministic = await withKeyphraseHashtags(
    chosen.map((candidate) => ({
      candidate,
      moment: momentFromSpan(context, candidate.first, candidate.last, candidate.scored),
    })),
    { context, vectors, embedder },
  );

  if (options.llm && chosen.length > 0) {
    // The LLM judges a wider pool than will be shown, so it can promote a candidate the rules underrated.
    const pool = selectNonOverlapping(strong, Math.min(Math.max(limit * 2, 6), 24));
    const judged = await judgeWithLlm(options.llm, context, pool, {
      limit,
      actAs: context.persona,
      signal: options.signal,
      timeoutMs: options.llmTimeoutMs,
    });
    if (judged.ok) {
      // Per-candidate fallback: places the LLM left empty (it judged fewer than asked, or named
      // ids it was never given) go to the best remaining candidates by the offline judge.
      const moments = [...judged.moments];
      const taken = new Set(moments.map((moment) => `${moment.startMs}-${moment.endMs}`));
      let filled = 0;
      for (const candidate of pool) {
        if (moments.length >= limit) break;
        const moment = momentFromSpan(context, candidate.first, candidate.last, candidate.scored);
        if (taken.has(`${moment.startMs}-${moment.endMs}`)) continue;
        moments.push(moment);
        filled++;
      }
      if (filled > 0)
        warnings.push(
          `The LLM judged ${judged.moments.length} of ${limit} moments; ${filled} more were scored deterministically.`,
        );
      moments.sort((a, b) => b.score - a.score);
      return { moments, method: 'llm', warnings: [...warnings, ...judged.warnings] };
    }
    options.signal?.throwIfAborted();
    warnings.push(
      `LLM judging failed (${judged.error}); moments were scored deterministically instead.`,
    );
  }
  return { moments: deterministic, method: 'deterministic', warnings };
}

/**
 * The sentences' meaning and topics, written into the scoring context: a change of topic is where
 * a thought ends (and a clip never runs on into the next topic).
 */
async function withTopics(
  transcript: Transcript,
  context: ScoringContext,
  options: { embedder?: SentenceEmbedder | null; signal?: AbortSignal },
): Promise<{ embedder: SentenceEmbedder | null; vectors: Vector[]; topicOf: number[] }> {
  let embedder = options.embedder;
  if (embedder === undefined) embedder = (await loadDefaultEmbedder()).embedder ?? null;
  const { sentences } = context;
  const vectors = await sentenceVectors(transcript, sentences, embedder, options.signal);
  context.vectors = vectors;
  const topicOf = topicOfSentence(sentences.length, topicStarts(sentences, vectors));
  topicOf.forEach((topic, k) => {
    if (topicOf[k + 1] !== undefined && topicOf[k + 1] !== topic) context.breakAfter[k] = 1;
  });
  return { embedder, vectors, topicOf };
}

/** The chosen moments with hashtags from their keyphrases (the rest of the talk as contrast). */
async function withKeyphraseHashtags(
  chosen: { candidate: SpanCandidate; moment: Moment }[],
  topics: {
    context: ScoringContext;
    vectors: readonly Vector[];
    embedder: SentenceEmbedder | null;
  },
): Promise<Moment[]> {
  const { context, vectors, embedder } = topics;
  const moments: Moment[] = [];
  for (const { candidate, moment } of chosen) {
    const members = context.sentences.slice(candidate.first, candidate.last + 1);
    const elsewhere = context.sentences
      .filter((sentence) => sentence.index < candidate.first || sentence.index > candidate.last)
      .map((sentence) => sentence.text);
    const hashtags = await keyphraseHashtags(members, {
      embedder,
      centre: embedder
        ? meanVector(members.map((sentence) => vectors[sentence.index]!))
        : undefined,
      elsewhere,
    });
    moments.push({ ...moment, hashtags: hashtags.length ? hashtags : moment.hashtags });
  }
  return moments;
}

/**
 * Re-scores one moment's span for the "refresh" call (spec: PUT /api/highlight_moment/refresh), snapped to
 * whole sentences: from the sentence holding startMs through the one holding endMs.
 */
export async function rescoreSpan(
  transcript: Transcript,
  startMs: number,
  endMs: number,
  options: { actAs?: string; embedder?: SentenceEmbedder | null } = {},
): Promise<Moment> {
  if (!(endMs > startMs)) throw new RangeError(`empty span ${startMs}..${endMs} ms`);
  const sentences = splitSentences(transcript);
  if (sentences.length === 0) throw new RangeError('the transcript has no words');
  const context = buildScoringContext(sentences, options.actAs);
  // The same topics as the finder saw, so a refreshed moment keeps its score.
  await withTopics(transcript, context, options);
  const first = sentenceAt(sentences, startMs, 'start');
  const last = Math.max(first, sentenceAt(sentences, endMs, 'end'));
  const spanStartMs = sentences[first]?.startMs ?? 0;
  const spanEndMs = sentences[last]?.endMs ?? 0;
  const scored = rankedScore(scoreSpan(context, first, last), spanEndMs - spanStartMs);
  // Scored by the same judge as findViralMoments' default, so a refreshed moment keeps its score.
  const cues = context.sentences.map((sentence) => sentenceCues(sentence.text));
  const [judged] = judgeSpans(
    context,
    [{ first, last, startMs: spanStartMs, endMs: spanEndMs, rank: scored.raw, scored }],
    cues,
  );
  return momentFromSpan(context, first, last, {
    ...scored,
    score: judged!.judgeScore,
    reasons: judged!.judgeReasons,
  });
}

/**
 * Best-first selection of spans that do not overlap, where the first VARIED_MOMENTS picks prefer a
 * topic not yet covered: a span on a covered topic competes with REPEATED_TOPIC_SHARE of its rank.
 * A moment passed over this way shows a score no higher than the one ranked above it, and says why,
 * so the scores a user sees stay in rank order.
 */
export function selectAcrossTopics(
  candidates: readonly SpanCandidate[],
  limit: number,
  topicOf: readonly number[],
): SpanCandidate[] {
  const chosen: SpanCandidate[] = [];
  const covered = new Set<number>();
  let pool = [...candidates].sort((a, b) => b.rank - a.rank);
  while (chosen.length < limit && pool.length > 0) {
    const varied = chosen.length < VARIED_MOMENTS;
    const merit = (candidate: SpanCandidate) =>
      varied && covered.has(topicOf[candidate.first] ?? -1)
        ? candidate.rank * REPEATED_TOPIC_SHARE
        : candidate.rank;
    const best = pool.reduce((a, b) => (merit(b) > merit(a) ? b : a));
    const above = chosen.at(-1)?.scored.score ?? Infinity;
    chosen.push(
      best.scored.score > above
        ? {
            ...best,
            rank: Math.min(best.rank, chosen.at(-1)!.rank),
            scored: {
              ...best.scored,
              score: above,
              reasons: [
                ...best.scored.reasons,
                {
                  kind: 'penalty',
                  detail: 'A moment on another topic ranks above it, for variety',
                  weight: above - best.scored.score,
                },
              ],
            },
          }
        : best,
    );
    covered.add(topicOf[best.first] ?? -1);
    pool = pool.filter((other) => other.last < best.first || best.last < other.first);
  }
  return chosen;
}
