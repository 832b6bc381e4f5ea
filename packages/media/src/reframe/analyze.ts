/**
 * Subject analysis of a video range: faces on frames sampled a few times per second, tracks that
 * link them, and shot cuts. One ffmpeg process decodes the range once: every frame goes through
 * ffmpeg's `scdet` scene detector (exact cut times), and a sampled, downscaled copy is piped out
 * as raw RGB for the face detector.
 */
import { uprightFrameSize } from '@moments/domain/frame';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MediaError } from '../errors/index.js';
import { readRawFrames, runFfprobe, spawnFfmpegStream } from '../ffmpeg/index.js';
import type { Size } from './aspect';
import { loadFaceDetector } from './detect';
import { buildTracks, type AnalyzedFrame, type SubjectTrack } from './track';

export interface SubjectAnalysis {
  /** Displayed size of the source video (rotation applied), in pixels. */
  source: Size;
  /** Analysed range in the source's own time; every other time here counts from `startMs`. */
  startMs: number;
  endMs: number;
  sampleFps: number;
  /** Size the frames were analysed at. */
  frameSize: Size;
  /** Sampled frames with their faces in source pixels. */
  frames: AnalyzedFrame[];
  /** How many of the frames went through the detector (the others were still, see below). */
  detectorRuns: number;
  /** Faces linked across frames; never across a shot cut. */
  tracks: SubjectTrack[];
  /** Times of hard cuts, in ms from `startMs`. */
  shotCutsMs: number[];
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
/** Even in a still shot the detector looks again at least this often. */
const STILL_REUSE_MAX_MS = 1000;
/** scdet's score (0-100) above which a frame starts a new shot; ffmpeg's own default. */
const SCENE_CUT_THRESHOLD = 10;

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
  const detector = await loadFaceDetector();

  if (options.workDir) await mkdir(options.workDir, { recursive: true });
  const workDir = await mkdtemp(join(options.workDir ?? tmpdir(), 'moments-reframe-'));
  const cutsFile = join(workDir, 'cuts.txt');
  try {
    const graph = [
      '[0:v:0]split=2[rf_scd][rf_det]',
      // A small copy is enough to see a cut, and keeps scdet cheap on 1080p sources.
      `[rf_scd]scale=256:-2:flags=fast_bilinear,scdet=threshold=${SCENE_CUT_THRESHOLD},` +
        `metadata=mode=print:key=lavfi.scd.time:file=${filterPath(cutsFile)},nullsink`,
      `[rf_det]fps=${sampleFps},scale=${frameSize.width}:${frameSize.height}:flags=bilinear,format=rgb24[rf_frames]`,
    ].join(';');
    const durationMs = endMs - startMs;
    const stream = spawnFfmpegStream(
      [
        ...(startMs > 0 ? ['-ss', seconds(startMs)] : []),
        '-t',
        seconds(durationMs),
        '-i',
        input,
        '-filter_complex',
        graph,
        '-map',
        '[rf_frames]',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        'pipe:1',
      ],
      { signal: options.signal, durationMs },
    );

    const frames: AnalyzedFrame[] = [];
    const expectedFrames = Math.max(1, Math.ceil((durationMs / 1000) * sampleFps));
    const toSourceX = probed.size.width / frameSize.width;
    const toSourceY = probed.size.height / frameSize.height;
    // Adaptive sampling: in a still shot a frame that looks like the last one analysed keeps its
    // faces (at most STILL_REUSE_MAX_MS apart); cuts and movement always get the detector.
    let lastDetected: { rgb: Buffer; tMs: number; faces: AnalyzedFrame['faces'] } | undefined;
    let detectorRuns = 0;
    try {
      const frameBytes = frameSize.width * frameSize.height * 3;
      // Read ahead, so ffmpeg decodes the next frames while the detector works on this one.
      for await (const rgb of readAhead(
        readRawFrames(stream.stdout, frameBytes),
        READ_AHEAD_FRAMES,
      )) {
        if (options.signal?.aborted) throw new MediaError('ABORTED', 'analysis was cancelled');
        const tMs = Math.round((frames.length * 1000) / sampleFps);
        let faces: AnalyzedFrame['faces'];
        if (
          lastDetected &&
          tMs - lastDetected.tMs <= STILL_REUSE_MAX_MS &&
          meanAbsoluteDifference(lastDetected.rgb, rgb) < STILL_FRAME_DIFFERENCE
        ) {
          faces = lastDetected.faces;
        } else {
          detectorRuns++;
          const found = await detector.detectFaces(rgb, frameSize.width, frameSize.height);
          faces = found.map((face) => ({
            x: face.x * toSourceX,
            y: face.y * toSourceY,
            w: face.w * toSourceX,
            h: face.h * toSourceY,
            score: face.score,
          }));
          lastDetected = { rgb, tMs, faces };
        }
        frames.push({ tMs, faces: faces.map((face) => ({ ...face })) });
        options.onProgress?.(Math.min(1, frames.length / expectedFrames));
      }
    } catch (error) {
      stream.stop();
      await stream.done.catch(() => undefined);
      throw error;
    }
    await stream.done;

    const shotCutsMs = parseSceneCuts(await readFile(cutsFile, 'utf8').catch(() => ''));
    return {
      source: probed.size,
      startMs,
      endMs,
      sampleFps,
      frameSize,
      frames,
      detectorRuns,
      tracks: buildTracks(frames, { shotCutsMs }),
      shotCutsMs,
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

interface ProbedVideo {
  size: Size;
  durationMs: number;
}

async function probeVideo(input: string, signal?: AbortSignal): Promise<ProbedVideo> {
  const json = await runFfprobe(
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height,duration:stream_tags=rotate:stream_side_data=rotation:format=duration',
      '-of',
      'json',
      '-i',
      input,
    ],
    { signal },
  );
  const parsed = JSON.parse(json) as {
    streams?: {
      width?: number;
      height?: number;
      duration?: string;
      tags?: { rotate?: string };
      side_data_list?: { rotation?: number }[];
    }[];
    format?: { duration?: string };
  };
  const stream = parsed.streams?.[0];
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
  return { size, durationMs: Number.isFinite(durationSec) ? Math.round(durationSec * 1000) : 0 };
}

/** Frame size for the detector: long side 640 (or the source's, if smaller), even numbers. */
export function analysisFrameSize(source: Size): Size {
  const scale = Math.min(1, ANALYSIS_LONG_SIDE / Math.max(source.width, source.height));
  return {
    width: Math.max(2, Math.round((source.width * scale) / 2) * 2),
    height: Math.max(2, Math.round((source.height * scale) / 2) * 2),
  };
}

/** Cut times (ms) from the `metadata=mode=print` output of scdet. */
export function parseSceneCuts(text: string): number[] {
  const cuts: number[] = [];
  for (const match of text.matchAll(/lavfi\.scd\.time=(-?\d+(?:\.\d+)?)/g)) {
    const ms = Math.round(Number(match[1]) * 1000);
    if (ms > 0 && !cuts.includes(ms)) cuts.push(ms);
  }
  return cuts.sort((a, b) => a - b);
}

/** Mean absolute difference of two equal-size images, on every 7th byte (cheap and enough). */
export function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
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
      while (queue.length < depth) queue.push(iterator.next());
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
