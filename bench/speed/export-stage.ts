/**
 * The export stage of `npm run bench -- speed`: a 16 s and a 60 s 1080x1920
 * export of real-looking footage (a speaker walking about, two people, a slide talk with the
 * speaker's inset, a wide shot of a crowd, with cuts between them; made from real photos at bench
 * time) through the product itself (POST /api/job on the in-process server, the real renderer),
 * each next to an x264 veryfast encode alone of the same span and size, in the same run, both
 * centre-cropped (the simplest encode of the span) and framed by the export's own plan (the very
 * frames the export encodes; following a walking speaker makes x264 itself work harder):
 *  - after the background analysis (the framing-prepare job's own code): the export only renders;
 *  - without it: the export analyses the span first.
 * Wall seconds and CPU seconds (this process and its ffmpeg children): on a machine others share,
 * the CPU ratio is the steadier one.
 * Also the face/shot analysis frames/s beside decoding the same frames alone.
 */
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Job } from '@moments/contract';
import { runFfmpeg } from '@moments/media/ffmpeg';
import {
  DENSE_FACTOR,
  analyzeSubjects,
  reframeFilter,
  type ReframePlan,
} from '@moments/media/reframe';
import { humanAssetsDir, makeFootage, slideFontFile } from '@moments/media/testing';
import { eq } from 'drizzle-orm';
import { jobs, moments } from '../../apps/server/src/db/schema.js';
import {
  AUDIO_ENCODER_ARGS,
  videoEncoderArgs,
} from '../../apps/server/src/modules/media/clip-render.js';
import type { JobOptions } from '../../apps/server/src/modules/exports/export-renderer.js';
import { TasksRepository } from '../../apps/server/src/modules/tasks/tasks.repository.js';
import { startBenchServer, type BenchServer } from '../bench-server';

/** Long enough for the 60 s clip and every kind of shot (five shots of 16 s). */
const SOURCE_SEC = 80;
const CLIPS = [
  { name: '16 s', startMs: 17_000, endMs: 33_000 },
  { name: '60 s', startMs: 8_000, endMs: 68_000 },
];
const OUTPUT = { width: 1080, height: 1920 };

const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/**
 * CPU seconds used so far by this process (the in-process server, its detector thread) and its
 * finished children (ffmpeg), from /proc/self/stat: on a machine other work shares, CPU time says
 * what a run costs where wall time also says how busy the machine was.
 */
async function cpuSeconds(): Promise<{ own: number; children: number }> {
  const stat = await readFile('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the name; 100 ticks a second.
  const ticks = (a: number, b: number) => (Number(fields[a]) + Number(fields[b])) / 100;
  return { own: ticks(11, 12), children: ticks(13, 14) };
}

/** Wall and CPU seconds of `work`, and this process's peak resident memory so far. */
export async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; sec: number; cpu: number; ffmpegCpu: number; peak: number }> {
  const before = await cpuSeconds();
  const started = performance.now();
  const value = await work();
  const after = await cpuSeconds();
  const ffmpegCpu = after.children - before.children;
  return {
    value,
    sec: (performance.now() - started) / 1000,
    cpu: after.own - before.own + ffmpegCpu,
    ffmpegCpu,
    peak: process.resourceUsage().maxRSS * 1024,
  };
}

export async function exportStage(dir: string): Promise<void> {
  if (!humanAssetsDir() || !slideFontFile()) {
    console.log('speed: export stage skipped (no @vladmandic/human demo images or Noto Sans)');
    return;
  }
  const source = path.join(dir, 'footage.mp4');
  const made = await measured(() =>
    makeFootage('mixed', source, { durationSec: SOURCE_SEC, fps: 30, preset: 'veryfast' }),
  );
  console.log(
    `speed: ${SOURCE_SEC} s of 1920x1080 footage made in ${made.sec.toFixed(1)} s ` +
      `(cuts at ${made.value.cutsSec.join(', ')} s: speaker, two people, slide talk, crowd, speaker)`,
  );
  await analysisBesideDecode(source);

  // Billing off: the free plan's three exports would not cover the four.
  const server = await startBenchServer(path.join(dir, 'export-server'), 'exporter', {
    BILLING: 'off',
  });
  try {
    const prepared = await seedTask(server, source, 'prepared');
    const background = await measured(() =>
      server.services.framingPreparer.prepareTask(prepared.taskId),
    );
    console.log(
      `speed: background analysis of both clips (the framing-prepare job): ` +
        `${background.sec.toFixed(1)} s, ${background.value.framesDecoded} frames decoded, ` +
        `bench process peak ${mb(background.peak)}; ${load()}`,
    );
    const cold = await seedTask(server, source, 'cold');
    for (const [index, clip] of CLIPS.entries()) {
      const out = path.join(dir, 'alone.mp4');
      const centred = () => measured(() => encodeAlone(source, clip, out));
      // Export, encodes, export: a load that rises or falls meanwhile weighs on both alike.
      const first = await measured(() => exportThroughApi(server, prepared.momentIds[index]!));
      const plan = first.value.plan;
      const framed = () => measured(() => encodeAlone(source, clip, out, plan));
      const limits = { centred: [await centred()], framed: [await framed()] };
      limits.framed.push(await framed());
      limits.centred.push(await centred());
      const second = await measured(() => exportThroughApi(server, prepared.momentIds[index]!));
      report(clip.name, 'after the background analysis', [first, second], limits);
      // Without it (another copy of the source, never analysed): the export analyses first.
      const unprepared = await measured(() => exportThroughApi(server, cold.momentIds[index]!));
      report(clip.name, 'analysing at export time', [unprepared], {
        centred: [await centred()],
        framed: [await framed()],
      });
    }
  } finally {
    await server.close();
  }
}

type Run = Awaited<ReturnType<typeof measured<Awaited<ReturnType<typeof exportThroughApi>>>>>;
type Limit = { sec: number; cpu: number };

/** One line per clip and case: the exports' wall and CPU time beside the encodes' alone. */
function report(
  clip: string,
  label: string,
  exports: Run[],
  limits: { centred: Limit[]; framed: Limit[] },
): void {
  const total = <R extends Record<K, number>, K extends string>(runs: R[], key: K) =>
    runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
  const [wall, cpu] = [total(exports, 'sec'), total(exports, 'cpu')];
  const ffmpegCpu = total(exports, 'ffmpegCpu');
  const versus = (runs: Limit[]) => {
    const [sec, cpuAlone] = [total(runs, 'sec'), total(runs, 'cpu')];
    return (
      `${sec.toFixed(1)} s wall, ${cpuAlone.toFixed(1)} CPU-s: ratio ${(wall / sec).toFixed(2)} wall, ` +
      `${(cpu / cpuAlone).toFixed(2)} CPU`
    );
  };
  const { layout, attached } = exports[0]!.value;
  console.log(
    `speed: export ${clip} to ${OUTPUT.width}x${OUTPUT.height} (${label}; ${layout} framing` +
      `${attached ? ', plan ready when the job started' : ''}; mean of ${exports.length}): ` +
      `${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} CPU-s (ffmpeg ${ffmpegCpu.toFixed(1)}); ` +
      `x264 veryfast encode alone of the same span and size, centre-cropped: ${versus(limits.centred)}; ` +
      `framed as the export frames it: ${versus(limits.framed)} (goal <= 1.3 after the background ` +
      `analysis); bench process peak ${mb(exports[0]!.peak)}; ${load()}`,
  );
}

/** Shot analysis of the footage's first minute vs decoding the same frames alone. */
async function analysisBesideDecode(source: string): Promise<void> {
  const analysis = await measured(() => analyzeSubjects(source, { startMs: 0, endMs: 60_000 }));
  const { frameSize, sampleFps, frames } = analysis.value;
  const decode = await measured(() =>
    runFfmpeg([
      ...['-t', '60', '-i', source, '-an'],
      '-vf',
      `fps=${sampleFps * DENSE_FACTOR},scale=${frameSize.width}:${frameSize.height}:flags=area,format=rgb24`,
      ...['-f', 'null', '-'],
    ]),
  );
  const analysedFps = frames.length / analysis.sec;
  const decodeFps = frames.length / decode.sec;
  console.log(
    `speed: shot analysis of 60 s of the footage, ${frames.length} frames ` +
      `(${analysis.value.detectorRuns} through the face detector) at ${frameSize.width}x${frameSize.height}: ` +
      `${analysedFps.toFixed(1)} frames/s (${analysis.sec.toFixed(1)} s, ${analysis.cpu.toFixed(1)} CPU-s) ` +
      `vs decode alone ${decodeFps.toFixed(1)} frames/s (${decode.sec.toFixed(1)} s, ` +
      `${decode.cpu.toFixed(1)} CPU-s); ratio ` +
      `${(decodeFps / analysedFps).toFixed(2)}x slower than decode; ${load()}`,
  );
}

/** A DONE task of the footage (under its own media key) with one moment per clip. */
export async function seedTask(
  server: BenchServer,
  source: string,
  name: string,
  clips: { name: string; startMs: number; endMs: number }[] = CLIPS,
  sourceSec = SOURCE_SEC,
) {
  const { services, userId } = server;
  const repo = new TasksRepository(services.database.db);
  const task = await repo.insert({
    userId,
    kind: 'viral',
    urlSource: 'upload',
    video: { url: 'upload://bench', title: `Footage ${name}` },
    sourceLang: 'en',
    captionDisplay: 'source',
    status: 'DONE',
    stage: 'finishing',
    progress: 100,
    detectedLang: 'en',
    durationMs: sourceSec * 1000,
  });
  const mediaKey = `users/${userId}/tasks/${task.id}/source.mp4`;
  await services.storage.putFile(mediaKey, source);
  await repo.update(task.id, { mediaKey });
  const words = speechWords(sourceSec);
  await repo.saveTranscript({
    taskId: task.id,
    language: 'en',
    durationMs: sourceSec * 1000,
    engine: 'bench',
    segments: sentences(words),
  });
  const rows = await services.database.db
    .insert(moments)
    .values(
      clips.map((clip, rank) => ({
        taskId: task.id,
        userId,
        type: 'video_snippet',
        rank,
        startMs: clip.startMs,
        endMs: clip.endMs,
        score: 80,
        title: `Clip ${clip.name}`,
        transcript: '',
      })),
    )
    .returning({ id: moments.id });
  return { taskId: task.id, momentIds: rows.map((row) => row.id) };
}

/** Three words every 1.2 s, like brisk speech, for the captions (word-by-word karaoke). */
function speechWords(durationSec: number) {
  const vocabulary = 'the quick brown fox jumps over the lazy dog while 42 birds sing'.split(' ');
  const words: { text: string; startMs: number; endMs: number; confidence: number }[] = [];
  for (let start = 0; start + 1200 <= durationSec * 1000; start += 1200) {
    for (let i = 0; i < 3; i++) {
      const text = vocabulary[(start / 400 + i) % vocabulary.length]!;
      words.push({ text, startMs: start + i * 400, endMs: start + i * 400 + 350, confidence: 0.9 });
    }
  }
  return words;
}

/** Words grouped into sentences of six seconds, each ending on a full stop. */
function sentences(words: ReturnType<typeof speechWords>) {
  const groups: (typeof words)[] = [];
  for (const word of words) {
    const group = groups[groups.length - 1];
    if (!group || word.startMs - group[0]!.startMs >= 6000) groups.push([word]);
    else group.push(word);
  }
  return groups.map((group) => {
    const last = group[group.length - 1]!;
    last.text = `${last.text}.`;
    return {
      startMs: group[0]!.startMs,
      endMs: last.endMs,
      text: group.map((word) => word.text).join(' '),
      words: group,
    };
  });
}

/** POST /api/job for a moment with the studio's defaults, waited for until DONE. */
export async function exportThroughApi(server: BenchServer, momentId: string) {
  const { app, headers, services } = server;
  const started = await app.inject({
    method: 'POST',
    url: '/api/job',
    headers,
    payload: {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: momentId,
      options: { aspect: '9:16', quality: '1080p', template: 'karaoke' },
    },
  });
  if (started.statusCode !== 200) throw new Error(`export refused: ${started.body}`);
  const jobId = Job.parse(started.json().data).job_id;
  const storedOptions = async () => {
    const [row] = await services.database.db
      .select({ options: jobs.options })
      .from(jobs)
      .where(eq(jobs.id, jobId));
    return row?.options as JobOptions | undefined;
  };
  const attached = Boolean((await storedOptions())?.framing);
  for (;;) {
    const job = Job.parse(
      (await app.inject({ method: 'GET', url: `/api/job/${jobId}`, headers })).json().data,
    );
    if (job.status === 'ERROR') throw new Error(`export failed: ${job.error_reason}`);
    if (job.status === 'DONE') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const framing = (await storedOptions())?.framing;
  if (!framing || framing.layout === 'scale') throw new Error('an export without a framing plan');
  return { attached, layout: framing.layout, plan: framing.plan };
}

/**
 * The limit: the same span decoded, cropped and scaled to the same size, encoded with the
 * exporter's own x264 settings, threads and audio, and nothing else. Centre-cropped (the
 * simplest encode of the span), or, with `plan`, framed by the export's own plan: the same
 * frames the export encodes (a pan costs x264 more than a still crop), without its captions,
 * loudness or job around them.
 */
export async function encodeAlone(
  source: string,
  clip: { startMs: number; endMs: number },
  out: string,
  plan?: ReframePlan,
): Promise<void> {
  const threads = String(availableParallelism());
  await runFfmpeg([
    ...['-filter_complex_threads', threads, '-threads', threads],
    ...['-ss', (clip.startMs / 1000).toFixed(3), '-to', (clip.endMs / 1000).toFixed(3)],
    ...['-i', source],
    '-vf',
    plan
      ? `${reframeFilter(plan)},format=yuv420p`
      : `crop=ih*9/16:ih,scale=${OUTPUT.width}:${OUTPUT.height}:flags=lanczos,setsar=1,format=yuv420p`,
    ...videoEncoderArgs({ threads: Number(threads) }),
    ...AUDIO_ENCODER_ARGS,
    ...['-movflags', '+faststart', '-f', 'mp4', '-y', out],
  ]);
}
