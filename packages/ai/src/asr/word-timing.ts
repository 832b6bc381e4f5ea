import type { Transcript, TranscriptSegment, TranscriptWord } from './types';

/** Engine output before clean-up: times in seconds, as Whisper and the OpenAI API report them. */
export interface RawWord {
  text: string;
  start: number;
  end: number;
  confidence?: number;
}

export interface RawSegment {
  start: number;
  end: number;
  text: string;
  words: RawWord[];
}

interface PlacedWord extends TranscriptWord {
  segmentIndex: number;
}

/**
 * Turns engine output into a Transcript whose every word has 0 <= startMs < endMs <= durationMs, in
 * order and without overlap. Whisper's word alignment sometimes gives several words the same instant
 * (start == end) or times past the end of the audio; captions need a visible duration for each word
 * (spec: word timings for every word), so such words share the time of their neighbours.
 */
export function buildTranscript(
  language: string,
  durationMs: number,
  segments: RawSegment[],
): Transcript {
  const duration = Math.max(0, Math.round(durationMs));
  const words = placeWords(segments, duration);
  repairZeroLengthWords(words, duration);
  const valid = words.filter((w) => w.startMs >= 0 && w.startMs < w.endMs && w.endMs <= duration);

  const result: TranscriptSegment[] = [];
  segments.forEach((segment, index) => {
    const segmentWords = valid.filter((w) => w.segmentIndex === index);
    const text = segment.text.trim();
    if (!text && segmentWords.length === 0) return;
    const first = segmentWords[0];
    const last = segmentWords[segmentWords.length - 1];
    const startMs = clamp(toMs(segment.start), 0, duration);
    const endMs = clamp(toMs(segment.end), 0, duration);
    result.push({
      startMs: first ? Math.min(startMs, first.startMs) : startMs,
      endMs: last ? Math.max(endMs, last.endMs) : Math.max(startMs, endMs),
      text,
      words: segmentWords.map(({ text: wordText, startMs: s, endMs: e, confidence }) => ({
        text: wordText,
        startMs: s,
        endMs: e,
        confidence,
      })),
    });
  });
  return { language, durationMs: duration, segments: result };
}

function placeWords(segments: RawSegment[], duration: number): PlacedWord[] {
  const placed: PlacedWord[] = [];
  let previousEnd = 0;
  segments.forEach((segment, segmentIndex) => {
    for (const raw of segment.words) {
      // Numbers and symbols ("$5", "100%", "&") are words too; only whitespace-only tokens go.
      const text = raw.text.trim();
      if (!text) continue;
      const startMs = Math.max(clamp(toMs(raw.start), 0, duration), previousEnd);
      const endMs = Math.max(clamp(toMs(raw.end), 0, duration), startMs);
      const confidence = Number.isFinite(raw.confidence)
        ? clamp(raw.confidence as number, 0, 1)
        : 1;
      placed.push({ text, startMs, endMs, confidence, segmentIndex });
      previousEnd = endMs;
    }
  });
  return placed;
}

/** Spreads each run of zero-length words, with the word before and after it, over their joint span. */
function repairZeroLengthWords(words: PlacedWord[], duration: number): void {
  let i = 0;
  while (i < words.length) {
    if (words[i]!.endMs > words[i]!.startMs) {
      i++;
      continue;
    }
    let runEnd = i;
    while (runEnd + 1 < words.length && words[runEnd + 1]!.endMs <= words[runEnd + 1]!.startMs)
      runEnd++;
    const first = i > 0 ? i - 1 : i;
    const last = runEnd + 1 < words.length ? runEnd + 1 : runEnd;
    const group = words.slice(first, last + 1);
    let lo = group[0]!.startMs;
    let hi = group[group.length - 1]!.endMs;
    // Too little room (e.g. several words stamped at the very end): borrow silence around the group.
    const floor = first > 0 ? words[first - 1]!.endMs : 0;
    const ceiling = last + 1 < words.length ? words[last + 1]!.startMs : duration;
    if (hi - lo < group.length) hi = Math.min(ceiling, lo + group.length);
    if (hi - lo < group.length) lo = Math.max(floor, hi - group.length);
    spreadByLength(group, lo, hi);
    i = runEnd + 1;
  }
}

/** Gives each word a share of [lo, hi] proportional to its length, at least 1 ms when there is room. */
function spreadByLength(group: PlacedWord[], lo: number, hi: number): void {
  const weights = group.map((w) => Math.max(1, [...w.text].length));
  const total = weights.reduce((a, b) => a + b, 0);
  let cumulative = 0;
  let start = lo;
  group.forEach((word, k) => {
    cumulative += weights[k]!;
    const remaining = group.length - k - 1;
    const ideal = lo + Math.round(((hi - lo) * cumulative) / total);
    const end = k === group.length - 1 ? hi : clamp(ideal, start + 1, hi - remaining);
    word.startMs = start;
    word.endMs = end;
    start = end;
  });
}

function toMs(seconds: number): number {
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
