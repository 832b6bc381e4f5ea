import { describe, expect, it } from 'vitest';
import { findPauses, snapWordsToSpeech } from './speech-onsets';
import type { Transcript } from './types';

/** 10 ms loudness frames: speech (-20 dBFS) except in the given silent ranges (-90 dBFS). */
function loudness(totalMs: number, silent: [number, number][]): Float32Array {
  return Float32Array.from({ length: totalMs / 10 }, (_, f) =>
    silent.some(([a, b]) => f * 10 >= a && f * 10 < b) ? -90 : -20,
  );
}

const word = (text: string, startMs: number, endMs: number) => ({
  text,
  startMs,
  endMs,
  confidence: 0.9,
});

describe('snapWordsToSpeech', () => {
  it('moves a sentence-opening word that Whisper put inside the pause onto the speech after it', () => {
    // Speech 0-2000, pause 2000-4000, speech 4000-6000. Whisper: "So" at 2100-3100, "start" at 4200.
    const transcript: Transcript = {
      language: 'en',
      durationMs: 6000,
      segments: [
        {
          startMs: 0,
          endMs: 1900,
          text: 'Grow plants.',
          words: [word('Grow', 0, 900), word('plants.', 900, 1900)],
        },
        {
          startMs: 2100,
          endMs: 6000,
          text: 'So start small.',
          words: [word('So', 2100, 3100), word('start', 4200, 5000), word('small.', 5000, 6000)],
        },
      ],
    };
    const snapped = snapWordsToSpeech(transcript, loudness(6000, [[2000, 4000]]));
    const [plants, so] = [snapped.segments[0]!.words[1]!, snapped.segments[1]!.words[0]!];
    expect(so.startMs).toBeGreaterThanOrEqual(3900);
    expect(so.startMs).toBeLessThanOrEqual(4000);
    expect(so.endMs).toBeLessThanOrEqual(snapped.segments[1]!.words[1]!.startMs);
    // The word before the pause now ends where its speech does, plus a breath.
    expect(plants.endMs).toBeGreaterThanOrEqual(2000);
    expect(plants.endMs).toBeLessThanOrEqual(2100);
    expect(snapped.segments[1]!.startMs).toBe(so.startMs);
  });

  it('leaves times alone in fluent speech and in audio with no clear pauses', () => {
    const transcript: Transcript = {
      language: 'en',
      durationMs: 2000,
      segments: [
        {
          startMs: 0,
          endMs: 2000,
          text: 'One two.',
          words: [word('One', 100, 900), word('two.', 900, 1900)],
        },
      ],
    };
    expect(snapWordsToSpeech(transcript, loudness(2000, []))).toEqual(transcript);
    expect(findPauses(loudness(2000, [[1000, 1100]]))).toEqual([]); // a stop consonant, not a pause
  });
});
