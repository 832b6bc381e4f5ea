/**
 * The camera's path for one pane: a window that holds perfectly still for small motion of its
 * subject, pans smoothly (eased, speed-capped) otherwise, and stays a small piecewise-linear
 * list of keyframes so the ffmpeg expression and the preview stay cheap.
 */
import type { CropKeyframe } from './plan';

/** Bound on a path's size, so the filter expression stays small even for long clips. */
const MAX_KEYFRAMES = 240;

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

export function movingAverage(values: number[], radius: number): number[] {
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
export function fillGaps<T>(values: (T | undefined)[], fallback: T): T[] {
  const firstKnown = values.find((v) => v !== undefined) ?? fallback;
  let last = firstKnown;
  return values.map((value) => (value === undefined ? last : (last = value)));
}

export interface PathPoint {
  tMs: number;
  x: number;
  y: number;
}

export function dedupeTimes(points: PathPoint[]): PathPoint[] {
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
export function dropRedundantKeyframes(keyframes: CropKeyframe[]): CropKeyframe[] {
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
export function boundKeyframes(keyframes: CropKeyframe[]): CropKeyframe[] {
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

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * The window at `tMs` (clip time), read as the ffmpeg crop expression reads the path: the first
 * value before it, linear between keyframes, two keyframes at one time a jump, the last one held.
 */
export function windowAt(keyframes: readonly CropKeyframe[], tMs: number): CropKeyframe {
  let current = keyframes[0]!;
  for (let i = 0; i + 1 < keyframes.length; i++) {
    const from = keyframes[i]!;
    const to = keyframes[i + 1]!;
    if (tMs < from.tMs) break;
    if (tMs >= to.tMs || to.tMs === from.tMs) {
      current = to;
      continue;
    }
    const k = (tMs - from.tMs) / (to.tMs - from.tMs);
    return {
      tMs,
      x: from.x + (to.x - from.x) * k,
      y: from.y + (to.y - from.y) * k,
      w: from.w,
      h: from.h,
    };
  }
  return { ...current, tMs };
}
