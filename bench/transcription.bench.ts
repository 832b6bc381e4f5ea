// Speech recognition speed: a 10-minute file made from the real recordings in ../shared/media
// (JFK, then the English half of the bilingual reading, repeated), transcribed by the configured engine
// (createSpeechEngine: local faster-whisper unless ASR_BASE_URL is set). Prints model, audio
// duration, wall time and speed as a multiple of real time. Skips when the media or engine is absent.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createSpeechEngine, fasterWhisperAvailability } from '@moments/ai/asr';

const execFileAsync = promisify(execFile);
const MEDIA_DIR = fileURLToPath(new URL('../../shared/media/', import.meta.url));
const TARGET_SECONDS = 600;

export default async function run(): Promise<void> {
  const sources = ['jfk.flac', 'multilingual-en-de.mp3'].map((name) => join(MEDIA_DIR, name));
  if (!sources.every((file) => existsSync(file))) {
    console.log(`transcription: skipped, ${MEDIA_DIR} is absent`);
    return;
  }
  if (!process.env.ASR_BASE_URL) {
    const availability = fasterWhisperAvailability();
    if (!availability.available) {
      console.log(`transcription: skipped, ${availability.reason}`);
      return;
    }
  }

  const workDir = await mkdtemp(join(tmpdir(), 'moments-asr-bench-'));
  try {
    const audio = join(workDir, 'ten-minutes.wav');
    // English only: Whisper decodes a whole file in the language it detects first, so a German
    // stretch in an English file is a quality test, not a speed one. 16 kHz mono is what it reads.
    await execFileAsync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      sources[0]!,
      '-i',
      sources[1]!,
      '-filter_complex',
      '[0:a]aresample=16000,aformat=channel_layouts=mono[a];[1:a]atrim=0:29.5,aresample=16000,aformat=channel_layouts=mono[b];[a][b]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9[out]',
      '-map',
      '[out]',
      '-t',
      String(TARGET_SECONDS),
      audio,
    ]);

    const engine = createSpeechEngine();
    const started = performance.now();
    const transcript = await engine.transcribe(audio);
    const wallSeconds = (performance.now() - started) / 1000;
    const audioSeconds = transcript.durationMs / 1000;
    const words = transcript.segments.reduce((n, s) => n + s.words.length, 0);

    console.log(
      `transcription: engine ${engine.name}, ${cpus().length} cores, CPU int8 unless ASR_COMPUTE_TYPE says otherwise`,
    );
    console.log(
      `transcription: audio ${audioSeconds.toFixed(1)} s, ${words} words, language ${transcript.language}`,
    );
    console.log(
      `transcription: wall ${wallSeconds.toFixed(1)} s, ${(audioSeconds / wallSeconds).toFixed(2)}x real time`,
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run();
