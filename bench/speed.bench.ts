/**
 * Speed, measured as ratios: each stage of the product next to its own limit, on the same input,
 * in the same run (so a busy shared machine slows both sides alike):
 *  - the whole task (upload to ranked moments) vs the ASR engine alone on the same audio;
 *  - a 16 s and a 60 s export, with and without the background analysis, vs an x264 encode alone
 *    of the same span and size (bench/speed/export-stage.ts);
 *  - shot analysis frames/s vs decoding the same frames alone.
 *  - the transcription stages of bench/speed-asr.ts and speed-workers.ts: tiny.en vs
 *    base on real speech, 1x2 vs 2x1 threads, the task vs transcription alone with the time to the
 *    first moment and the peak memory, chunks over 1, 2 and 3 worker processes.
 * Task inputs of about 150 s, 10 min and 60 min of real speech over real-looking video are made
 * at bench time; `SPEED_BENCH_INPUTS=150,600` limits them (seconds), `SPEED_BENCH_STAGES=export`
 * (or `models`, `threads`, `task`, `workers`, `asr-options`, comma separated) picks the parts.
 * Every line carries the load average and the peak memory (RSS of this process and its children)
 * of the stage. Exits non-zero only on a crash: the goals are reported, not asserted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSpeechEngine, fasterWhisperAvailability } from '@moments/ai/asr';
import { wordErrorRate } from '@moments/ai/wer';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { probeMedia } from '@moments/media/probe';
import { sharedMediaDir, synthesizeSpeech } from '@moments/media/testing';
import { compareModels, compareThreads, taskStages } from './speed-asr';
import { load, mb, measured } from './speed-measure';
import { compareWorkers } from './speed-workers';
import { exportStage } from './speed/export-stage';

const JFK_REFERENCE =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';

const inputs = (process.env.SPEED_BENCH_INPUTS ?? '150,600,3600')
  .split(',')
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isFinite(value) && value > 0);

/** `SPEED_BENCH_STAGES=task` (or `export`, comma separated) runs only those parts. */
const stages = (process.env.SPEED_BENCH_STAGES ?? 'export,models,threads,task,workers')
  .split(',')
  .map((v) => v.trim());

export default async function run(): Promise<void> {
  console.log(
    `speed: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), ${mb(os.totalmem())}; ` +
      `uptime: ${execFileSync('uptime').toString().trim()}`,
  );
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-speed-bench-'));
  try {
    if (stages.includes('export')) await exportStage(dir);
    if (stages.includes('models')) await compareModels(dir);
    if (stages.includes('threads')) await compareThreads(dir);
    if (stages.includes('task')) await taskStages(dir, inputs);
    if (stages.includes('workers'))
      await compareWorkers(dir, Number(process.env.SPEED_BENCH_WORKERS_INPUT ?? 600));
    if (stages.includes('asr-options')) await asrOptions(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    console.log(`speed: done; uptime: ${execFileSync('uptime').toString().trim()}`);
  }
}

/**
 * The transcription settings compared on the same minute of recorded speech, with WER beside
 * each on jfk.flac and on 2.5 minutes of GPL-3 paragraphs read by festival (text no code here was
 * written around): greedy vs beam search, sequential vs batched, threads, compute type.
 */
async function asrOptions(dir: string): Promise<void> {
  const media = process.env.SHARED_MEDIA_DIR || sharedMediaDir();
  if (!media || !fasterWhisperAvailability().available) {
    console.log('speed: asr-options skipped (no shared media or no faster-whisper)');
    return;
  }
  const wav = path.join(dir, 'minute.wav');
  await runFfmpeg([
    ...['-i', path.join(media, 'jfk.flac'), '-i', path.join(media, 'multilingual-en-de.mp3')],
    '-filter_complex',
    '[0:a]aresample=16000[a];[1:a]atrim=0:29.5,aresample=16000[b];[a][b]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9,aformat=channel_layouts=mono[out]',
    ...['-map', '[out]', '-t', '60', wav],
  ]);
  const reading = await readLicenceAloud(dir);
  const settings = [
    { ASR_THREADS: '2', ASR_BEAM_SIZE: '1', ASR_BATCH_SIZE: '0', ASR_COMPUTE_TYPE: 'int8' },
    { ASR_THREADS: '2', ASR_BEAM_SIZE: '5', ASR_BATCH_SIZE: '0', ASR_COMPUTE_TYPE: 'int8' },
    { ASR_THREADS: '2', ASR_BEAM_SIZE: '1', ASR_BATCH_SIZE: '8', ASR_COMPUTE_TYPE: 'int8' },
    { ASR_THREADS: '1', ASR_BEAM_SIZE: '1', ASR_BATCH_SIZE: '0', ASR_COMPUTE_TYPE: 'int8' },
    { ASR_THREADS: '2', ASR_BEAM_SIZE: '1', ASR_BATCH_SIZE: '0', ASR_COMPUTE_TYPE: 'float32' },
  ];
  for (const setting of settings) {
    // `accurate`: these settings are the main model's (English would otherwise go to tiny.en).
    const engine = createSpeechEngine({ ...process.env, ...setting, ASR_ACCURACY: 'accurate' });
    const minute = await measured(() => engine.transcribe(wav));
    const jfk = await engine.transcribe(path.join(media, 'jfk.flac'));
    const wer = wordErrorRate(JFK_REFERENCE, jfk.segments.map((s) => s.text).join(' '));
    let readingLine = 'no festival for the read passage';
    if (reading) {
      const read = await measured(() => engine.transcribe(reading.wav));
      const readWer = wordErrorRate(reading.text, read.value.segments.map((s) => s.text).join(' '));
      readingLine =
        `read passage ${(reading.seconds / read.sec).toFixed(2)}x real time, ` +
        `WER ${(readWer * 100).toFixed(1)}%`;
    }
    console.log(
      `speed: ASR ${engine.name} threads ${setting.ASR_THREADS}, beam ${setting.ASR_BEAM_SIZE}, ` +
        `batch ${setting.ASR_BATCH_SIZE}, ${setting.ASR_COMPUTE_TYPE}: 60 s in ${minute.sec.toFixed(1)} s = ` +
        `${(60 / minute.sec).toFixed(2)}x real time, peak ${mb(minute.peak)}, jfk WER ${(wer * 100).toFixed(1)}%; ` +
        `${readingLine}; ${load()}`,
    );
    engine.close?.();
  }
}

/** The first long paragraphs of Debian's GPL-3 text, read by festival's HTS voice (if installed). */
async function readLicenceAloud(
  dir: string,
): Promise<{ wav: string; text: string; seconds: number } | undefined> {
  const licence = '/usr/share/common-licenses/GPL-3';
  if (!existsSync(licence)) return undefined;
  const text = (await fs.readFile(licence, 'utf8'))
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => paragraph.split(' ').length > 40)
    .slice(0, 6)
    .join(' ');
  const wav = path.join(dir, 'licence.wav');
  try {
    await synthesizeSpeech(text, wav, { engine: 'festival' });
  } catch {
    return undefined;
  }
  const seconds = (await probeMedia(wav)).durationMs / 1000;
  return { wav, text, seconds };
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
