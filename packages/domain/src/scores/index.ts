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

/**
 * One line of a moment's breakdown: why it scored, and the points that reason adds to the score
 * (negative: what a penalty takes away). A question's answer has one line, its relevance.
 */
export interface ScorePart {
  kind: string;
  detail: string;
  weight: number;
}

/** What a reader sees: each reason once, whole points that add up to the score exactly. */
export interface ScoreBreakdown {
  score: number;
  parts: ScorePart[];
}

const clampScore = (value: number) => Math.max(0, Math.min(100, value));

/** Whole numbers near `values` (which add up to `total`) that add up to it exactly. */
function apportion(values: readonly number[], total: number): number[] {
  const floors = values.map(Math.floor);
  let rest = total - floors.reduce((a, b) => a + b, 0);
  // The largest remainders get the points the floors left over.
  const order = values
    .map((value, i) => ({ i, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (let k = 0; rest > 0 && order.length > 0; k = (k + 1) % order.length, rest--)
    floors[order[k]!.i]! += 1;
  return floors;
}

/**
 * A moment's score from the reasons it shows: reasons of one kind and direction merged into one
 * line, the total kept within 0..100, each line rounded to whole points so that the lines add up
 * to the score. With `score` (a stored score, or one set by a judge outside these rules), the
 * lines that add are scaled to it instead. Used where moments are made and where they are shown,
 * so the number on a card is always the sum of the points listed under it.
 */
export function scoreBreakdown(reasons: readonly ScorePart[], score?: number): ScoreBreakdown {
  const merged: ScorePart[] = [];
  for (const reason of reasons) {
    if (!Number.isFinite(reason.weight) || reason.weight === 0) continue;
    const adds = reason.weight > 0;
    const same = merged.find((part) => part.kind === reason.kind && part.weight > 0 === adds);
    if (!same) merged.push({ ...reason });
    else {
      same.weight += reason.weight;
      if (reason.detail && !same.detail.includes(reason.detail))
        same.detail = same.detail ? `${same.detail}; ${reason.detail}` : reason.detail;
    }
  }
  const gained = merged.reduce((sum, part) => sum + Math.max(0, part.weight), 0);
  const lost = merged.reduce((sum, part) => sum + Math.min(0, part.weight), 0);
  const total = Math.round(clampScore(score ?? gained + lost));
  // No line adds anything: the lines cannot make up the score, so none is shown.
  if (gained === 0 && total > 0) return { score: total, parts: [] };
  // Scale the side that misses: what adds, to reach the score over what takes away; or what
  // takes away, when it would take the score below 0.
  const scaleGains = score !== undefined || gained + lost > total;
  const factor = scaleGains ? (total - lost) / gained : lost < 0 ? (total - gained) / lost : 1;
  const scaled = merged.map((part) =>
    part.weight > 0 === scaleGains ? part.weight * factor : part.weight,
  );
  const points = apportion(scaled, total);
  const parts = merged
    .map((part, i) => ({ ...part, weight: points[i]! }))
    .filter((part) => part.weight !== 0)
    .sort((a, b) => b.weight - a.weight);
  return { score: total, parts };
}
