/**
 * Pure rules of the clip editor's timeline: which part of the video it shows, and how trim edges
 * snap to word boundaries (trim handles snap to words). Times in source ms.
 */

import { snapTrimToWords } from '@moments/domain/trim';

export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

export interface Span {
  start: number;
  end: number;
}

/** Seconds of context the timeline shows on each side of the moment. */
const NEIGHBOURHOOD_PAD_MS = 15_000;

/** Transcript segments flattened to words in time order. */
export function flattenWords(segments: readonly { words: readonly TimedWord[] }[]): TimedWord[] {
  return segments
    .flatMap((segment) => segment.words.map(({ text, start, end }) => ({ text, start, end })))
    .filter((word) => word.end > word.start)
    .sort((a, b) => a.start - b.start);
}

/** The stretch of video the timeline covers: the moment plus some context, inside the video. */
export function neighbourhoodOf(moment: Span, videoMs: number, padMs = NEIGHBOURHOOD_PAD_MS): Span {
  return {
    start: Math.max(0, moment.start - padMs),
    end: Math.min(Math.max(videoMs, moment.end), moment.end + padMs),
  };
}

/** A clip starts where a word starts and ends where a word ends. */
const startBoundaries = (words: readonly TimedWord[]) => words.map((word) => word.start);
const endBoundaries = (words: readonly TimedWord[]) => words.map((word) => word.end);

/**
 * Snaps a dragged trim to word edges within reach (the export's own rule, from packages/domain),
 * keeping at least one word inside. Without words (a silent video) the trim is kept as given.
 */
export function snapTrim(wanted: Span, words: readonly TimedWord[], previous: Span): Span {
  return snapTrimToWords(wanted, words, previous);
}

/** Moves one trim edge to the previous (-1) or next (+1) word boundary: the arrow keys. */
export function stepEdge(
  trim: Span,
  edge: 'start' | 'end',
  direction: -1 | 1,
  words: readonly TimedWord[],
): Span {
  const edges = edge === 'start' ? startBoundaries(words) : endBoundaries(words);
  const current = trim[edge];
  const candidates =
    direction > 0
      ? edges.filter((value) => value > current)
      : edges.filter((value) => value < current);
  if (!candidates.length) return trim;
  const next = direction > 0 ? Math.min(...candidates) : Math.max(...candidates);
  const moved = { ...trim, [edge]: next };
  return moved.end > moved.start ? moved : trim;
}

/** The words a clip of `trim` contains (those that start inside it). */
function wordsInTrim(words: readonly TimedWord[], trim: Span): TimedWord[] {
  return words.filter((word) => word.start >= trim.start && word.start < trim.end);
}

/** The span's transcript as the editor shows it: its words separated by spaces. */
export function spanText(words: readonly TimedWord[], trim: Span): string {
  return wordsInTrim(words, trim)
    .map((word) => word.text.trim())
    .filter(Boolean)
    .join(' ');
}

/** `m:ss.t` for trim edges and clip lengths. */
export function formatClock(ms: number): string {
  const tenths = Math.max(0, Math.round(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  return `${minutes}:${String(seconds).padStart(2, '0')}.${tenths % 10}`;
}
