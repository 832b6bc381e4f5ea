import type { ClipFraming, CropKeyframe } from '@moments/contract';

/** A window of the source picture, in source pixels. */
export interface CropRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The crop window at `tMs` (ms from the plan's start), read exactly as the exporter's ffmpeg crop
 * expression reads the plan: linear between keyframes, two keyframes at the same time are a jump
 * (taken at that time), the first value holds before the path, the last after it, and the window
 * never leaves the source.
 */
export function cropAt(
  keyframes: readonly CropKeyframe[],
  tMs: number,
  source?: { width: number; height: number },
): CropRect | null {
  const first = keyframes[0];
  if (!first) return null;
  let rect: CropRect = first;
  for (let i = 0; i < keyframes.length; i++) {
    const from = keyframes[i]!;
    const to = keyframes[i + 1];
    if (tMs < from.t_ms) break;
    if (!to || tMs >= to.t_ms) {
      rect = to ?? from;
      continue;
    }
    // from.t_ms <= tMs < to.t_ms, so to.t_ms > from.t_ms: a pan.
    const k = (tMs - from.t_ms) / (to.t_ms - from.t_ms);
    const mix = (a: number, b: number) => a + (b - a) * k;
    rect = {
      x: mix(from.x, to.x),
      y: mix(from.y, to.y),
      w: mix(from.w, to.w),
      h: mix(from.h, to.h),
    };
    break;
  }
  if (!source) return { x: rect.x, y: rect.y, w: rect.w, h: rect.h };
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), Math.max(0, max));
  return {
    x: clamp(rect.x, source.width - rect.w),
    y: clamp(rect.y, source.height - rect.h),
    w: rect.w,
    h: rect.h,
  };
}

/**
 * CSS that shows exactly `rect` of the video in a frame of any size: the video element is made
 * (source / window) times the frame and moved so the window's corner sits at the frame's corner.
 * Percentages of the frame and of the element itself, so the frame's pixel size never matters.
 */
export function cropStyle(
  rect: CropRect,
  source: { width: number; height: number },
): { width: string; height: string; transform: string } {
  const pct = (value: number) => `${Math.round(value * 10_000) / 10_000}%`;
  return {
    width: pct((100 * source.width) / rect.w),
    height: pct((100 * source.height) / rect.h),
    transform: `translate(${pct((-100 * rect.x) / source.width)}, ${pct((-100 * rect.y) / source.height)})`,
  };
}

/** The crop at the video's current source time `videoSec`, for a plan that starts at `start_ms`. */
export function cropAtVideoTime(framing: ClipFraming, videoSec: number): CropRect | null {
  return cropAt(framing.keyframes, videoSec * 1000 - framing.start_ms, framing.source);
}
