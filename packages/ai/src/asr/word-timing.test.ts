import { describe, expect, it } from 'vitest';
import { expectValidWordTimings } from '../../test/support/speech';
import { buildTranscript } from './word-timing';

describe('buildTranscript', () => {
  it("gives zero-length words a duration by sharing their neighbours' time", () => {
    // Shape seen from faster-whisper on the bilingual recording: two words stamped at one instant.
    const transcript = buildTranscript('de', 60_000, [
      {
        start: 31.28,
        end: 33.14,
        text: ' in which this software and',
        words: [
          { text: ' in', start: 31.28, end: 32.12, confidence: 0.002 },
          { text: ' which', start: 32.12, end: 32.12, confidence: 0.0003 },
          { text: ' this', start: 32.12, end: 32.12, confidence: 0.01 },
          { text: ' software', start: 32.12, end: 32.64, confidence: 0.12 },
          { text: ' and', start: 32.64, end: 32.96, confidence: 0.05 },
        ],
      },
    ]);
    expectValidWordTimings(transcript);
    const words = transcript.segments[0]!.words;
    expect(words.map((w) => w.text)).toEqual(['in', 'which', 'this', 'software', 'and']);
    // The repaired run stays inside the span Whisper gave the group, and the word after is untouched.
    expect(words[0]!.startMs).toBe(31_280);
    expect(words[3]!.endMs).toBe(32_640);
    expect(words[4]).toMatchObject({ startMs: 32_640, endMs: 32_960 });
  });

  it('pulls words stamped past the end of the audio back inside it', () => {
    const transcript = buildTranscript('en', 5_000, [
      {
        start: 4.2,
        end: 5.6,
        text: ' costs $5.',
        words: [
          { text: ' costs', start: 4.2, end: 4.9 },
          { text: ' $5.', start: 5.3, end: 5.6 },
        ],
      },
    ]);
    expectValidWordTimings(transcript);
    const words = transcript.segments[0]!.words;
    expect(words.map((w) => w.text)).toEqual(['costs', '$5.']);
    expect(words[1]!.endMs).toBe(5_000);
    expect(transcript.segments[0]!.endMs).toBe(5_000);
  });

  it('orders overlapping words and keeps every one of them', () => {
    const transcript = buildTranscript('en', 10_000, [
      {
        start: 0,
        end: 2,
        text: ' one two',
        words: [
          { text: ' one', start: 0, end: 1.2 },
          { text: ' two', start: 1.0, end: 2 },
        ],
      },
      { start: 1.9, end: 3, text: ' 3', words: [{ text: ' 3', start: 1.9, end: 1.9 }] },
    ]);
    expectValidWordTimings(transcript);
    expect(transcript.segments.flatMap((s) => s.words.map((w) => w.text))).toEqual([
      'one',
      'two',
      '3',
    ]);
  });
});
