/**
 * Shot analysis of a video range: faces on frames sampled a few times per second (denser right
 * around cuts), how open their mouths are when two or three share the frame, what else the frame
 * shows (slides and screens, brightness under the captions: scene.ts), the loudness of the sound
 * every 100 ms, tracks that link the faces, and shot cuts. One ffmpeg process decodes each part
 * of the range not analysed before: every frame goes through ffmpeg's `scdet` scene detector
 * (exact cut times), the sound through `astats`, and a sampled, downscaled copy is piped out as
 * raw RGB for the face detector.
 */
import { uprightFrameSize } from '@moments/domain/frame';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MediaError } from '../errors/index.js';
import { readRawFrames, runFfprobe, spawnFfmpegStream } from '../ffmpeg/index.js';
import type { Size } from './aspect';
import { loadFaceDetector, type FaceBox, type FaceDetector } from './detect';
import { interpolateFaces } from './interpolate';
import {
  detectionSettings,
  uncoveredRanges,
  type DetectedStretch,
  type DetectionStore,
  type EnergySample,
  type TimeRange,
} from './detections';
import { measureScene } from './scene';
import { buildTracks, type AnalyzedFrame, type SubjectTrack } from './track';

export interface SubjectAnalysis {
  /** Displayed size of the source video (rotation applied), in pixels. */
  source: Size;
  /** Analysed range in the source's own time; every other time here counts from `startMs`. */
  startMs: number;
  endMs: number;
  /** Base sampling rate; right after a cut the samples are denser (see DENSE_FACTOR). */
  sampleFps: number;
  /** Size the frames were analysed at. */
  frameSize: Size;
  /** Sampled frames with their faces in source pixels. */
  frames: AnalyzedFrame[];
  /** Frames this call decoded and looked at; the others came from stored detections. */
  decodedFrames: number;
  /** How many of the decoded frames went through the detector (the others were still). */
  detectorRuns: number;
  /** Faces linked across frames; never across a shot cut. */
  tracks: SubjectTrack[];
  /** Times of hard cuts, in ms from `startMs`. */
  shotCutsMs: number[];
  /** Loudness of the sound (dBFS) every 100 ms, times from `startMs`; empty without sound. */
  energy: EnergySample[];
}

export interface AnalyzeOptions {
  startMs?: number;
  endMs?: number;
  /** Frames per second given to the face detector. Default 4. */
  sampleFps?: number;
  signal?: AbortSignal;
  /** Fraction of the range analysed so far, in [0, 1]. */
  onProgress?: (fraction: number) => void;
  /** Folder for scratch files (the caller's run folder); default: the OS temp folder. */
  workDir?: string;
  /**
   * Detections of this same source made earlier: only the parts of the range they miss are
   * decoded, and what is decoded is added to them.
   */
  detections?: DetectionStore;
  /** The audio stream whose loudness tells who speaks (`0:a:N`, the speech); default the first. */
  audioStream?: number;
}

/** Long side of the frames given to the detector (design.md measured ~25 ms at 640x360). */
const ANALYSIS_LONG_SIDE = 640;
/** Frames decoded ahead of the detector (each 640x360 RGB frame is 0.7 MB). */
const READ_AHEAD_FRAMES = 8;
/**
 * Mean per-byte difference (0-255) under which a frame counts as the same still picture as the
 * last analysed one: compression noise and a talking mouth in a still shot stay well under it,
 * a cut, a pan or a subject walking across the frame go over it.
 */
const STILL_FRAME_DIFFERENCE = 3;
/** Per-byte difference a sample may add over its neighbours' and still count as between them. */
const BETWEEN_NOISE = 1;
/** Even in a still shot the detector looks again at least this often. */
const STILL_REUSE_MAX_MS = 1000;
/** scdet's score (0-100) above which a frame starts a new shot; ffmpeg's own default. */
const SCENE_CUT_THRESHOLD = 10;
/**
 * Frames are decoded this many times faster than `sampleFps`; the extra ones are kept only
 * around a cut, where the new shot's subject must be found at once.
 */
export const DENSE_FACTOR = 2;
/** How long after a cut every decoded frame is a sample. */
const DENSE_AFTER_CUT_MS = 500;
/**
 * scdet's rule on the decoded frames, in per-byte units (10% of 255): a frame differs this much
 * from the last one, and this much more than the last one did from its own predecessor (so a
 * steady pan is not a cut).
 */
const CUT_FRAME_SCORE = 25;
/**
 * Decoding starts this long before a stretch, so scdet and the cut rule above have the frames
 * before its first one, as they would in one long decode.
 */
const PREROLL_MS = DENSE_AFTER_CUT_MS;
/** Mouths are measured with two or three faces in the frame; more is a crowd (a wide shot). */
const MAX_FACES_FOR_MOUTHS = 3;
/** The sound's loudness is read every ENERGY_STEP_MS, from a copy resampled to ENERGY_RATE. */
const ENERGY_STEP_MS = 100;
const ENERGY_RATE = 8000;

export async function analyzeSubjects(
  videoFile: string,
  options: AnalyzeOptions = {},
): Promise<SubjectAnalysis> {
  const sampleFps = options.sampleFps ?? 4;
  if (!(sampleFps > 0 && sampleFps <= 30)) throw new RangeError('sampleFps must be in (0, 30]');
  const input = 'file:' + resolve(videoFile); // never read as an option or a protocol URL
  const probed = await probeVideo(input, options.signal);
  const startMs = Math.max(0, options.startMs ?? 0);
  const endMs = Math.min(options.endMs ?? probed.durationMs, probed.durationMs || Infinity);
  if (!(endMs > startMs)) {
    throw new MediaError('INVALID_RANGE', `nothing to analyse between ${startMs} and ${endMs} ms`);
  }
  const frameSize = analysisFrameSize(probed.size);
  const settings = detectionSettings(sampleFps, ANALYSIS_LONG_SIDE);
  const known = options.detections
    ? (await options.detections.find(settings, startMs, endMs)).filter(
        (stretch) =>
          stretch.source.width === probed.size.width &&
          stretch.source.height === probed.size.height,
      )
    : [];
  const gaps = uncoveredRanges({ startMs, endMs }, known);

  const made: DetectedStretch[] = [];
  let decodedFrames = 0;
  let detectorRuns = 0;
  if (gaps.length > 0) {
    const detector = await loadFaceDetector();
    const periodMs = 1000 / sampleFps;
    const expected = Math.max(
      1,
      gaps.reduce((sum, gap) => sum + Math.ceil((gap.endMs - gap.startMs) / periodMs), 0),
    );
    let gridFramesDone = 0;
    if (options.workDir) await mkdir(options.workDir, { recursive: true });
    const workDir = await mkdtemp(join(options.workDir ?? tmpdir(), 'moments-reframe-'));
    try {
      for (const gap of gaps) {
        const result = await analyzeStretch(input, gap, {
          source: probed.size,
          hasAudio: probed.hasAudio,
          audioStream: options.audioStream ?? 0,
          energyFile: join(workDir, `energy-${made.length}.txt`),
          settings,
          sampleFps,
          frameSize,
          detector,
          cutsFile: join(workDir, `cuts-${made.length}.txt`),
          signal: options.signal,
          onGridFrame: () => options.onProgress?.(Math.min(1, ++gridFramesDone / expected)),
        });
        made.push(result.stretch);
        decodedFrames += result.stretch.frames.length;
        detectorRuns += result.detectorRuns;
        // Kept as soon as it is made: a later failure in this range still leaves it for others.
        await options.detections?.save(result.stretch);
      }
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
  options.onProgress?.(1);

  const { frames, shotCutsMs, energy } = framesInRange([...made, ...known], startMs, endMs);
  return {
    source: probed.size,
    startMs,
    endMs,
    sampleFps,
    frameSize,
    frames,
    decodedFrames,
    detectorRuns,
    tracks: buildTracks(frames, { shotCutsMs }),
    shotCutsMs,
    energy,
  };
}

/** The samples, cuts and loudness of [startMs, endMs) from stretches, in ms from `startMs`. */
function framesInRange(
  stretches: DetectedStretch[],
  startMs: number,
  endMs: number,
): { frames: AnalyzedFrame[]; shotCutsMs: number[]; energy: EnergySample[] } {
  const byTime = new Map<number, AnalyzedFrame>();
  const cuts = new Set<number>();
  const energy = new Map<number, number>();
  for (const stretch of stretches) {
    for (const frame of stretch.frames) {
      if (frame.tMs < startMs || frame.tMs >= endMs || byTime.has(frame.tMs)) continue;
      byTime.set(frame.tMs, {
        tMs: frame.tMs - startMs,
        faces: frame.faces.map((face) => ({ ...face })),
        ...(frame.scene && { scene: frame.scene }),
      });
    }
    for (const cut of stretch.shotCutsMs) {
      if (cut > startMs && cut < endMs) cuts.add(cut - startMs);
    }
    for (const sample of stretch.energy ?? []) {
      if (sample.tMs >= startMs && sample.tMs < endMs && !energy.has(sample.tMs)) {
        energy.set(sample.tMs, sample.db);
      }
    }
  }
  return {
    frames: [...byTime.values()].sort((a, b) => a.tMs - b.tMs),
    shotCutsMs: [...cuts].sort((a, b) => a - b),
    energy: [...energy]
      .map(([tMs, db]) => ({ tMs: tMs - startMs, db }))
      .sort((a, b) => a.tMs - b.tMs),
  };
}

interface StretchContext {
  source: Size;
  hasAudio: boolean;
  audioStream: number;
  /** Where ffmpeg prints the sound's loudness every 100 ms. */
  energyFile: string;
  settings: string;
  sampleFps: number;
  frameSize: Size;
  detector: FaceDetector;
  cutsFile: string;
  signal?: AbortSignal;
  onGridFrame: () => void;
}

/**
 * Decodes one stretch once: every frame goes through scdet (exact cut times), a downscaled copy
 * at DENSE_FACTOR x sampleFps is piped out. Samples are the frames on the source's grid, plus every
 * decoded frame just around a cut; the detector skips a sample that looks like the last one it saw.
 */
async function analyzeStretch(
  input: string,
  range: TimeRange,
  context: StretchContext,
): Promise<{ stretch: DetectedStretch; detectorRuns: number }> {
  const { sampleFps, frameSize, signal } = context;
  const periodMs = 1000 / sampleFps;
  const { stream, seekMs } = spawnStretchDecode(input, range, context);
  const frames: AnalyzedFrame[] = [];
  const { detect, withMouths, describe, detectorRuns } = frameInspector(context);
  // Still frames: a sample that looks like the last one the detector saw keeps its faces (at
  // most STILL_REUSE_MAX_MS apart); cuts and movement always get the detector.
  let lastDetected: { rgb: Buffer; tMs: number; faces: FaceBox[] } | undefined;
  // The last sample whose faces are known, and a sample after it waiting for the next known one:
  // when both neighbours agree, its faces are interpolated instead of detected (interpolate.ts).
  type KnownSample = { rgb: Buffer; tMs: number; shot: number; faces: FaceBox[] };
  let lastKnown: KnownSample | undefined;
  let waiting: { rgb: Buffer; frame: AnalyzedFrame; shot: number } | undefined;
  let shot = 0;
  const settleWaiting = async (next?: KnownSample) => {
    if (!waiting) return;
    const { frame } = waiting;
    const before = lastKnown;
    const sameShot = before?.shot === waiting.shot && next?.shot === waiting.shot;
    const between =
      next && before && sameShot && looksBetween(before.rgb, waiting.rgb, next.rgb)
        ? interpolateFaces(
            before.faces,
            next.faces,
            (frame.tMs - before.tMs) / (next.tMs - before.tMs),
          )
        : undefined;
    frame.faces = await withMouths(waiting.rgb, between ?? (await detect(waiting.rgb)));
    waiting = undefined;
  };
  const inRange = (tMs: number) => tMs >= range.startMs && tMs < range.endMs;
  /** `mayWait`: may wait for its successor; `lookAhead`: past the range, only to settle one. */
  const sample = async (rgb: Buffer, tMs: number, mayWait: boolean, lookAhead = false) => {
    let faces: FaceBox[];
    if (
      lastDetected &&
      tMs - lastDetected.tMs <= STILL_REUSE_MAX_MS &&
      meanAbsoluteDifference(lastDetected.rgb, rgb) < STILL_FRAME_DIFFERENCE
    ) {
      faces = lastDetected.faces;
    } else if (mayWait && !waiting && lastKnown?.shot === shot) {
      // Every other moving sample waits for its successor (the frames are offline, look ahead).
      const frame: AnalyzedFrame = { tMs, faces: [], scene: describe(rgb) };
      frames.push(frame);
      waiting = { rgb, frame, shot };
      return;
    } else {
      faces = await detect(rgb);
      lastDetected = { rgb, tMs, faces };
    }
    const known = { rgb, tMs, shot, faces };
    await settleWaiting(known);
    lastKnown = known;
    if (lookAhead) return;
    const scene = describe(rgb);
    frames.push({ tMs, faces: await withMouths(rgb, faces.map(copyBox)), scene });
  };

  let previous: { rgb: Buffer; tMs: number; difference: number; sampled: boolean } | undefined;
  let lastCutMs = -Infinity;
  try {
    const frameBytes = frameSize.width * frameSize.height * 3;
    let index = 0;
    // Read ahead, so ffmpeg decodes the next frames while the detector works on this one.
    for await (const rgb of readAhead(
      readRawFrames(stream.stdout, frameBytes),
      READ_AHEAD_FRAMES,
    )) {
      if (signal?.aborted) throw new MediaError('ABORTED', 'analysis was cancelled');
      const tMs = Math.round(seekMs + (index * periodMs) / DENSE_FACTOR);
      const onGrid = index % DENSE_FACTOR === 0;
      index++;
      const difference = previous ? meanAbsoluteDifference(previous.rgb, rgb) : 0;
      const cutScore = previous
        ? Math.min(difference, Math.abs(difference - previous.difference))
        : 0;
      if (previous && cutScore > CUT_FRAME_SCORE) {
        lastCutMs = tMs;
        // The old shot's last frame too, so its path ends on a fresh sample.
        if (!previous.sampled && inRange(previous.tMs)) {
          await sample(previous.rgb, previous.tMs, false);
        }
        await settleWaiting(); // nothing after the cut may stand in for the old shot's frames
        shot++;
      }
      const dense = tMs - lastCutMs < DENSE_AFTER_CUT_MS;
      const sampled = inRange(tMs) && (onGrid || dense);
      // Odd samples of the source's grid may wait, so any analysis of a span makes the same choice.
      const mayWait = onGrid && !dense && Math.round(tMs / periodMs) % 2 === 1;
      if (sampled) await sample(rgb, tMs, mayWait);
      else if (waiting && onGrid && tMs >= range.endMs) await sample(rgb, tMs, false, true);
      if (onGrid && inRange(tMs)) context.onGridFrame();
      previous = { rgb, tMs, difference, sampled };
    }
    await settleWaiting();
  } catch (error) {
    stream.stop();
    // ffmpeg's own failure is secondary: the error rethrown below is what failed.
    await stream.done.catch(() => undefined);
    throw error;
  }
  await stream.done;

  const { shotCutsMs, energy } = await readSideFiles(context, seekMs, inRange);
  const { settings, source } = context;
  const { startMs, endMs } = range;
  return {
    stretch: { settings, source, startMs, endMs, frames, shotCutsMs, energy },
    detectorRuns: detectorRuns(),
  };
}

const copyBox = (face: FaceBox): FaceBox => ({ ...face });

/**
 * One ffmpeg process for a stretch: every frame through scdet (cut times to a file), a sampled,
 * downscaled RGB copy piped out, the sound's loudness every 100 ms to a file. Decoding starts on
 * the source's sample grid a little before the stretch (so the cut detectors have history) and
 * runs one sample period past its end (a sample waiting for its successor gets one).
 */
function spawnStretchDecode(input: string, range: TimeRange, context: StretchContext) {
  const { sampleFps, frameSize, signal } = context;
  const periodMs = 1000 / sampleFps;
  const firstIndex = Math.ceil(range.startMs / periodMs - 1e-6);
  const prerollFrames = Math.min(firstIndex, Math.ceil(PREROLL_MS / periodMs));
  const seekMs = (firstIndex - prerollFrames) * periodMs;
  const durationMs = range.endMs + periodMs - seekMs;
  const graph = [
    '[0:v:0]split=2[rf_scd][rf_det]',
    // A small copy is enough to see a cut, and keeps scdet cheap on 1080p sources.
    `[rf_scd]scale=256:-2:flags=fast_bilinear,scdet=threshold=${SCENE_CUT_THRESHOLD},` +
      `metadata=mode=print:key=lavfi.scd.time:file=${filterPath(context.cutsFile)},nullsink`,
    `[rf_det]fps=${sampleFps * DENSE_FACTOR},` +
      // Box averaging: the right filter for a 3x downscale, and 0.7 CPU-s a minute cheaper than bilinear.
      `scale=${frameSize.width}:${frameSize.height}:flags=area,format=rgb24[rf_frames]`,
    // Speech energy every 100 ms (800 samples at 8 kHz), for who is speaking.
    ...(context.hasAudio
      ? [
          `[0:a:${context.audioStream}]aresample=${ENERGY_RATE},asetnsamples=n=${(ENERGY_RATE * ENERGY_STEP_MS) / 1000}:p=0,` +
            'astats=metadata=1:reset=1:measure_perchannel=none:measure_overall=RMS_level,' +
            `ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=${filterPath(context.energyFile)},anullsink`,
        ]
      : []),
  ].join(';');
  const stream = spawnFfmpegStream(
    [
      ...(seekMs > 0 ? ['-ss', seconds(seekMs)] : []),
      ...['-t', seconds(durationMs), '-i', input, '-filter_complex', graph],
      ...['-map', '[rf_frames]', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ],
    { signal, durationMs },
  );
  return { stream, seekMs };
}

/**
 * What is looked at on a sampled frame: faces (through the detector thread, in source pixels),
 * mouths when two or three people share it, and the scene statistics (scene.ts).
 */
function frameInspector(context: StretchContext) {
  const { frameSize, detector } = context;
  const toSourceX = context.source.width / frameSize.width;
  const toSourceY = context.source.height / frameSize.height;
  let runs = 0;
  const detect = async (rgb: Buffer): Promise<FaceBox[]> => {
    runs++;
    const found = await detector.detectFaces(rgb, frameSize.width, frameSize.height);
    return found.map((face) => ({
      x: face.x * toSourceX,
      y: face.y * toSourceY,
      w: face.w * toSourceX,
      h: face.h * toSourceY,
      score: face.score,
    }));
  };
  // Two or three people: how open each mouth is, for who is speaking (more faces: a wide shot).
  const withMouths = async (rgb: Buffer, faces: FaceBox[]): Promise<FaceBox[]> => {
    if (faces.length < 2 || faces.length > MAX_FACES_FOR_MOUTHS) return faces;
    const inFrame = faces.map((face) => ({
      ...face,
      x: face.x / toSourceX,
      y: face.y / toSourceY,
      w: face.w / toSourceX,
      h: face.h / toSourceY,
    }));
    const mouths = await detector.measureMouths(rgb, frameSize.width, frameSize.height, inFrame);
    return faces.map((face, i) => {
      const mouth = mouths[i];
      return mouth === null || mouth === undefined ? face : { ...face, mouth };
    });
  };
  let lastSampled: Buffer | undefined;
  const describe = (rgb: Buffer) => {
    const motion = lastSampled ? meanAbsoluteDifference(lastSampled, rgb) : 0;
    lastSampled = rgb;
    return measureScene(rgb, frameSize.width, frameSize.height, motion);
  };
  return { detect, withMouths, describe, detectorRuns: () => runs };
}

/** The cut times and loudness ffmpeg wrote for a stretch, in the source's time. */
async function readSideFiles(
  context: StretchContext,
  seekMs: number,
  inRange: (tMs: number) => boolean,
) {
  // ffmpeg writes none of these files when the stretch had no cut or no sound: nothing to read.
  const cutsText = await readFile(context.cutsFile, 'utf8').catch(() => '');
  const shotCutsMs = parseSceneCuts(cutsText)
    .map((cut) => Math.round(seekMs + cut))
    .filter(inRange);
  const energyText = context.hasAudio
    ? // ffmpeg writes no energy file for a stretch without sound: nothing to read.
      await readFile(context.energyFile, 'utf8').catch(() => '')
    : '';
  const energy = parseEnergy(energyText)
    .map((sample) => ({ tMs: Math.round(seekMs + sample.tMs), db: sample.db }))
    .filter((sample) => inRange(sample.tMs));
  return { shotCutsMs, energy };
}

interface ProbedVideo {
  size: Size;
  durationMs: number;
  hasAudio: boolean;
}

async function probeVideo(input: string, signal?: AbortSignal): Promise<ProbedVideo> {
  const json = await runFfprobe(
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,width,height,duration:stream_tags=rotate:stream_side_data=rotation:format=duration',
      '-of',
      'json',
      '-i',
      input,
    ],
    { signal },
  );
  const parsed = JSON.parse(json) as {
    streams?: {
      codec_type?: string;
      width?: number;
      height?: number;
      duration?: string;
      tags?: { rotate?: string };
      side_data_list?: { rotation?: number }[];
    }[];
    format?: { duration?: string };
  };
  const stream = parsed.streams?.find((candidate) => candidate.codec_type === 'video');
  if (!stream?.width || !stream.height) {
    throw new MediaError('NOT_A_VIDEO', 'the file has no video stream to reframe');
  }
  const rotation = Number(
    stream.side_data_list?.find((side) => side.rotation !== undefined)?.rotation ??
      stream.tags?.rotate ??
      0,
  );
  // ffmpeg turns rotated phone videos upright while decoding; work in the upright size.
  const size = uprightFrameSize(stream.width, stream.height, rotation);
  const durationSec = Number(parsed.format?.duration ?? stream.duration ?? NaN);
  return {
    size,
    durationMs: Number.isFinite(durationSec) ? Math.round(durationSec * 1000) : 0,
    hasAudio: Boolean(parsed.streams?.some((candidate) => candidate.codec_type === 'audio')),
  };
}

/** Frame size for the detector: long side 640 (or the source's, if smaller), even numbers. */
function analysisFrameSize(source: Size): Size {
  const scale = Math.min(1, ANALYSIS_LONG_SIDE / Math.max(source.width, source.height));
  return {
    width: Math.max(2, Math.round((source.width * scale) / 2) * 2),
    height: Math.max(2, Math.round((source.height * scale) / 2) * 2),
  };
}

/** Cut times (ms) from the `metadata=mode=print` output of scdet. */
function parseSceneCuts(text: string): number[] {
  const cuts: number[] = [];
  for (const match of text.matchAll(/lavfi\.scd\.time=(-?\d+(?:\.\d+)?)/g)) {
    const ms = Math.round(Number(match[1]) * 1000);
    if (ms > 0 && !cuts.includes(ms)) cuts.push(ms);
  }
  return cuts.sort((a, b) => a - b);
}

/** Loudness (dBFS, rounded; silence as -120) every 100 ms from astats' `metadata=mode=print`. */
function parseEnergy(text: string): EnergySample[] {
  const samples: EnergySample[] = [];
  let tMs: number | undefined;
  for (const line of text.split('\n')) {
    const time = /pts_time:(-?\d+(?:\.\d+)?)/.exec(line);
    if (time) {
      tMs = Math.round(Number(time[1]) * 1000);
      continue;
    }
    const level = /lavfi\.astats\.Overall\.RMS_level=(\S+)/.exec(line);
    if (level && tMs !== undefined) {
      const db = Number(level[1]);
      samples.push({ tMs, db: Number.isFinite(db) ? Math.max(-120, Math.round(db)) : -120 });
      tMs = undefined;
    }
  }
  return samples;
}

/**
 * Whether `middle` looks like a step from `before` to `after` (motion, not something that came
 * and went between them): it differs from either neighbour no more than they differ from each
 * other, give or take compression noise.
 */
function looksBetween(before: Uint8Array, middle: Uint8Array, after: Uint8Array): boolean {
  const ends = meanAbsoluteDifference(before, after);
  return (
    Math.max(meanAbsoluteDifference(before, middle), meanAbsoluteDifference(middle, after)) <=
    ends + BETWEEN_NOISE
  );
}

/** Mean absolute difference of two equal-size images, on every 7th byte (cheap and enough). */
function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 7) {
    sum += Math.abs(a[i]! - b[i]!);
    count++;
  }
  return count ? sum / count : 0;
}

/**
 * Pulls up to `depth` items ahead of the consumer, so the producer (ffmpeg's pipe) keeps going
 * while each item is worked on.
 */
async function* readAhead<T>(source: AsyncIterator<T> | AsyncIterable<T>, depth: number) {
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source;
  const queue: Promise<IteratorResult<T>>[] = [];
  try {
    for (;;) {
      while (queue.length < depth) {
        const next = iterator.next();
        // Awaited in turn below (or settled in `finally`); a source that fails while the consumer
        // works on an earlier item must not count as an unhandled rejection meanwhile.
        next.catch(() => undefined);
        queue.push(next);
      }
      const next = await queue.shift()!;
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Settle what was asked for, then let the source close its stream.
    await Promise.allSettled(queue);
    await iterator.return?.();
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** A temp path inside a filtergraph: only characters that need no escaping are allowed. */
function filterPath(path: string): string {
  if (!/^[\w/.-]+$/.test(path)) throw new MediaError('BAD_TEMP_PATH', `unusable temp path ${path}`);
  return path;
}
