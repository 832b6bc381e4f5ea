/**
 * Speed, measured as ratios: each stage of the product next to its own limit, on the same input,
 * in the same run (so a busy shared machine slows both sides alike):
 *  - the whole task (upload to ranked moments) vs the ASR engine alone on the same audio;
 *  - the whole export (face analysis, loudness, render) vs an x264 encode alone of the same output
 *    size, duration, preset, threads and audio (the encode limit);
 *  - face analysis frames/s vs decoding the same frames alone.
 * Inputs of 60 s, 10 min and 60 min are made at bench time; `SPEED_BENCH_INPUTS=60,600` limits
 * them (seconds), `SPEED_BENCH_STAGES=export` or `=task` picks the parts. Every line carries the load average and the peak memory (RSS of this process and
 * its children) of the stage. Exits non-zero only on a crash: the goals are reported, not asserted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSpeechEngine, fasterWhisperAvailability } from '@moments/ai/asr';
import { wordErrorRate } from '@moments/ai/wer';
import { createTranslator } from '@moments/ai/translate';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { extractAudioForAsr, probeMedia } from '@moments/media/probe';
import { DENSE_FACTOR, analyzeSubjects } from '@moments/media/reframe';
import { sharedMediaDir, synthesizeSpeech } from '@moments/media/testing';
import { startBenchServer, uploadAndRunTask } from './bench-server';
import {
  buildClipCaptions,
  type ResolvedClipOptions,
  type StoredTranscript,
} from '../apps/server/src/modules/exports/clip-captions.js';
import {
  measureLoudness,
  planClipFraming,
  renderClip,
  videoEncoderArgs,
  AUDIO_ENCODER_ARGS,
} from '../apps/server/src/modules/exports/clip-render.js';

const PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';
const JFK_REFERENCE =
  'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const CLIP_SEC = 60;
const SOURCE = { width: 1920, height: 1080 };

const inputs = (process.env.SPEED_BENCH_INPUTS ?? '60,600,3600')
  .split(',')
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isFinite(value) && value > 0);

/** `SPEED_BENCH_STAGES=task` (or `export`, comma separated) runs only those parts. */
const stages = (process.env.SPEED_BENCH_STAGES ?? 'export,task').split(',').map((v) => v.trim());

const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/** Resident memory of this process and every descendant (ffmpeg, whisper), summed. */
async function treeRssBytes(): Promise<number> {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    for (let p: number | undefined = pid; p; p = parents.get(p)) {
      if (p === process.pid) {
        total += bytes;
        break;
      }
    }
  }
  return total;
}

/** Runs `work`, returning its result, wall seconds and the peak tree RSS sampled every 200 ms. */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; sec: number; peak: number }> {
  let peak = await treeRssBytes();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await treeRssBytes());
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const started = performance.now();
  try {
    const value = await work();
    return { value, sec: (performance.now() - started) / 1000, peak };
  } finally {
    sampling = false;
    await sampler;
  }
}

export default async function run(): Promise<void> {
  console.log(
    `speed: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), ${mb(os.totalmem())}; ` +
      `uptime: ${execFileSync('uptime').toString().trim()}`,
  );
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-speed-bench-'));
  try {
    if (stages.includes('export')) await faceAndExport(dir);
    if (stages.includes('task')) await transcription(dir);
    if (stages.includes('asr-options')) await asrOptions(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    console.log(`speed: done; uptime: ${execFileSync('uptime').toString().trim()}`);
  }
}

/** Three words every 1.2 s, like brisk speech, for the captions of the export. */
function syntheticTranscript(durationSec: number): StoredTranscript {
  const vocabulary = 'the quick brown fox jumps over the lazy dog while 42 birds sing'.split(' ');
  const segments: StoredTranscript['segments'] = [];
  for (let start = 0; start + 1200 <= durationSec * 1000; start += 1200) {
    const words = [0, 1, 2].map((i) => ({
      text: vocabulary[(start / 400 + i) % vocabulary.length]!,
      startMs: start + i * 400,
      endMs: start + i * 400 + 350,
    }));
    segments.push({
      startMs: start,
      endMs: start + 1150,
      text: words.map((w) => w.text).join(' '),
      words,
    });
  }
  return { language: 'en', segments };
}

async function faceAndExport(dir: string): Promise<void> {
  if (!existsSync(PHOTO)) {
    console.log(`speed: export and face stages skipped, ${PHOTO} is missing (opencv-doc)`);
    return;
  }
  // A 1080p source with a face that wanders left and right, so the crop really pans.
  const source = path.join(dir, 'face-source.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=${SOURCE.width}x${SOURCE.height}:rate=30`],
    ...['-loop', '1', '-i', PHOTO],
    ...['-f', 'lavfi', '-i', `sine=frequency=220:sample_rate=48000:duration=${CLIP_SEC}`],
    '-filter_complex',
    "[1:v]crop=130:150:180:45,scale=390:450[h];[0:v][h]overlay=x='760+600*sin(t/4)':y=300:shortest=1,format=yuv420p[v]",
    ...['-map', '[v]', '-map', '2:a', '-t', String(CLIP_SEC)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', source],
  ]);

  // A still shot (an interview framed once): the adaptive sampling skips the detector there.
  const still = path.join(dir, 'still-source.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', `color=c=0x406080:s=${SOURCE.width}x${SOURCE.height}:r=30`],
    ...['-loop', '1', '-i', PHOTO],
    '-filter_complex',
    '[1:v]crop=130:150:180:45,scale=390:450[h];[0:v][h]overlay=x=760:y=300:shortest=1,noise=alls=4:allf=t,format=yuv420p[v]',
    ...['-map', '[v]', '-t', String(CLIP_SEC), '-c:v', 'libx264', '-preset', 'ultrafast', still],
  ]);
  const stillAnalysis = await measured(() =>
    analyzeSubjects(still, { startMs: 0, endMs: CLIP_SEC * 1000 }),
  );
  console.log(
    `speed: face analysis of a still shot: ${stillAnalysis.value.frames.length} frames, ` +
      `${stillAnalysis.value.detectorRuns ?? stillAnalysis.value.frames.length} through the detector, ` +
      `${(stillAnalysis.value.frames.length / stillAnalysis.sec).toFixed(1)} frames/s ` +
      `(${stillAnalysis.sec.toFixed(1)} s, peak ${mb(stillAnalysis.peak)}); ${load()}`,
  );

  // Face analysis vs decoding the same frames alone (same seek, decode rate and analysis size:
  // the analysis decodes more frames than it samples, to catch cuts between samples).
  const analysis = await measured(() =>
    analyzeSubjects(source, { startMs: 0, endMs: CLIP_SEC * 1000 }),
  );
  const analysed = analysis.value.frames.length;
  const { frameSize, sampleFps } = analysis.value;
  const decode = await measured(() =>
    runFfmpeg([
      ...['-t', String(CLIP_SEC), '-i', source, '-an'],
      ...[
        '-vf',
        `fps=${sampleFps * DENSE_FACTOR},scale=${frameSize.width}:${frameSize.height}:flags=area,format=rgb24`,
      ],
      ...['-f', 'null', '-'],
    ]),
  );
  const analysedFps = analysed / analysis.sec;
  const decodeFps = analysed / decode.sec;
  console.log(
    `speed: face analysis ${analysed} frames (${analysis.value.detectorRuns ?? analysed} through the detector) ` +
      `at ${frameSize.width}x${frameSize.height} from 1080p: ` +
      `${analysedFps.toFixed(1)} frames/s (${analysis.sec.toFixed(1)} s, peak ${mb(analysis.peak)}) vs ` +
      `decode alone ${decodeFps.toFixed(1)} frames/s (${decode.sec.toFixed(1)} s, peak ${mb(decode.peak)}); ` +
      `ratio ${(decodeFps / analysedFps).toFixed(2)}x slower than decode; goal >= 40 frames/s; ${load()}`,
  );

  // The whole export, through the exporter's own functions, vs the encode alone.
  const options: ResolvedClipOptions = {
    aspect: '9:16',
    quality: '1080p',
    template: 'karaoke',
    captionDisplay: 'source',
    sourceLang: 'en',
    targetLang: null,
    startMs: 0,
    endMs: CLIP_SEC * 1000,
    transcriptText: null,
    layout: 'auto',
  };
  const clip = path.join(dir, 'clip.mp4');
  const exported = await measured(async () => {
    const captions = await buildClipCaptions(
      syntheticTranscript(CLIP_SEC),
      options,
      SOURCE,
      createTranslator({}),
    );
    const assFile = path.join(dir, 'captions.ass');
    await fs.writeFile(assFile, captions.ass, 'utf8');
    const output = { width: captions.width, height: captions.height };
    const t0 = performance.now();
    const [framing, loudness] = await Promise.all([
      planClipFraming(source, { ...options, source: SOURCE, output }),
      measureLoudness(source, options.startMs, options.endMs),
    ]);
    const t1 = performance.now();
    await renderClip({
      sourceFile: source,
      outputFile: clip,
      assFile,
      startMs: options.startMs,
      endMs: options.endMs,
      framing,
      hasAudio: true,
      loudness,
    });
    return {
      output,
      layout: framing.layout,
      analysisSec: (t1 - t0) / 1000,
      renderSec: (performance.now() - t1) / 1000,
    };
  });
  const { output } = exported.value;
  // The limit: decoding the finished clip (cheap at this size) and encoding it again with the
  // exporter's own video and audio settings.
  const encode = await measured(() =>
    runFfmpeg([
      ...['-i', clip, '-map', '0:v:0', '-map', '0:a:0'],
      ...videoEncoderArgs(),
      ...AUDIO_ENCODER_ARGS,
      ...['-f', 'mp4', '-y', path.join(dir, 'encode-alone.mp4')],
    ]),
  );
  console.log(
    `speed: export ${CLIP_SEC} s to ${output.width}x${output.height}, karaoke captions, ${exported.value.layout} ` +
      `reframing: ${exported.sec.toFixed(1)} s end to end (analysis+loudness ${exported.value.analysisSec.toFixed(1)} s, ` +
      `render ${exported.value.renderSec.toFixed(1)} s, peak ${mb(exported.peak)}) vs x264 encode alone ` +
      `${encode.sec.toFixed(1)} s (peak ${mb(encode.peak)}); ratio ${(exported.sec / encode.sec).toFixed(2)} ` +
      `(goal <= 1.3, and <= 30 s); ${load()}`,
  );
}

async function transcription(dir: string): Promise<void> {
  // The recorded speech beside the checkout (or where SHARED_MEDIA_DIR says, e.g. for a worktree).
  const media = process.env.SHARED_MEDIA_DIR || sharedMediaDir();
  const asr = fasterWhisperAvailability();
  if (!asr.available || !media) {
    console.log(
      `speed: task stages skipped (${asr.available ? '../shared/media is absent' : asr.reason})`,
    );
    return;
  }
  const engine = createSpeechEngine();

  // Accuracy beside speed: WER of the recorded JFK speech.
  const jfk = await measured(() => engine.transcribe(path.join(media, 'jfk.flac')));
  const text = jfk.value.segments.map((s) => s.text).join(' ');
  console.log(
    `speed: ASR ${engine.name} on jfk.flac: WER ${(wordErrorRate(JFK_REFERENCE, text) * 100).toFixed(1)}%, ` +
      `${(jfk.value.durationMs / 1000 / jfk.sec).toFixed(2)}x real time (model load included), ` +
      `peak ${mb(jfk.peak)}; ${load()}`,
  );

  const dataDir = path.join(dir, 'server');
  const server = await startBenchServer(dataDir, 'speed');
  try {
    for (const seconds of inputs) {
      const video = path.join(dir, `talk-${seconds}.mp4`);
      // The real English recordings, looped, on a test pattern.
      await runFfmpeg([
        ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25'],
        ...['-i', path.join(media, 'jfk.flac'), '-i', path.join(media, 'multilingual-en-de.mp3')],
        '-filter_complex',
        '[1:a]aresample=44100[a];[2:a]atrim=0:29.5,aresample=44100[b];[a][b]concat=n=2:v=0:a=1,aloop=loop=-1:size=2e9[out]',
        ...['-map', '0:v', '-map', '[out]', '-t', String(seconds)],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', video],
      ]);

      const task = await measured(() => uploadAndRunTask(server, video));
      // The limit: the engine alone on the audio the task transcribes.
      const wav = path.join(dir, `talk-${seconds}.wav`);
      await extractAudioForAsr(video, wav);
      const alone = await measured(() => engine.transcribe(wav));
      console.log(
        `speed: task ${seconds} s input: upload to ${task.value.status} ${task.sec.toFixed(1)} s ` +
          `(${(seconds / task.sec).toFixed(2)}x real time, peak ${mb(task.peak)}; upload ${task.value.uploadSeconds.toFixed(1)} s, ${task.value.stages}) vs ` +
          `ASR alone ${alone.sec.toFixed(1)} s (${(seconds / alone.sec).toFixed(2)}x real time, peak ${mb(alone.peak)}); ` +
          `ratio ${(task.sec / alone.sec).toFixed(2)}; goal >= 15x real time; ${load()}`,
      );
      await fs.rm(video, { force: true });
      await fs.rm(wav, { force: true });
    }
  } finally {
    await server.close();
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
    const engine = createSpeechEngine({ ...process.env, ...setting });
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
