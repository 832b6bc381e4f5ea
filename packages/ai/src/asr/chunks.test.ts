import { describe, expect, it } from 'vitest';
import { mergeChunkTranscripts, planChunks } from './chunks';
import type { Transcript } from './types';

/** Loudness every 10 ms: speech (-20 dBFS, with a little variation) except for the given pauses. */
function loudnessWithPauses(durationMs: number, pauses: [number, number][]): Float32Array {
  const frames = new Float32Array(durationMs / 10);
  for (let i = 0; i < frames.length; i++) {
    const ms = i * 10;
    const quiet = pauses.some(([from, to]) => ms >= from && ms < to);
    frames[i] = quiet ? -70 + (i % 3) : -20 - (i % 7);
  }
  return frames;
}

describe('planChunks', () => {
  it('cuts a long recording only inside its pauses, into pieces near the target length', () => {
    const pauses: [number, number][] = [
      [50_000, 50_600],
      [170_000, 170_500],
      [200_000, 201_000],
      [355_000, 355_800],
      [520_000, 520_400],
    ];
    const durationMs = 600_000;
    const spans = planChunks(loudnessWithPauses(durationMs, pauses), durationMs, {
      targetMs: 180_000,
      slackMs: 45_000,
    });
    expect(spans[0]!.startMs).toBe(0);
    expect(spans.at(-1)!.endMs).toBe(durationMs);
    for (const [i, span] of spans.entries()) {
      if (i > 0) expect(span.startMs, 'contiguous').toBe(spans[i - 1]!.endMs);
      if (i < spans.length - 1) {
        expect(pauses.some(([from, to]) => span.endMs > from && span.endMs < to)).toBe(true);
        expect(span.endMs - span.startMs).toBeGreaterThanOrEqual(135_000);
        expect(span.endMs - span.startMs).toBeLessThanOrEqual(225_000);
      }
    }
    expect(spans.map((s) => Math.round(s.endMs / 1000))).toEqual([170, 355, 520, 600]);
  });

  it('keeps audio shorter than a chunk whole', () => {
    expect(planChunks(loudnessWithPauses(120_000, []), 120_000)).toEqual([
      { startMs: 0, endMs: 120_000 },
    ]);
  });
});

const transcript = (words: [string, number, number][], engine?: string): Transcript => ({
  language: 'en',
  durationMs: 100_000,
  engine,
  segments: [
    {
      startMs: words[0]![1],
      endMs: words.at(-1)![2],
      text: words.map(([text]) => text).join(' '),
      words: words.map(([text, startMs, endMs]) => ({ text, startMs, endMs, confidence: 0.7 })),
    },
  ],
});

describe('mergeChunkTranscripts', () => {
  it('puts every chunk on the whole file’s clock, in order, without overlaps', () => {
    const merged = mergeChunkTranscripts(
      [
        // Given out of order: the merge orders by start.
        {
          span: { startMs: 60_000, endMs: 90_000 },
          transcript: transcript(
            [
              ['third', 0, 500],
              ['fourth', 29_800, 30_400],
            ],
            'a',
          ),
        },
        {
          span: { startMs: 0, endMs: 60_000 },
          transcript: transcript(
            [
              ['first', 1_000, 1_400],
              ['second', 59_000, 59_900],
            ],
            'a',
          ),
        },
      ],
      'en',
      90_000,
    );
    const words = merged.segments.flatMap((s) => s.words);
    expect(words.map((w) => w.text)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(words.map((w) => [w.startMs, w.endMs])).toEqual([
      [1_000, 1_400],
      [59_000, 59_900],
      [60_000, 60_500],
      // Whisper ran on past its chunk's end: held inside the chunk.
      [89_800, 90_000],
    ]);
    expect(words.every((w) => w.confidence === 0.7)).toBe(true);
    expect(merged.segments[1]!.startMs).toBe(60_000);
    expect(merged.engine).toBe('a');
    expect(merged.durationMs).toBe(90_000);
  });
});
