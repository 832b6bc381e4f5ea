import type { ClipFraming, CropKeyframe, FramingSegment } from '@moments/contract';

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

/** Where a pane sits in the frame, in percent of the frame (so the frame's pixel size never matters). */
interface PaneBox {
  left: string;
  top: string;
  width: string;
  height: string;
}

/** A pane of the segment on screen: its place in the frame and the source window it shows. */
interface PaneView {
  box: PaneBox;
  crop: CropRect;
}

/** What the export shows at one time: the segment's layout, its panes, whether the fill is blurred. */
export interface FrameView {
  layout: FramingSegment['layout'];
  backdrop: boolean;
  panes: PaneView[];
}

/** The segment of the plan at `clipMs` (ms from the plan's start); the last one holds after it. */
function segmentAt(framing: ClipFraming, clipMs: number): FramingSegment | undefined {
  const segments = framing.segments;
  return (
    segments.find((segment) => clipMs >= segment.start_ms && clipMs < segment.end_ms) ??
    (clipMs < 0 ? segments[0] : segments[segments.length - 1])
  );
}

/**
 * What the export's frame holds at source time `videoSec`, read as the exporter's filter graph
 * builds it: the segment of that time, each pane at its place showing its window of the source
 * (linear between keyframes, jumps where two share a time), and the blurred fill behind them.
 */
export function frameViewAt(framing: ClipFraming, videoSec: number): FrameView | null {
  const clipMs = videoSec * 1000 - framing.start_ms;
  const segment = segmentAt(framing, clipMs);
  if (!segment) return null;
  const pct = (value: number, of: number) => `${Math.round((value / of) * 1_000_000) / 10_000}%`;
  const panes = segment.panes.flatMap((pane): PaneView[] => {
    const crop = cropAt(pane.keyframes, clipMs, framing.source);
    if (!crop) return [];
    return [
      {
        box: {
          left: pct(pane.x, framing.output.width),
          top: pct(pane.y, framing.output.height),
          width: pct(pane.w, framing.output.width),
          height: pct(pane.h, framing.output.height),
        },
        crop,
      },
    ];
  });
  return { layout: segment.layout, backdrop: segment.backdrop, panes };
}
