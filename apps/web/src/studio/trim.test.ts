import { describe, expect, it } from 'vitest';
import {
  flattenWords,
  formatClock,
  neighbourhoodOf,
  snapTrim,
  spanText,
  stepEdge,
  type TimedWord,
} from './trim';

const words: TimedWord[] = [
  { text: 'one', start: 1000, end: 1400 },
  { text: 'two', start: 1600, end: 2000 },
  { text: 'three', start: 2500, end: 3000 },
  { text: 'four', start: 3200, end: 3900 },
];

describe('clip trim rules', () => {
  it('flattens segments into words in time order, dropping empty ones', () => {
    const flat = flattenWords([
      { words: [words[2]!, words[3]!] },
      { words: [words[0]!, { text: 'x', start: 5, end: 5 }, words[1]!] },
    ]);
    expect(flat.map((word) => word.text)).toEqual(['one', 'two', 'three', 'four']);
  });

  it('shows the moment with context, inside the video', () => {
    expect(neighbourhoodOf({ start: 5000, end: 20_000 }, 60_000)).toEqual({
      start: 0,
      end: 35_000,
    });
    expect(neighbourhoodOf({ start: 40_000, end: 58_000 }, 60_000)).toEqual({
      start: 25_000,
      end: 60_000,
    });
  });

  it('snaps a dragged start to the nearest word start and end to the nearest word end', () => {
    const previous = { start: 1000, end: 3900 };
    expect(snapTrim({ start: 1550, end: 3900 }, words, previous)).toEqual({
      start: 1600,
      end: 3900,
    });
    expect(snapTrim({ start: 1000, end: 2300 }, words, previous)).toEqual({
      start: 1000,
      end: 2000,
    });
  });

  it('keeps at least one word when the handles cross', () => {
    const previous = { start: 1600, end: 2000 };
    // The end handle dragged before the start: it gets the start's word.
    expect(snapTrim({ start: 1600, end: 1100 }, words, previous)).toEqual({
      start: 1600,
      end: 2000,
    });
    // The start handle dragged past the end: it stops one word before it.
    expect(snapTrim({ start: 3100, end: 2000 }, words, previous)).toEqual({
      start: 1600,
      end: 2000,
    });
  });

  it('moves an edge one word per arrow key, never past the other edge', () => {
    const trim = { start: 1000, end: 3000 };
    expect(stepEdge(trim, 'start', 1, words)).toEqual({ start: 1600, end: 3000 });
    expect(stepEdge(trim, 'end', 1, words)).toEqual({ start: 1000, end: 3900 });
    expect(stepEdge(trim, 'end', -1, words)).toEqual({ start: 1000, end: 2000 });
    expect(stepEdge({ start: 2500, end: 3000 }, 'start', 1, words)).toEqual({
      start: 2500,
      end: 3000,
    });
    expect(stepEdge(trim, 'start', -1, words)).toEqual(trim);
  });

  it('gives the words of the span as text', () => {
    expect(spanText(words, { start: 1600, end: 3000 })).toBe('two three');
  });

  it('formats clock times with tenths', () => {
    expect(formatClock(0)).toBe('0:00.0');
    expect(formatClock(12_345)).toBe('0:12.3');
    expect(formatClock(75_960)).toBe('1:16.0');
  });
});
