/**
 * Maximal marginal relevance (Carbonell and Goldstein, 1998): picks items one at a time, each the
 * most relevant once its likeness to those already picked is taken off, so the picks do not say
 * the same thing twice. Used for hashtags and for the summary's main points.
 */
export function pickDiverse(
  candidates: readonly number[],
  options: {
    count: number;
    relevance: (i: number) => number;
    similarity: (a: number, b: number) => number;
    /** 1 ranks by relevance only; lower values favour items unlike those picked. */
    relevanceShare: number;
    /** Never pick `i` once `j` is picked (e.g. a tag repeating a picked tag's words). */
    excludes?: (i: number, j: number) => boolean;
  },
): number[] {
  const { relevance, similarity, relevanceShare, excludes } = options;
  const chosen: number[] = [];
  const remaining = [...candidates];
  while (chosen.length < options.count && remaining.length) {
    let best = -1;
    let bestValue = -Infinity;
    remaining.forEach((i, k) => {
      if (excludes && chosen.some((j) => excludes(i, j))) return;
      const redundancy = Math.max(0, ...chosen.map((j) => similarity(i, j)));
      const value = relevanceShare * relevance(i) - (1 - relevanceShare) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        best = k;
      }
    });
    if (best < 0) break;
    chosen.push(remaining.splice(best, 1)[0]!);
  }
  return chosen;
}
