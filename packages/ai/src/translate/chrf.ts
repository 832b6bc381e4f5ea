/**
 * chrF (Popović 2015) as sacreBLEU computes it by default (chrF2: character n-grams 1-6, β = 2,
 * whitespace removed, corpus-level statistics), 0-100.
 */
const MAX_ORDER = 6;
const BETA = 2;

function ngramCounts(text: string, order: number): Map<string, number> {
  const chars = [...text.replace(/\s+/gu, '')];
  const counts = new Map<string, number>();
  for (let i = 0; i + order <= chars.length; i++) {
    const gram = chars.slice(i, i + order).join('');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

export function corpusChrF(hypotheses: readonly string[], references: readonly string[]): number {
  const stats = Array.from({ length: MAX_ORDER }, () => ({ hyp: 0, ref: 0, match: 0 }));
  hypotheses.forEach((hypothesis, index) => {
    const reference = references[index] ?? '';
    for (let order = 1; order <= MAX_ORDER; order++) {
      const hyp = ngramCounts(hypothesis, order);
      const ref = ngramCounts(reference, order);
      const stat = stats[order - 1]!;
      for (const count of hyp.values()) stat.hyp += count;
      for (const count of ref.values()) stat.ref += count;
      for (const [gram, count] of hyp) stat.match += Math.min(count, ref.get(gram) ?? 0);
    }
  });
  // sacreBLEU's default: precision and recall averaged over the orders both sides have, then Fβ.
  const factor = BETA ** 2;
  let precision = 0;
  let recall = 0;
  let orders = 0;
  for (const stat of stats) {
    if (stat.hyp === 0 || stat.ref === 0) continue;
    orders++;
    precision += stat.match / stat.hyp;
    recall += stat.match / stat.ref;
  }
  if (!orders) return 0;
  precision /= orders;
  recall /= orders;
  if (precision + recall === 0) return 0;
  return (100 * (1 + factor) * precision * recall) / (factor * precision + recall);
}
