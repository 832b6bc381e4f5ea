import { scoreBreakdown } from '@moments/domain/scores';
import { rankedScore, scoreSpan, type ScoringContext, type SpanScore } from './scoring';
import { extractiveDescription, extractiveTitle, hashtagsFor } from './titles';
import type { Moment, MomentReason } from './types';

export interface SpanCandidate {
  first: number;
  last: number;
  startMs: number;
  endMs: number;
  rank: number;
  scored: SpanScore;
}

/** Silence kept before the first word and after the last, so a clip neither clips nor gasps. */
export const BREATH_BEFORE_MS = 250;
export const BREATH_AFTER_MS = 350;

/**
 * The clip's edges for sentences first..last: a short breath of audio before the first word and after
 * the last, taken only from the silence around them (never from the neighbouring sentences' words).
 */
function breathingRoom(
  context: Pick<ScoringContext, 'sentences'>,
  first: number,
  last: number,
): { startMs: number; endMs: number } {
  const { sentences } = context;
  const firstStart = sentences[first]?.startMs ?? 0;
  const lastEnd = sentences[last]?.endMs ?? firstStart;
  const previousEnd = sentences[first - 1]?.endMs ?? 0;
  const nextStart = sentences[last + 1]?.startMs;
  return {
    startMs: Math.max(previousEnd, firstStart - BREATH_BEFORE_MS, 0),
    // After the video's last sentence there may be no audio left to pad with: keep its end.
    endMs: nextStart === undefined ? lastEnd : Math.min(nextStart, lastEnd + BREATH_AFTER_MS),
  };
}

/** The score and its reasons as shown: each reason once, whole points adding up to the score. */
export function settledScore(
  score: number,
  reasons: readonly MomentReason[],
): { score: number; reasons: MomentReason[] } {
  const breakdown = scoreBreakdown(reasons, score);
  return { score: breakdown.score, reasons: breakdown.parts as MomentReason[] };
}

export function momentFromSpan(
  context: ScoringContext,
  first: number,
  last: number,
  scored: SpanScore,
): Moment {
  const spanSentences = context.sentences.slice(first, last + 1);
  const { startMs, endMs } = breathingRoom(context, first, last);
  return {
    startMs,
    endMs,
    // What the card shows: the reasons, each once, in points that add up to the score.
    ...settledScore(scored.score, scored.reasons),
    title: extractiveTitle(context, spanSentences),
    description: extractiveDescription(spanSentences),
    hashtags: hashtagsFor(spanSentences, scored.salientTerms),
    text: spanSentences.map((sentence) => sentence.text).join(' '),
  };
}

/** All sentence-aligned spans whose length is within [minMs, maxMs], each scored. */
export function scoreCandidates(
  context: ScoringContext,
  minMs: number,
  maxMs: number,
  signal?: AbortSignal,
): SpanCandidate[] {
  const { sentences } = context;
  const candidates: SpanCandidate[] = [];
  const hasPunctuation = sentences.some((sentence) => sentence.terminal);
  for (let first = 0; first < sentences.length; first++) {
    if (first % 64 === 0) signal?.throwIfAborted();
    const startMs = sentences[first]?.startMs ?? 0;
    for (let last = first; last < sentences.length; last++) {
      const endMs = sentences[last]?.endMs ?? startMs;
      const durationMs = endMs - startMs;
      // The clip keeps a breath on each side and must still fit the longest length asked for.
      if (durationMs + BREATH_BEFORE_MS + BREATH_AFTER_MS > maxMs) break;
      if (durationMs < minMs) continue;
      // A clip ends on a finished sentence unless the speech engine gave no punctuation at all.
      if (hasPunctuation && !sentences[last]?.terminal) continue;
      const scored = rankedScore(scoreSpan(context, first, last), durationMs);
      candidates.push({ first, last, startMs, endMs, rank: scored.raw, scored });
    }
  }
  return candidates;
}

/** Best-first selection of spans that do not overlap. */
export function selectNonOverlapping(candidates: SpanCandidate[], limit: number): SpanCandidate[] {
  const chosen: SpanCandidate[] = [];
  for (const candidate of [...candidates].sort((a, b) => b.rank - a.rank)) {
    if (chosen.length >= limit) break;
    if (chosen.some((other) => candidate.first <= other.last && other.first <= candidate.last))
      continue;
    chosen.push(candidate);
  }
  return chosen;
}
