import { describe, expect, it } from 'vitest';
import { snapEdge, snapTrimToWords, TRIM_SNAP_DISTANCE_MS } from './index.js';

// "we choose to go | to the moon" with a long pause in the middle.
const words = [
  { start: 1_000, end: 1_300 },
  { start: 1_350, end: 1_700 },
  { start: 1_750, end: 2_000 },
  { start: 6_000, end: 6_200 },
  { start: 6_250, end: 6_400 },
  { start: 6_450, end: 6_900 },
];

describe('trim snapping shared by the editor and the export', () => {
  it('snaps an edge to a word boundary within reach, and leaves a far one where it was put', () => {
    expect(snapEdge(1_320, [1_000, 1_350])).toBe(1_350);
    // In the pause, 2 s from any word: the old editor rule jumped to the nearest word anyway.
    expect(snapEdge(4_000, [1_000, 6_000])).toBe(4_000);
    expect(snapEdge(6_000 - TRIM_SNAP_DISTANCE_MS, [6_000])).toBe(6_000);
    expect(snapEdge(6_000 - TRIM_SNAP_DISTANCE_MS - 1, [6_000])).toBe(5_499);
  });

  it('snaps both handles, keeps at least one word when they cross, and is idempotent', () => {
    const previous = { start: 1_000, end: 6_900 };
    expect(snapTrimToWords({ start: 1_320, end: 4_000 }, words, previous)).toEqual({
      start: 1_350,
      end: 4_000,
    });
    // The start handle dragged past the end: it gives way to the last word start before it.
    const crossed = snapTrimToWords({ start: 6_950, end: 6_900 }, words, previous);
    expect(crossed).toEqual({ start: 6_450, end: 6_900 });
    // What the editor shows is what the export makes: snapping a snapped trim changes nothing.
    for (const wanted of [
      { start: 900, end: 2_100 },
      { start: 3_000, end: 6_100 },
      { start: 1_700, end: 6_420 },
    ]) {
      const once = snapTrimToWords(wanted, words, previous);
      expect(snapTrimToWords(once, words, once)).toEqual(once);
    }
  });
});
