// Real read speech (LibriVox, Debian's pocketsphinx-testdata) comes back as whole written
// words: "ill-disposed" and "cold-hearted" are one word each, timed over both parts, with Whisper's
// per-word probability kept.
import { librivoxPassages, LIBRIVOX_DIR } from '@moments/media/testing';
import { describe, expect, it } from 'vitest';
import { wordErrorRate } from '../wer';
import { createSpeechEngine } from './create';
import { FasterWhisperEngine, fasterWhisperAvailability } from './faster-whisper';
import { expectValidWordTimings } from '../../test/support/speech';
import type { Transcript } from './types';
import { withWrittenWords } from './written-words';

const availability = fasterWhisperAvailability();
const passages = await librivoxPassages();
if (!availability.available)
  console.warn(`[written words] skipping: ${availability.reason ?? 'no speech engine'}`);
if (!passages)
  console.warn(
    `[written words] skipping: ${LIBRIVOX_DIR} is absent (apt-get install pocketsphinx-testdata, or bash scripts/setup.sh)`,
  );

const SLOW = 180_000;
const wordsOf = (transcript: Transcript) => transcript.segments.flatMap((segment) => segment.words);
const bare = (text: string) => text.toLowerCase().replace(/[^\p{L}'-]/gu, '');

describe.skipIf(!availability.available || !passages)('words of LibriVox read speech', () => {
  const passage = (id: string) => passages!.find((p) => p.file.endsWith(`-${id}.wav`))!;

  it(
    'keeps "ill-disposed" and "cold-hearted" whole, timed over both parts, with per-word probabilities',
    async () => {
      const { file, reference } = passage('0890');
      const raw = await new FasterWhisperEngine().transcribe(file, { language: 'en' });
      const written = withWrittenWords(raw);
      const texts = wordsOf(written).map((word) => bare(word.text));
      expect(texts).toContain('cold-hearted');
      expect(texts).toContain('ill-disposed');
      expect(texts.filter((text) => text.startsWith('-') || text.endsWith('-'))).toEqual([]);
      // The joined word starts where its first part did and ends where its last part did.
      const rawWords = wordsOf(raw);
      for (const word of wordsOf(written).filter((w) => w.text.includes('-'))) {
        const parts = rawWords.filter((w) => w.startMs >= word.startMs && w.endMs <= word.endMs);
        expect(parts.map((w) => w.text).join('')).toBe(word.text);
        expect(Math.min(...parts.map((w) => w.confidence))).toBe(word.confidence);
      }
      expectValidWordTimings(written);
      // Whisper's probabilities, not a placeholder: all in 0..1 and not all the same.
      const probabilities = wordsOf(written).map((word) => word.confidence);
      expect(new Set(probabilities).size).toBeGreaterThan(3);
      expect(wordErrorRate(reference, texts.join(' ').replace(/-/g, ' '))).toBeLessThanOrEqual(0.2);
    },
    SLOW,
  );

  it(
    'comes out of the engine the app uses already joined, names capitalised',
    async () => {
      const engine = createSpeechEngine({});
      const young = await engine.transcribe(passage('0880').file, { language: 'en' });
      expect(wordsOf(young).map((w) => bare(w.text))).toContain('ill-disposed');
      const dashwood = await engine.transcribe(passage('0870').file, { language: 'en' });
      const text = dashwood.segments.map((segment) => segment.text).join(' ');
      expect(text).toMatch(/\bJohn Dashwood\b/);
    },
    SLOW,
  );
});
