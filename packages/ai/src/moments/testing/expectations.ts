import { BREATH_AFTER_MS, BREATH_BEFORE_MS } from '../candidates';
import type { Moment } from '../types';
import type { SyntheticTranscript } from './synthetic-transcript';

/** A moment "is" a planted segment when it covers most of it and is mostly made of it. */
export function coversPlanted(
  moment: Pick<Moment, 'startMs' | 'endMs'>,
  planted: { startMs: number; endMs: number },
): boolean {
  const overlap = Math.min(moment.endMs, planted.endMs) - Math.max(moment.startMs, planted.startMs);
  return (
    overlap >= 0.6 * (planted.endMs - planted.startMs) &&
    overlap >= 0.5 * (moment.endMs - moment.startMs)
  );
}

/** 0-based rank of the first moment covering the planted segment, or -1. */
export function rankOfPlanted(
  moments: readonly Pick<Moment, 'startMs' | 'endMs'>[],
  planted: { startMs: number; endMs: number },
): number {
  return moments.findIndex((moment) => coversPlanted(moment, planted));
}

/**
 * An answer "is" in a planted passage when most of it (70%) lies inside the passage: it answers
 * from there and is not padded with the talk around it (the tightest span).
 */
export function answersFrom(
  moment: Pick<Moment, 'startMs' | 'endMs'>,
  planted: { startMs: number; endMs: number },
): boolean {
  const overlap = Math.min(moment.endMs, planted.endMs) - Math.max(moment.startMs, planted.startMs);
  return overlap >= 0.7 * (moment.endMs - moment.startMs);
}

/** 0-based rank of the first answer from the planted passage, or -1. */
export function rankOfAnswer(
  moments: readonly Pick<Moment, 'startMs' | 'endMs'>[],
  planted: { startMs: number; endMs: number },
): number {
  return moments.findIndex((moment) => answersFrom(moment, planted));
}

/**
 * Moment boundaries must sit in the breath before a sentence's first word (at most BREATH_BEFORE_MS
 * earlier, never inside the previous sentence) and after a sentence's last word.
 */
export function boundaryProblems(
  moments: readonly Moment[],
  synthetic: SyntheticTranscript,
): string[] {
  const { sentences } = synthetic;
  const problems: string[] = [];
  for (const moment of moments) {
    const startsOk = sentences.some(
      (sentence, k) =>
        moment.startMs <= sentence.startMs &&
        moment.startMs >= sentence.startMs - BREATH_BEFORE_MS &&
        moment.startMs >= (sentences[k - 1]?.endMs ?? 0),
    );
    const endsOk = sentences.some(
      (sentence, k) =>
        moment.endMs >= sentence.endMs &&
        moment.endMs <= sentence.endMs + BREATH_AFTER_MS &&
        moment.endMs <= (sentences[k + 1]?.startMs ?? Infinity),
    );
    if (!startsOk) problems.push(`moment starts at ${moment.startMs}, not just before a sentence`);
    if (!endsOk) problems.push(`moment ends at ${moment.endMs}, not just after a sentence`);
  }
  return problems;
}
