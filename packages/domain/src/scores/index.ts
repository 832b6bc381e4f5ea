/**
 * The bands of a moment's 0-100 score, as the moments page states them and the clip judge is
 * calibrated to: from `high` a strong clip on its own, from `medium` worth a look, below ordinary talk.
 */
export const SCORE_BANDS = { high: 70, medium: 40 } as const;

export type ScoreTier = 'high' | 'medium' | 'low';

/** The band a score falls in: what a user reads at a glance from its colour. */
export function scoreTier(score: number): ScoreTier {
  if (score >= SCORE_BANDS.high) return 'high';
  if (score >= SCORE_BANDS.medium) return 'medium';
  return 'low';
}
