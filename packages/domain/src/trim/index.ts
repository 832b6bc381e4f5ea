/**
 * How a clip's trim snaps to word boundaries: one rule for the editor's handles and the export
 * (the server snapped within 500 ms, the editor without limit, so the editor could
 * show a cut the export would not make). Times in milliseconds.
 */

export interface TimedSpan {
  start: number;
  end: number;
}

/** A trim edge this close to a word boundary snaps to it; farther, it stays where it was put. */
export const TRIM_SNAP_DISTANCE_MS = 500;

/** The boundary nearest to `target` within the snap distance, or `target` itself. */
export function snapEdge(target: number, boundaries: readonly number[]): number {
  let best: number | undefined;
  for (const value of boundaries) {
    if (Math.abs(value - target) > TRIM_SNAP_DISTANCE_MS) continue;
    if (best === undefined || Math.abs(value - target) < Math.abs(best - target)) best = value;
  }
  return best ?? target;
}

/**
 * Snaps a trim: the start to a nearby word start, the end to a nearby word end. When snapping
 * would make the range empty, the edge that moved (compared with `previous`) gives way: the
 * start to the last word start before the end, the end to the first word end after the start;
 * with no such word, `previous` is kept.
 */
export function snapTrimToWords(
  wanted: TimedSpan,
  words: readonly TimedSpan[],
  previous: TimedSpan,
): TimedSpan {
  if (!words.length) return wanted;
  const starts = words.map((word) => word.start);
  const ends = words.map((word) => word.end);
  let start = snapEdge(wanted.start, starts);
  let end = snapEdge(wanted.end, ends);
  if (end <= start) {
    if (wanted.start !== previous.start) {
      start = [...starts].sort((a, b) => b - a).find((edge) => edge < end) ?? previous.start;
    } else {
      end = [...ends].sort((a, b) => a - b).find((edge) => edge > start) ?? previous.end;
    }
  }
  return end > start ? { start, end } : previous;
}
