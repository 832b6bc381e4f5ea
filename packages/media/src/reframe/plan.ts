/**
 * From a subject analysis to a reframing plan: which face to follow (with hysteresis, so the frame
 * never ping-pongs between speakers), and a crop path per shot that holds perfectly still for small
 * motion and pans smoothly otherwise (design.md "Where the product must beat the others": steady on
 * one speaker, never jitters, blurred-background fit when no subject is found).
 */
import {
  cropWindowSize,
  outputSize,
  type AspectRatio,
  type OutputQuality,
  type Size,
} from './aspect';
import type { SubjectAnalysis } from './analyze';
import type { FaceBox } from './detect';
import { centerX, centerY, type SubjectTrack } from './track';

/** Top-left corner and size of the crop window in source pixels, from `tMs` on. */
export interface CropKeyframe {
  /** ms from the plan's `startMs`. Two keyframes with the same time are a jump (a cut). */
  tMs: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

interface PlanBase {
  aspect: AspectRatio;
  quality: OutputQuality;
  source: Size;
  output: Size;
  /** Range of the source the plan covers (filters see time 0 at `startMs`). */
  startMs: number;
  endMs: number;
}

export interface CropPlan extends PlanBase {
  layout: 'crop';
  /** Piecewise-linear crop path; the first keyframe is at 0, the last value holds to the end. */
  keyframes: CropKeyframe[];
}

/** No subject: the whole frame fitted over a blurred, scaled-to-fill copy of itself. */
export interface BlurFitPlan extends PlanBase {
  layout: 'blur_fit';
}

export type ReframePlan = CropPlan | BlurFitPlan;

export interface PlanOptions {
  aspect: AspectRatio;
  quality: OutputQuality;
  /** Motion of the subject inside this fraction of the crop size moves nothing. Default 0.12. */
  deadZone?: number;
  /** Fastest pan, in crop widths (or heights) per second. Default 1. */
  maxPanSpeed?: number;
  /** A face must dominate the current one this long before the frame switches. Default 1500 ms. */
  switchAfterMs?: number;
  /** Shortest time on one speaker before another switch. Default 2500 ms. */
  minDwellMs?: number;
  /** How much stronger (size, centrality, confidence) a face must be to dominate. Default 1.4. */
  dominance?: number;
  /** Below this share of frames with a face the plan falls back to blur_fit. Default 0.3. */
  minSubjectCoverage?: number;
}

const DEFAULTS = {
  deadZone: 0.12,
  maxPanSpeed: 1,
  switchAfterMs: 1500,
  minDwellMs: 2500,
  dominance: 1.4,
  minSubjectCoverage: 0.3,
};
/** The current face counts as gone after this long unseen. */
const LOST_AFTER_MS = 1000;
/** Where the face centre sits vertically in a crop shorter than the frame (room above the head). */
const FACE_HEIGHT_IN_CROP = 0.4;
/** Bound on the crop path's size, so the filter expression stays small even for long clips. */
const MAX_KEYFRAMES = 240;

export function planReframe(analysis: SubjectAnalysis, options: PlanOptions): ReframePlan {
  const settings = { ...DEFAULTS, ...definedOnly(options) };
  const base: PlanBase = {
    aspect: options.aspect,
    quality: options.quality,
    source: analysis.source,
    output: outputSize(options.aspect, options.quality),
    startMs: analysis.startMs,
    endMs: analysis.endMs,
  };
  const crop = cropWindowSize(analysis.source, options.aspect);
  const durationMs = analysis.endMs - analysis.startMs;
  const whole = crop.width === analysis.source.width && crop.height === analysis.source.height;
  const staticCentre = (): CropPlan => ({
    ...base,
    layout: 'crop',
    keyframes: [
      {
        tMs: 0,
        x: Math.floor((analysis.source.width - crop.width) / 2),
        y: Math.floor((analysis.source.height - crop.height) / 2),
        w: crop.width,
        h: crop.height,
      },
    ],
  });
  // Same shape as the source: nothing to choose, the whole frame is scaled.
  if (whole) return staticCentre();

  const frames = analysis.frames;
  const tracks = usableTracks(analysis);
  const framesWithSubject = new Set(tracks.flatMap((track) => track.points.map((p) => p.frame)));
  if (frames.length === 0 || framesWithSubject.size / frames.length < settings.minSubjectCoverage) {
    return { ...base, layout: 'blur_fit' };
  }

  const fps = analysis.sampleFps;
  const bounds = {
    maxX: analysis.source.width - crop.width,
    maxY: analysis.source.height - crop.height,
  };
  const keyframes: CropKeyframe[] = [];
  const shotEdges = [0, ...analysis.shotCutsMs.filter((c) => c > 0 && c < durationMs), durationMs];
  for (let shot = 0; shot + 1 < shotEdges.length; shot++) {
    const shotStart = shotEdges[shot]!;
    const shotEnd = shotEdges[shot + 1]!;
    const shotFrames = frames
      .map((frame, index) => ({ frame, index }))
      .filter(({ frame }) => frame.tMs >= shotStart && frame.tMs < shotEnd)
      .map(({ index }) => index);
    const chosen = chooseSubjectPerFrame(analysis, shotFrames, tracks, settings);
    const targets = shotFrames.map((frameIndex, i) => {
      const track = chosen[i];
      const box = track ? boxAt(track, frameIndex, frames) : undefined;
      if (!box) return undefined;
      return {
        x: clamp(centerX(box) - crop.width / 2, 0, bounds.maxX),
        y: clamp(centerY(box) - crop.height * FACE_HEIGHT_IN_CROP, 0, bounds.maxY),
      };
    });
    const filled = fillGaps(targets, { x: bounds.maxX / 2, y: bounds.maxY / 2 });

    // A switch to a face far away is a cut, not a pan across the room.
    const segmentStarts = [0];
    for (let i = 1; i < shotFrames.length; i++) {
      const jump = Math.max(
        Math.abs(filled[i]!.x - filled[i - 1]!.x) / crop.width,
        Math.abs(filled[i]!.y - filled[i - 1]!.y) / crop.height,
      );
      if (chosen[i] !== chosen[i - 1] && jump > 0.2) segmentStarts.push(i);
    }
    for (let s = 0; s < segmentStarts.length; s++) {
      const from = segmentStarts[s]!;
      const to = segmentStarts[s + 1] ?? shotFrames.length;
      const times = shotFrames.slice(from, to).map((index) => frames[index]!.tMs);
      const follow = (values: number[], cropSide: number, max: number) =>
        cropPathForSegment(values, {
          fps,
          timesMs: times,
          deadZone: settings.deadZone * cropSide,
          maxSpeed: settings.maxPanSpeed * cropSide,
          min: 0,
          max,
        });
      const xs = follow(
        filled.slice(from, to).map((p) => p.x),
        crop.width,
        bounds.maxX,
      );
      const ys = follow(
        filled.slice(from, to).map((p) => p.y),
        crop.height,
        bounds.maxY,
      );
      const segmentStart = s === 0 ? shotStart : times[0]!;
      const segmentEnd = s + 1 < segmentStarts.length ? frames[shotFrames[to]!]!.tMs : shotEnd;
      const points = [
        { tMs: segmentStart, x: xs[0]!, y: ys[0]! },
        ...times.map((tMs, i) => ({ tMs, x: xs[i]!, y: ys[i]! })),
        { tMs: segmentEnd, x: xs[xs.length - 1]!, y: ys[ys.length - 1]! },
      ];
      const simplified = simplifyPath(dedupeTimes(points), 1);
      // The previous segment holds until this one starts: equal times make the jump.
      for (const point of simplified) {
        keyframes.push({ tMs: point.tMs, x: point.x, y: point.y, w: crop.width, h: crop.height });
      }
    }
    if (shotFrames.length === 0) {
      // A shot too short to sample holds the previous framing (or the centre).
      const previous = keyframes[keyframes.length - 1] ?? staticCentre().keyframes[0]!;
      keyframes.push({ ...previous, tMs: shotStart });
    }
  }
  return { ...base, layout: 'crop', keyframes: dropRedundantKeyframes(boundKeyframes(keyframes)) };
}

// ---------------------------------------------------------------------------------------------
// Subject choice

type Settings = typeof DEFAULTS;

/** Tracks long enough to be a person rather than a one-frame false detection. */
function usableTracks(analysis: SubjectAnalysis): SubjectTrack[] {
  const minPoints = Math.max(2, Math.round(analysis.sampleFps * 0.5));
  return analysis.tracks.filter((track) => track.points.length >= minPoints);
}

/**
 * The face to follow on each frame of a shot. Offline, so a switch is dated back to when the new
 * face started to dominate; it happens only after it dominated for `switchAfterMs`, and never
 * sooner than `minDwellMs` after the last switch (no ping-pong).
 */
export function chooseSubjectPerFrame(
  analysis: SubjectAnalysis,
  shotFrames: number[],
  tracks: SubjectTrack[],
  settings: Pick<Settings, 'switchAfterMs' | 'minDwellMs' | 'dominance'>,
): (SubjectTrack | undefined)[] {
  const frames = analysis.frames;
  const inShot = new Set(shotFrames);
  const candidates = tracks.filter((track) => track.points.some((p) => inShot.has(p.frame)));
  const chosen: (SubjectTrack | undefined)[] = shotFrames.map(() => undefined);
  if (candidates.length === 0) return chosen;

  const radius = Math.max(1, Math.round(analysis.sampleFps * 0.5));
  const raw = new Map<SubjectTrack, number[]>();
  const smooth = new Map<SubjectTrack, number[]>();
  for (const track of candidates) {
    const byFrame = new Map(track.points.map((p) => [p.frame, p.box]));
    const scores = shotFrames.map((frameIndex) => {
      const box = byFrame.get(frameIndex);
      return box ? prominence(box, analysis.source) : 0;
    });
    raw.set(track, scores);
    smooth.set(track, movingAverage(scores, radius));
  }
  const timeOf = (i: number) => frames[shotFrames[i]!]!.tMs;
  const strongest = (i: number, except?: SubjectTrack) => {
    let best: SubjectTrack | undefined;
    for (const track of candidates) {
      if (track === except || raw.get(track)![i]! <= 0) continue;
      if (!best || smooth.get(track)![i]! > smooth.get(best)![i]!) best = track;
    }
    return best;
  };

  // Start on the face that dominates the shot's first two seconds.
  const opening = shotFrames.filter((_, i) => timeOf(i) - timeOf(0) < 2000).length;
  let current: SubjectTrack | undefined;
  let bestOpening = 0;
  for (const track of candidates) {
    const total = raw
      .get(track)!
      .slice(0, opening)
      .reduce((a, b) => a + b, 0);
    if (total > bestOpening) [current, bestOpening] = [track, total];
  }
  let lastSwitchMs = -Infinity; // the opening choice is not a switch: no dwell to wait out
  let absentSince: number | undefined;
  let challenge: { track: SubjectTrack; since: number } | undefined;
  const switchTo = (track: SubjectTrack, from: number, to: number) => {
    for (let j = from; j <= to; j++) chosen[j] = track;
    current = track;
    lastSwitchMs = timeOf(from);
    challenge = undefined;
    absentSince = undefined;
  };

  for (let i = 0; i < shotFrames.length; i++) {
    if (!current) {
      const first = strongest(i);
      if (first) switchTo(first, i, i);
      continue;
    }
    const currentRaw = raw.get(current)![i]!;
    absentSince = currentRaw > 0 ? undefined : (absentSince ?? i);
    if (absentSince !== undefined && timeOf(i) - timeOf(absentSince) >= LOST_AFTER_MS) {
      const replacement = strongest(i, current);
      if (replacement) {
        switchTo(replacement, absentSince, i);
        continue;
      }
    }
    const rival = strongest(i, current);
    const dominates =
      rival && smooth.get(rival)![i]! > settings.dominance * smooth.get(current)![i]!;
    if (!dominates) {
      challenge = undefined;
    } else if (challenge?.track !== rival) {
      challenge = { track: rival, since: i };
    } else if (timeOf(i) - timeOf(challenge.since) >= settings.switchAfterMs) {
      let from = challenge.since;
      // The smoothed scores lag: date the switch back to when the raw scores turned.
      const rivalRaw = raw.get(rival)!;
      const currentScores = raw.get(current)!;
      while (from > 0 && rivalRaw[from - 1]! > settings.dominance * currentScores[from - 1]!)
        from--;
      while (from < i && timeOf(from) - lastSwitchMs < settings.minDwellMs) from++;
      if (timeOf(from) - lastSwitchMs >= settings.minDwellMs) {
        switchTo(rival, from, i);
        continue;
      }
    }
    chosen[i] = current;
  }
  return chosen;
}

/** How much a face asks to be followed: bigger, more central and surer faces score higher. */
function prominence(box: FaceBox, source: Size): number {
  const area = Math.sqrt((box.w * box.h) / (source.width * source.height));
  const offCentre = Math.abs(centerX(box) / source.width - 0.5) * 2; // 0 centre, 1 edge
  return area * (1 - 0.4 * offCentre) * box.score;
}

/** The track's box on a frame: detected, or interpolated between its neighbours. */
function boxAt(
  track: SubjectTrack,
  frameIndex: number,
  frames: SubjectAnalysis['frames'],
): FaceBox | undefined {
  const points = track.points;
  const after = points.findIndex((p) => p.frame >= frameIndex);
  if (after === -1) return points[points.length - 1]!.box;
  const next = points[after]!;
  if (next.frame === frameIndex || after === 0) return next.box;
  const prev = points[after - 1]!;
  const t0 = frames[prev.frame]!.tMs;
  const t1 = frames[next.frame]!.tMs;
  const k = (frames[frameIndex]!.tMs - t0) / Math.max(1, t1 - t0);
  const mix = (a: number, b: number) => a + (b - a) * k;
  return {
    x: mix(prev.box.x, next.box.x),
    y: mix(prev.box.y, next.box.y),
    w: mix(prev.box.w, next.box.w),
    h: mix(prev.box.h, next.box.h),
    score: Math.min(prev.box.score, next.box.score),
  };
}

// ---------------------------------------------------------------------------------------------
// Crop path

export interface CropPathOptions {
  /** Samples per second of `targets` (their base rate, see `timesMs`). */
  fps: number;
  /** Time of each target: samples are denser after a cut, and the speed limit is per second. */
  timesMs?: number[];
  /** Pixels the subject may drift from the framing before the camera moves. */
  deadZone: number;
  /** Fastest pan in pixels per second. */
  maxSpeed: number;
  min: number;
  max: number;
}

/**
 * Crop origin per sample for one stretch of a shot following one face. The camera moves only when
 * the (de-noised) target leaves the dead zone, so small motion leaves it exactly still; the moves
 * are then eased with a zero-phase Gaussian (offline: no lag) and capped in speed.
 */
export function cropPathForSegment(targets: number[], options: CropPathOptions): number[] {
  const n = targets.length;
  if (n === 0) return [];
  const denoised = movingAverage(
    medianFilter(targets, 2),
    Math.max(1, Math.round(options.fps / 4)),
  );

  const settleSamples = Math.max(1, Math.min(n, Math.round(options.fps * 1.5)));
  let camera = median(denoised.slice(0, settleSamples));
  const followed = denoised.map((target) => {
    const offset = target - camera;
    if (offset > options.deadZone) camera = target - options.deadZone;
    else if (offset < -options.deadZone) camera = target + options.deadZone;
    return camera;
  });

  const eased = gaussianSmooth(followed, options.fps * 0.3);
  const times = options.timesMs;
  // Largest move from sample i-1 to sample i.
  const step = (i: number) =>
    times
      ? (options.maxSpeed * Math.max(0, times[i]! - times[i - 1]!)) / 1000
      : options.maxSpeed / options.fps;
  const forward = [...eased];
  for (let i = 1; i < n; i++)
    forward[i] = clamp(forward[i]!, forward[i - 1]! - step(i), forward[i - 1]! + step(i));
  const backward = [...eased];
  for (let i = n - 2; i >= 0; i--)
    backward[i] = clamp(
      backward[i]!,
      backward[i + 1]! - step(i + 1),
      backward[i + 1]! + step(i + 1),
    );
  // Both limited copies change by at most the step per sample, so their mean does too.
  return forward.map(
    (value, i) =>
      Math.round(clamp((value + backward[i]!) / 2, options.min, options.max) * 100) / 100,
  );
}

function medianFilter(values: number[], radius: number): number[] {
  return values.map((_, i) => median(values.slice(Math.max(0, i - radius), i + radius + 1)));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function movingAverage(values: number[], radius: number): number[] {
  return values.map((_, i) => {
    const window = values.slice(Math.max(0, i - radius), i + radius + 1);
    return window.reduce((a, b) => a + b, 0) / window.length;
  });
}

/** Gaussian blur of a series; the kernel is renormalised at the ends so a constant stays exact. */
function gaussianSmooth(values: number[], sigma: number): number[] {
  if (sigma < 0.5) return [...values];
  const radius = Math.ceil(sigma * 3);
  const weights = Array.from({ length: radius * 2 + 1 }, (_, k) =>
    Math.exp(-((k - radius) ** 2) / (2 * sigma * sigma)),
  );
  return values.map((value, i) => {
    let sum = 0;
    let weight = 0;
    let allEqual = true;
    for (let k = -radius; k <= radius; k++) {
      const neighbour = values[i + k];
      if (neighbour === undefined) continue;
      if (neighbour !== value) allEqual = false;
      sum += neighbour * weights[k + radius]!;
      weight += weights[k + radius]!;
    }
    return allEqual ? value : sum / weight; // a hold stays bit-exact
  });
}

/** Fill samples without a target from the nearest one that has it (or `fallback`). */
function fillGaps<T>(values: (T | undefined)[], fallback: T): T[] {
  const firstKnown = values.find((v) => v !== undefined) ?? fallback;
  let last = firstKnown;
  return values.map((value) => (value === undefined ? last : (last = value)));
}

interface PathPoint {
  tMs: number;
  x: number;
  y: number;
}

function dedupeTimes(points: PathPoint[]): PathPoint[] {
  return points.filter((p, i) => i === 0 || p.tMs > points[i - 1]!.tMs);
}

/** Ramer–Douglas–Peucker on (t, x, y): drop points the straight line misses by < `tolerance` px. */
export function simplifyPath(points: PathPoint[], tolerance: number): PathPoint[] {
  if (points.length <= 2) return [...points];
  const keep = new Array<boolean>(points.length).fill(false);
  keep[0] = true;
  keep[points.length - 1] = true;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    const a = points[from]!;
    const b = points[to]!;
    let worst = -1;
    let worstError = tolerance;
    for (let i = from + 1; i < to; i++) {
      const p = points[i]!;
      const k = (p.tMs - a.tMs) / Math.max(1e-9, b.tMs - a.tMs);
      const error = Math.max(
        Math.abs(a.x + (b.x - a.x) * k - p.x),
        Math.abs(a.y + (b.y - a.y) * k - p.y),
      );
      if (error > worstError) [worst, worstError] = [i, error];
    }
    if (worst !== -1) {
      keep[worst] = true;
      stack.push([from, worst], [worst, to]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

/** Drop keyframes that change nothing: the last value holds to the end anyway. */
function dropRedundantKeyframes(keyframes: CropKeyframe[]): CropKeyframe[] {
  const same = (a: CropKeyframe, b: CropKeyframe) => a.x === b.x && a.y === b.y;
  const result: CropKeyframe[] = [];
  for (const keyframe of keyframes) {
    const last = result[result.length - 1];
    const beforeLast = result[result.length - 2];
    // Three equal values in a row: the middle one is inside a hold.
    if (last && beforeLast && same(last, keyframe) && same(beforeLast, last)) result.pop();
    // Equal times with equal values: a jump to where the path already is.
    if (last && last.tMs === keyframe.tMs && same(last, keyframe)) continue;
    result.push(keyframe);
  }
  while (result.length >= 2 && same(result[result.length - 1]!, result[result.length - 2]!)) {
    result.pop();
  }
  return result;
}

/** Keep the path small for the filter expression by simplifying harder while it is too long. */
function boundKeyframes(keyframes: CropKeyframe[]): CropKeyframe[] {
  let result = keyframes;
  for (let tolerance = 2; result.length > MAX_KEYFRAMES && tolerance < 1e4; tolerance *= 2) {
    // Simplify each continuous run separately so jumps (equal times) survive.
    const runs: CropKeyframe[][] = [];
    for (const keyframe of keyframes) {
      const run = runs[runs.length - 1];
      if (!run || run[run.length - 1]!.tMs === keyframe.tMs) runs.push([keyframe]);
      else run.push(keyframe);
    }
    result = runs.flatMap((run) =>
      simplifyPath(run, tolerance).map((p) => ({ ...p, w: run[0]!.w, h: run[0]!.h })),
    );
  }
  return result;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
