import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '../wer';
import { FasterWhisperEngine, fasterWhisperAvailability } from './faster-whisper';
import {
  SHARED_MEDIA_DIR,
  expectValidWordTimings,
  hasFestival,
  hasSharedMedia,
  synthesizeSpeech,
  transcriptText,
} from '../../test/support/speech';
import { SpeechRecognitionError } from './types';

const execFileAsync = promisify(execFile);
const availability = fasterWhisperAvailability();
const engineReady = availability.available;
if (!availability.available)
  console.warn(`[asr tests] skipping faster-whisper tests: ${availability.reason}`);
if (!hasSharedMedia)
  console.warn(`[asr tests] skipping tests on real recordings: ${SHARED_MEDIA_DIR} is absent`);
if (!hasFestival)
  console.warn(
    '[asr tests] skipping synthesised-speech tests: festival (text2wave) is not installed',
  );

const JFK_REFERENCE =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const SLOW = 180_000;

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'moments-asr-test-'));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe.skipIf(!engineReady || !hasSharedMedia)('FasterWhisperEngine on real recordings', () => {
  it(
    'transcribes the JFK quote with at most 10% word errors and sane word timings',
    async () => {
      const engine = new FasterWhisperEngine();
      const progress: number[] = [];
      const transcript = await engine.transcribe(join(SHARED_MEDIA_DIR, 'jfk.flac'), {
        onProgress: (fraction) => progress.push(fraction),
      });
      expect(transcript.language).toBe('en');
      expect(transcript.durationMs).toBeGreaterThan(10_000);
      expect(transcript.durationMs).toBeLessThan(12_000);
      expect(wordErrorRate(JFK_REFERENCE, transcriptText(transcript))).toBeLessThanOrEqual(0.1);
      // Word texts joined give the same words as the segment texts.
      const words = transcript.segments.flatMap((s) => s.words.map((w) => w.text)).join(' ');
      expect(wordErrorRate(JFK_REFERENCE, words)).toBeLessThanOrEqual(0.1);
      expectValidWordTimings(transcript);
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    },
    SLOW,
  );

  it(
    'hears the language of the first speech of a long WAV, past a minute of silence before it',
    async () => {
      // Silence longer than the head the detection looks at first, then German, then English.
      const file = join(workDir, 'late-german.wav');
      const recording = join(SHARED_MEDIA_DIR, 'multilingual-en-de.mp3');
      await execFileAsync('ffmpeg', [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-t', '65', '-i', 'anullsrc=r=16000:cl=mono'],
        ...['-ss', '29.5', '-t', '15', '-i', recording, '-t', '29', '-i', recording],
        '-filter_complex',
        '[0:a][1:a][2:a]concat=n=3:v=0:a=1,aresample=16000,aformat=channel_layouts=mono[out]',
        ...['-map', '[out]', '-c:a', 'pcm_s16le', file],
      ]);
      const engine = new FasterWhisperEngine();
      try {
        expect(await engine.detectLanguage(file)).toBe('de');
      } finally {
        engine.close();
      }
    },
    SLOW,
  );

  it(
    'detects German in the German half of the bilingual recording',
    async () => {
      // The English reading ends at about 29 s; the German one starts at about 31 s.
      const germanHalf = join(workDir, 'german-half.wav');
      await execFileAsync('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-ss',
        '29.5',
        '-t',
        '15',
        '-i',
        join(SHARED_MEDIA_DIR, 'multilingual-en-de.mp3'),
        '-ac',
        '1',
        '-ar',
        '16000',
        germanHalf,
      ]);
      const transcript = await new FasterWhisperEngine().transcribe(germanHalf);
      expect(transcript.language).toBe('de');
      // German never goes to the English-only fast model: the main (multilingual) model hears it.
      expect(transcript.engine).toBe('faster-whisper:whisper-base');
      expect(transcriptText(transcript)).toMatch(/Software/);
      expectValidWordTimings(transcript);
    },
    SLOW,
  );
});

describe.skipIf(!engineReady || !hasFestival)('FasterWhisperEngine on synthesised speech', () => {
  const spoken =
    'The quick brown fox jumps over the lazy dog. Please call me back at seven tomorrow morning.';

  it(
    'transcribes known words, keeps the number as a timed word, and honours a given language',
    async () => {
      const speech = await synthesizeSpeech(spoken, workDir);
      const transcript = await new FasterWhisperEngine().transcribe(speech, { language: 'en' });
      expect(transcript.language).toBe('en');
      // Whisper writes numbers as digits ("7"); WER leaves that difference in, so allow one word.
      expect(wordErrorRate(spoken, transcriptText(transcript))).toBeLessThanOrEqual(0.15);
      expectValidWordTimings(transcript);
      const words = transcript.segments.flatMap((s) => s.words);
      const number = words.find((w) => /7|seven/i.test(w.text));
      expect(number, 'the spoken number is a word of its own').toBeDefined();
    },
    SLOW,
  );

  it('stops the recogniser when the caller aborts', async () => {
    const speech = await synthesizeSpeech('Stop this transcription right now.', workDir, 'abort');
    const controller = new AbortController();
    const started = Date.now();
    const pending = new FasterWhisperEngine().transcribe(speech, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fails with a timeout error when the time limit passes', async () => {
    const speech = await synthesizeSpeech('This will take too long.', workDir, 'timeout');
    await expect(
      new FasterWhisperEngine().transcribe(speech, { timeoutMs: 200 }),
    ).rejects.toMatchObject({
      code: 'timeout',
    });
  });
});

describe('FasterWhisperEngine errors', () => {
  it("names the setup script when the engine's Python is missing", async () => {
    const engine = new FasterWhisperEngine({
      pythonPath: join(tmpdir(), 'no-such-dir', 'python'),
      accuracy: 'accurate',
    });
    const speech = hasFestival
      ? await synthesizeSpeech('Hello.', workDir, 'missing')
      : await makeTone(join(workDir, 'tone.wav'));
    const error = await engine.transcribe(speech).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechRecognitionError);
    expect(error).toMatchObject({ code: 'engine_missing' });
    expect((error as Error).message).toContain('scripts/setup.sh');
  });

  it('rejects a language Whisper does not know before starting anything', async () => {
    await expect(
      new FasterWhisperEngine().transcribe('/nonexistent.wav', { language: 'xx' }),
    ).rejects.toMatchObject({
      code: 'bad_input',
    });
  });

  it('reports an unreadable audio file as bad input', async () => {
    await expect(
      new FasterWhisperEngine().transcribe(join(workDir, 'absent.wav')),
    ).rejects.toMatchObject({
      code: 'bad_input',
    });
  });
});

async function makeTone(file: string): Promise<string> {
  await execFileAsync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    file,
  ]);
  return file;
}
