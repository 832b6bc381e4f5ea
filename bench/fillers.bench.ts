/**
 * `npm run bench -- fillers`: how many of the fillers a speaker says the transcription keeps, so
 * filler removal can only cut what is left. Six sentences with five hesitations (two "um", two
 * "uh", one "erm") and one each of "you know", "like" and "I mean" set off by commas, spoken by
 * espeak-ng, transcribed by the local speech engine with the default model (Whisper base) and the
 * fast English one (tiny.en, `ASR_ACCURACY=fast`); prints per model what the filler rules find in
 * the transcript (packages/domain fillerIndexes, the rules the cut uses). Synthesised hesitations
 * are not real ones: on real speech expect fewer found.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability, FasterWhisperEngine } from '@moments/ai/asr';
import { fillerIndexes } from '@moments/domain/captions';
import { synthesizeSpeech } from '@moments/media/testing';

const SPEECH = [
  'So um we started the project in the spring.',
  'The first version was, uh, far too slow for anyone.',
  'It was, you know, late when we finally found the bug.',
  'Then erm the whole team rewrote the parser.',
  'And, like, everyone was happier after that, um, week.',
  'I mean, uh, the users noticed it right away.',
].join(' ');
const SAID = { hesitations: 5, phrases: 3 };
const HESITATIONS = new Set(['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'ah', 'hmm']);

export default async function run(): Promise<void> {
  const availability = fasterWhisperAvailability();
  if (!availability.available) {
    console.log(`fillers: skipped, ${availability.reason}`);
    return;
  }
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-fillers-'));
  try {
    const wav = await synthesizeSpeech(SPEECH, path.join(workDir, 'fillers.wav'));
    for (const accuracy of ['accurate', 'fast'] as const) {
      const engine = new FasterWhisperEngine({ accuracy });
      try {
        const transcript = await engine.transcribe(wav, { language: 'en' });
        const words = transcript.segments.flatMap((segment) => segment.words);
        const found = [...fillerIndexes(words)].sort((a, b) => a - b).map((i) => words[i]!.text);
        const bare = (text: string) => text.toLowerCase().replace(/[^\p{L}]+/gu, '');
        const hesitations = found.filter((text) => HESITATIONS.has(bare(text))).length;
        const phraseWords = found.filter((text) => !HESITATIONS.has(bare(text)));
        console.log(
          `fillers (${accuracy === 'fast' ? 'tiny.en' : 'base'}): hesitations kept ` +
            `${hesitations} of ${SAID.hesitations}; set-off phrase words found ` +
            `${phraseWords.length} (${phraseWords.join(' ') || 'none'}; said: "you know", ` +
            `"like", "I mean"); transcript: ${words.map((word) => word.text).join(' ')}`,
        );
      } finally {
        engine.close();
      }
    }
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
