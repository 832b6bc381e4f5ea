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

/** Moment boundaries that fall exactly on a sentence's first word start and a sentence's last word end. */
export function boundaryProblems(
  moments: readonly Moment[],
  synthetic: SyntheticTranscript,
): string[] {
  const starts = new Set(synthetic.sentences.map((sentence) => sentence.startMs));
  const ends = new Set(synthetic.sentences.map((sentence) => sentence.endMs));
  const problems: string[] = [];
  for (const moment of moments) {
    if (!starts.has(moment.startMs))
      problems.push(`moment starts at ${moment.startMs}, not at a sentence start`);
    if (!ends.has(moment.endMs))
      problems.push(`moment ends at ${moment.endMs}, not at a sentence end`);
  }
  return problems;
}
