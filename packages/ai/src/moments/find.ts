import type { LlmClient } from '../llm/index.ts';
import { judgeWithLlm } from './judge.ts';
import { buildScoringContext, lengthPreference, scoreSpan, type ScoringContext, type SpanScore } from './scoring.ts';
import { sentenceAt, splitSentences } from './sentences.ts';
import { extractiveDescription, extractiveTitle, hashtagsFor } from './titles.ts';
import type { Moment, Transcript } from './types.ts';

export interface FindViralMomentsOptions {
  minMs?: number;
  maxMs?: number;
  /** At most this many moments; default grows with the video's length (about one per 2 minutes, 3..30). */
  maxMoments?: number;
  /** An audience or persona ("a startup founder") whose interests steer the choice. */
  actAs?: string;
  /** When given, judges and titles the top candidates; any failure falls back to the deterministic result. */
  llm?: LlmClient;
  llmTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface FindViralMomentsResult {
  moments: Moment[];
  method: 'deterministic' | 'llm';
  warnings: string[];
}

export interface SpanCandidate {
  first: number;
  last: number;
  startMs: number;
  endMs: number;
  rank: number;
  scored: SpanScore;
}

const DEFAULT_MIN_MS = 15_000;
const DEFAULT_MAX_MS = 90_000;
/** Below this a candidate is ordinary talk, not a moment worth a clip. */
const MIN_SCORE = 12;
/** A video shorter than minMs still yields a moment if it holds a complete thought at least this long. */
const SHORT_VIDEO_FLOOR_MS = 5_000;

export function momentFromSpan(context: ScoringContext, first: number, last: number, scored: SpanScore): Moment {
  const spanSentences = context.sentences.slice(first, last + 1);
  const startMs = spanSentences[0]?.startMs ?? 0;
  const endMs = spanSentences[spanSentences.length - 1]?.endMs ?? startMs;
  return {
    startMs,
    endMs,
    score: scored.score,
    reasons: scored.reasons,
    title: extractiveTitle(context, spanSentences),
    description: extractiveDescription(spanSentences),
    hashtags: hashtagsFor(spanSentences, scored.salientTerms),
    text: spanSentences.map((sentence) => sentence.text).join(' '),
  };
}

/** All sentence-aligned spans whose length is within [minMs, maxMs], each scored. */
function scoreCandidates(context: ScoringContext, minMs: number, maxMs: number, signal?: AbortSignal): SpanCandidate[] {
  const { sentences } = context;
  const candidates: SpanCandidate[] = [];
  for (let first = 0; first < sentences.length; first++) {
    if (first % 64 === 0) signal?.throwIfAborted();
    const startMs = sentences[first]?.startMs ?? 0;
    for (let last = first; last < sentences.length; last++) {
      const endMs = sentences[last]?.endMs ?? startMs;
      const durationMs = endMs - startMs;
      if (durationMs > maxMs) break;
      if (durationMs < minMs) continue;
      // A clip ends on a finished sentence unless the speech engine gave no punctuation at all.
      if (!sentences[last]?.terminal && sentences.some((sentence) => sentence.terminal)) continue;
      const scored = scoreSpan(context, first, last);
      candidates.push({ first, last, startMs, endMs, rank: scored.raw * lengthPreference(durationMs), scored });
    }
  }
  return candidates;
}

/** Best-first selection of spans that do not overlap. */
export function selectNonOverlapping(candidates: SpanCandidate[], limit: number): SpanCandidate[] {
  const chosen: SpanCandidate[] = [];
  for (const candidate of [...candidates].sort((a, b) => b.rank - a.rank)) {
    if (chosen.length >= limit) break;
    if (chosen.some((other) => candidate.first <= other.last && other.first <= candidate.last)) continue;
    chosen.push(candidate);
  }
  return chosen;
}

function defaultMaxMoments(durationMs: number): number {
  return Math.max(3, Math.min(30, Math.round(durationMs / 120_000)));
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
  if (!(minMs > 0 && maxMs >= minMs)) throw new RangeError(`invalid moment length range ${minMs}..${maxMs} ms`);
  const warnings: string[] = [];
  const sentences = splitSentences(transcript);
  if (sentences.length === 0) {
    return { moments: [], method: 'deterministic', warnings: ['The transcript has no words: no moments to find.'] };
  }
  const context = buildScoringContext(sentences, options.actAs);
  let candidates = scoreCandidates(context, minMs, maxMs, options.signal);
  const spokenMs = (sentences[sentences.length - 1]?.endMs ?? 0) - (sentences[0]?.startMs ?? 0);
  if (candidates.length === 0 && spokenMs < minMs) {
    // A short video: only a complete thought (finished sentences, a real score) counts, never "whatever there is".
    const floorMs = Math.min(minMs, SHORT_VIDEO_FLOOR_MS);
    candidates = scoreCandidates(context, floorMs, maxMs, options.signal).filter(
      (candidate) => context.sentences[candidate.last]?.terminal,
    );
    warnings.push(
      `The speech lasts ${Math.round(spokenMs / 1000)} s, less than the ${Math.round(minMs / 1000)} s minimum: ` +
        (candidates.length ? 'moments shorter than the minimum were considered.' : 'no complete thought long enough was found.'),
    );
  } else if (candidates.length === 0) {
    warnings.push('No span of whole sentences fits the requested length range.');
  }
  const strong = candidates.filter((candidate) => candidate.scored.score >= MIN_SCORE);
  if (candidates.length > 0 && strong.length === 0) warnings.push('No span scored high enough to be a moment.');
  const limit = options.maxMoments ?? defaultMaxMoments(transcript.durationMs || spokenMs);
  const chosen = selectNonOverlapping(strong, limit);
  const deterministic = chosen.map((candidate) => momentFromSpan(context, candidate.first, candidate.last, candidate.scored));

  if (options.llm && chosen.length > 0) {
    // The LLM judges a wider pool than will be shown, so it can promote a candidate the rules underrated.
    const pool = selectNonOverlapping(strong, Math.min(Math.max(limit * 2, 6), 24));
    const judged = await judgeWithLlm(options.llm, context, pool, {
      limit,
      actAs: context.persona,
      signal: options.signal,
      timeoutMs: options.llmTimeoutMs,
    });
    if (judged.ok) return { moments: judged.moments, method: 'llm', warnings: [...warnings, ...judged.warnings] };
    options.signal?.throwIfAborted();
    warnings.push(`LLM judging failed (${judged.error}); moments were scored deterministically instead.`);
  }
  return { moments: deterministic, method: 'deterministic', warnings };
}

/**
 * Re-scores one moment's span for the "refresh" call (PUT /api/highlight_moment/refresh), snapping the
 * start and end outward... to whole sentences: the sentence holding startMs through the one holding endMs.
 */
export function rescoreSpan(transcript: Transcript, startMs: number, endMs: number, actAs?: string): Moment {
  if (!(endMs > startMs)) throw new RangeError(`empty span ${startMs}..${endMs} ms`);
  const sentences = splitSentences(transcript);
  if (sentences.length === 0) throw new RangeError('the transcript has no words');
  const context = buildScoringContext(sentences, actAs);
  const first = sentenceAt(sentences, startMs, 'start');
  const last = Math.max(first, sentenceAt(sentences, endMs, 'end'));
  return momentFromSpan(context, first, last, scoreSpan(context, first, last));
}
