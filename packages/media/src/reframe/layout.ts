/**
 * Layouts over time: each sampled frame asks for a layout (from what it shows, or the user's
 * choice), and the clip is cut into segments with hysteresis: no segment shorter than the minimum
 * shot length unless the source itself cuts, no ping-pong, and switches moved onto a sentence end
 * or a pause where one is near. Then each segment's panes: where they sit in the output and which
 * window of the source each shows over time.
 */
import { cropWindowSize, fitInside, type AspectRatio, type Size } from './aspect';
import type { SubjectAnalysis } from './analyze';
import type { FaceBox } from './detect';
import {
  boxAt,
  chooseSubjectPerFrame,
  followPath,
  unionBox,
  type Framed,
  type SwitchSettings,
} from './follow';
import type { CropKeyframe } from './plan';
import type { FrameShot } from './shots';
import { sceneCellAt, sceneGrid } from './scene';
import { centerX, type SubjectTrack } from './track';

/** How a stretch of the clip is framed. */
export const FRAMING_LAYOUTS = ['speaker', 'split', 'fit', 'slide_speaker'] as const;
export type FramingLayout = (typeof FRAMING_LAYOUTS)[number];
/** What the user may ask for: `auto` lets the footage decide, stretch by stretch. */
export type LayoutChoice = 'auto' | FramingLayout;

/** A rectangle of the output frame showing a moving window of the source. */
export interface Pane {
  /** Where the pane sits in the output, in output pixels. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** The window of the source it shows (its aspect is the pane's), over clip time. */
  keyframes: CropKeyframe[];
  /**
   * A part of the pane painted over in one grey (pane pixels): the slide's own inset of the
   * speaker, who is shown enlarged in the pane below; twice the same face reads as a glitch.
   */
  cover?: { x: number; y: number; w: number; h: number; grey: number };
}

export interface LayoutSegment {
  /** ms from the plan's start; segments tile the clip. */
  startMs: number;
  endMs: number;
  layout: FramingLayout;
  /** A blurred copy of the whole frame fills the output behind the panes. */
  backdrop: boolean;
  panes: Pane[];
}

export interface SegmentingOptions {
  durationMs: number;
  /** Hard cuts of the source (clip ms): a layout may change there without a minimum length. */
  cutsMs: readonly number[];
  /** Sentence ends and pauses (clip ms): switches move onto the nearest within `snapMs`. */
  breaksMs: readonly number[];
  minShotMs: number;
  snapMs: number;
}

/** Votes of the frames this close to each other decide a frame's layout (a blip is outvoted). */
const VOTE_RADIUS_MS = 750;
/** A switch moved onto a break may shorten a neighbour to this share of the minimum, not less. */
const SNAP_SLACK = 0.75;

interface Run {
  layout: FramingLayout;
  startMs: number;
  endMs: number;
}

/** Layout segments of the clip from each frame's wish, with hysteresis (see the module comment). */
export function segmentLayouts(
  frames: readonly { tMs: number; layout: FramingLayout }[],
  options: SegmentingOptions,
): Run[] {
  const edges = [
    0,
    ...options.cutsMs.filter((cut) => cut > 0 && cut < options.durationMs),
    options.durationMs,
  ];
  const runs: Run[] = [];
  for (let shot = 0; shot + 1 < edges.length; shot++) {
    const start = edges[shot]!;
    const end = edges[shot + 1]!;
    const inShot = frames.filter((frame) => frame.tMs >= start && frame.tMs < end);
    if (inShot.length === 0) {
      // Too short to sample: it keeps what came before.
      runs.push({ layout: runs[runs.length - 1]?.layout ?? 'fit', startMs: start, endMs: end });
      continue;
    }
    runs.push(...shotRuns(inShot, start, end, options));
  }
  // Across a cut the same layout simply continues.
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last && last.layout === run.layout) last.endMs = run.endMs;
    else merged.push({ ...run });
  }
  return merged;
}

/** The runs of one shot: voted, short ones merged away, switches snapped to breaks. */
function shotRuns(
  frames: readonly { tMs: number; layout: FramingLayout }[],
  start: number,
  end: number,
  options: SegmentingOptions,
): Run[] {
  const voted = frames.map((frame) => {
    const votes = new Map<FramingLayout, number>();
    for (const other of frames) {
      if (Math.abs(other.tMs - frame.tMs) > VOTE_RADIUS_MS) continue;
      votes.set(other.layout, (votes.get(other.layout) ?? 0) + 1);
    }
    let best = frame.layout;
    for (const [layout, count] of votes) if (count > votes.get(best)!) best = layout;
    return best;
  });
  const runs: Run[] = [];
  voted.forEach((layout, i) => {
    const last = runs[runs.length - 1];
    if (last?.layout === layout) return;
    const boundary = i === 0 ? start : (frames[i - 1]!.tMs + frames[i]!.tMs) / 2;
    if (last) last.endMs = boundary;
    runs.push({ layout, startMs: boundary, endMs: end });
  });
  // The shortest run under the minimum goes to its neighbours until none is left.
  for (;;) {
    const short = runs
      .map((run, index) => ({ index, length: run.endMs - run.startMs }))
      .filter((entry) => entry.length < options.minShotMs && runs.length > 1)
      .sort((a, b) => a.length - b.length)[0];
    if (!short) break;
    const i = short.index;
    const before = runs[i - 1];
    const after = runs[i + 1];
    if (before && after && before.layout === after.layout) {
      before.endMs = after.endMs;
      runs.splice(i, 2);
    } else if (before && (!after || before.endMs - before.startMs >= after.endMs - after.startMs)) {
      before.endMs = runs[i]!.endMs;
      runs.splice(i, 1);
    } else {
      after!.startMs = runs[i]!.startMs;
      runs.splice(i, 1);
    }
  }
  for (let i = 1; i < runs.length; i++) {
    const before = runs[i - 1]!;
    const after = runs[i]!;
    const lowest = before.startMs + options.minShotMs * SNAP_SLACK;
    const highest = after.endMs - options.minShotMs * SNAP_SLACK;
    let best: number | undefined;
    for (const candidate of options.breaksMs) {
      if (candidate < lowest || candidate > highest) continue;
      if (Math.abs(candidate - before.endMs) > options.snapMs) continue;
      if (
        best === undefined ||
        Math.abs(candidate - before.endMs) < Math.abs(best - before.endMs)
      ) {
        best = candidate;
      }
    }
    if (best !== undefined) {
      before.endMs = best;
      after.startMs = best;
    }
  }
  return runs.map((run) => ({
    ...run,
    startMs: Math.round(run.startMs),
    endMs: Math.round(run.endMs),
  }));
}

// ---------------------------------------------------------------------------------------------
// Panes

export interface PaneContext {
  analysis: SubjectAnalysis;
  shots: readonly FrameShot[];
  tracks: SubjectTrack[];
  aspect: AspectRatio;
  output: Size;
  switching: SwitchSettings;
  deadZone: number;
  maxPanSpeed: number;
}

/** Where the face centre sits vertically in a window shorter than the frame (room above the head). */
const FACE_HEIGHT_IN_WINDOW = 0.4;
/** A face's pane window is this many face heights tall (head and shoulders)... */
const SPLIT_FACES_PER_WINDOW = 3.4;
/** ...an inset speaker's a little tighter (the inset is small)... */
const INSET_FACES_PER_WINDOW = 3;
/** ...and a pane never magnifies its window more than this. */
const MAX_UPSCALE = 3;
/** A speaker's prominence counts this many times while they speak. */
const SPEAKING_WEIGHT = 3;
/** Two faces this close (their union within this share of the crop) are framed together. */
const TOGETHER = 0.85;

/** The panes of one segment (and whether the blurred backdrop shows around them). */
export function segmentPanes(
  run: Run,
  context: PaneContext,
): Pick<LayoutSegment, 'panes' | 'backdrop'> {
  switch (run.layout) {
    case 'fit':
      return { backdrop: true, panes: [fitPane(run, context)] };
    case 'speaker':
      return { backdrop: false, panes: [speakerPane(run, context)] };
    case 'split':
      return { backdrop: false, panes: splitPanes(run, context) };
    case 'slide_speaker':
      return { backdrop: false, panes: slideSpeakerPanes(run, context) };
  }
}

/** Whether the output has room for a slide on top and a speaker below it (portrait or square). */
export function stacksVertically(output: Size): boolean {
  return output.height >= output.width;
}

function fitPane(run: Run, { analysis, output }: PaneContext): Pane {
  const size = fitInside(analysis.source, output);
  return {
    // Even offsets: the chroma of yuv420p moves in steps of two pixels.
    x: ((output.width - size.width) >> 2) * 2,
    y: ((output.height - size.height) >> 2) * 2,
    w: size.width,
    h: size.height,
    keyframes: [wholeFrame(run.startMs, analysis.source)],
  };
}

function wholeFrame(tMs: number, source: Size): CropKeyframe {
  return { tMs, x: 0, y: 0, w: source.width, h: source.height };
}

/** One window of the output's shape following the speaker (or two faces close together). */
function speakerPane(run: Run, context: PaneContext): Pane {
  const { analysis, shots, tracks, output } = context;
  const window = cropWindowSize(analysis.source, context.aspect);
  const weight = (track: SubjectTrack, frameIndex: number) =>
    shots[frameIndex]?.speaking === track ? SPEAKING_WEIGHT : 1;
  const keyframes = followPath(analysis, run.startMs, run.endMs, {
    window,
    faceHeightInWindow: FACE_HEIGHT_IN_WINDOW,
    deadZone: context.deadZone,
    maxPanSpeed: context.maxPanSpeed,
    chooseBoxes: (shotFrames) => {
      const chosen = chooseSubjectPerFrame(analysis, shotFrames, tracks, context.switching, weight);
      return shotFrames.map((frameIndex, i): Framed | undefined => {
        const track = chosen[i];
        const box = track ? boxAt(track, frameIndex, analysis.frames) : undefined;
        if (!track || !box) return undefined;
        // Someone beside the speaker who fits in the same window is kept in it.
        const others = (shots[frameIndex]?.faces ?? []).filter((face) => face.track !== track);
        for (const other of others) {
          const both = unionBox([box, other.box])!;
          if (both.w <= window.width * TOGETHER) return { box: both, subject: `with:${track.id}` };
        }
        return { box, subject: track.id };
      });
    },
  });
  return { x: 0, y: 0, w: output.width, h: output.height, keyframes };
}

/** Two panes, one person each: stacked on a tall output, side by side on a wide one. */
function splitPanes(run: Run, context: PaneContext): Pane[] {
  const { analysis, shots, output } = context;
  const stacked = stacksVertically(output);
  const first = stacked
    ? { x: 0, y: 0, w: output.width, h: even(output.height / 2) }
    : { x: 0, y: 0, w: even(output.width / 2), h: output.height };
  const second = stacked
    ? { x: 0, y: first.h, w: output.width, h: output.height - first.h }
    : { x: first.w, y: 0, w: output.width - first.w, h: output.height };
  const framesIn = framesOf(run, analysis);
  const faceHeights = framesIn.flatMap((index) =>
    (shots[index]?.faces ?? []).slice(0, 2).map((face) => face.box.h),
  );
  const window = paneWindow(first, median(faceHeights), SPLIT_FACES_PER_WINDOW, analysis.source);
  // Each frame's two largest faces, left one in the first pane; a lone face goes to its side.
  const sides = (frameIndex: number): [Framed | undefined, Framed | undefined] => {
    const faces = (shots[frameIndex]?.faces ?? []).slice(0, 2);
    const toFramed = (face: { track: SubjectTrack; box: FaceBox }) => ({
      box: face.box,
      subject: face.track.id,
    });
    if (faces.length === 2) {
      const [left, right] = [...faces].sort((a, b) => centerX(a.box) - centerX(b.box));
      return [toFramed(left!), toFramed(right!)];
    }
    if (faces.length === 1) {
      const onLeft = centerX(faces[0]!.box) < analysis.source.width / 2;
      return onLeft ? [toFramed(faces[0]!), undefined] : [undefined, toFramed(faces[0]!)];
    }
    return [undefined, undefined];
  };
  return [first, second].map((rect, side) => ({
    ...rect,
    keyframes: followPath(analysis, run.startMs, run.endMs, {
      window,
      faceHeightInWindow: FACE_HEIGHT_IN_WINDOW,
      deadZone: context.deadZone,
      maxPanSpeed: context.maxPanSpeed,
      chooseBoxes: (shotFrames) => shotFrames.map((frameIndex) => sides(frameIndex)[side]),
      rest: {
        x: side === 0 ? 0 : Math.max(0, analysis.source.width - window.width),
        y: Math.max(0, (analysis.source.height - window.height) / 2),
      },
    }),
  }));
}

/** The whole frame (the slide) across the top, the speaker's face filling the rest below. */
function slideSpeakerPanes(run: Run, context: PaneContext): Pane[] {
  const { analysis, shots, output } = context;
  const slideHeight = Math.min(
    output.height,
    even((output.width * analysis.source.height) / analysis.source.width),
  );
  const framesIn = framesOf(run, analysis);
  const inset = speakerInset(framesIn, context, { w: output.width, h: slideHeight });
  const slide: Pane = {
    x: 0,
    y: 0,
    w: output.width,
    h: slideHeight,
    keyframes: [wholeFrame(run.startMs, analysis.source)],
    ...(inset ? { cover: inset } : {}),
  };
  const below = { x: 0, y: slideHeight, w: output.width, h: output.height - slideHeight };
  const faceHeights = framesIn.flatMap((index) => {
    const face = shots[index]?.faces[0];
    return face ? [face.box.h] : [];
  });
  const window = paneWindow(below, median(faceHeights), INSET_FACES_PER_WINDOW, analysis.source);
  const speaker: Pane = {
    ...below,
    keyframes: followPath(analysis, run.startMs, run.endMs, {
      window,
      faceHeightInWindow: FACE_HEIGHT_IN_WINDOW,
      deadZone: context.deadZone,
      maxPanSpeed: context.maxPanSpeed,
      chooseBoxes: (shotFrames) =>
        shotFrames.map((frameIndex) => {
          const face = shots[frameIndex]?.faces[0];
          return face ? { box: face.box, subject: face.track.id } : undefined;
        }),
    }),
  };
  return [slide, speaker];
}

/** A face this small against the frame's height is an inset picture, not a person on stage. */
const INSET_FACE_SHARE = 0.3;

/**
 * Where the slide's own picture of the speaker sits, in slide-pane pixels, with the grey of the
 * slide beside it: the faces of the stretch, widened to head and shoulders, and nothing when the
 * face is large (a presenter standing in front of the screen is part of the picture).
 */
function speakerInset(
  framesIn: readonly number[],
  { analysis, shots }: PaneContext,
  pane: { w: number; h: number },
): Pane['cover'] | undefined {
  const boxes = framesIn.flatMap((index) => {
    const face = shots[index]?.faces[0];
    return face ? [face.box] : [];
  });
  const faces = unionBox(boxes);
  if (!faces || median(boxes.map((box) => box.h)) > analysis.source.height * INSET_FACE_SHARE) {
    return undefined;
  }
  const { width, height } = analysis.source;
  const left = Math.max(0, faces.x - faces.w * 1.4);
  const top = Math.max(0, faces.y - faces.h * 0.7);
  const right = Math.min(width, faces.x + faces.w * 2.4);
  const bottom = Math.min(height, faces.y + faces.h * 2);
  // The slide's grey just beside the inset, where the slide's own background shows.
  const beside = framesIn.flatMap((index) => {
    const scene = analysis.frames[index]?.scene;
    if (!scene) return [];
    const fx =
      left > width - right ? (left - width * 0.03) / width : (right + width * 0.03) / width;
    return [sceneCellAt(sceneGrid(scene), fx, (top + bottom) / 2 / height).brightness];
  });
  // The slide pane shows the whole frame: source pixels scale straight to pane pixels.
  const [sx, sy] = [pane.w / width, pane.h / height];
  const x = Math.floor(left * sx);
  const y = Math.floor(top * sy);
  return {
    x,
    y,
    w: Math.min(pane.w - x, Math.ceil(right * sx) - x),
    h: Math.min(pane.h - y, Math.ceil(bottom * sy) - y),
    grey: Math.round(beside.length ? median(beside) : 255),
  };
}

/**
 * Where the captions go in a segment whose panes are stacked, in output pixels: the stretch
 * between the lower edge of the upper pane's face (or of the slide) and the upper edge of the
 * lower pane's face, as the framing places faces; null when the panes are not stacked.
 */
export function captionGap(
  segment: Pick<LayoutSegment, 'layout' | 'panes'>,
): { top: number; bottom: number } | null {
  const [upper, lower] = segment.panes;
  if (!upper || !lower || segment.panes.length !== 2 || lower.y < upper.y + upper.h) return null;
  const facesPerWindow =
    segment.layout === 'split' ? SPLIT_FACES_PER_WINDOW : INSET_FACES_PER_WINDOW;
  const faceTop = FACE_HEIGHT_IN_WINDOW - 0.5 / facesPerWindow;
  const faceBottom = FACE_HEIGHT_IN_WINDOW + 0.5 / facesPerWindow;
  if (segment.layout !== 'split' && segment.layout !== 'slide_speaker') return null;
  // A slide has no face: the captions may start right under it.
  const top = segment.layout === 'split' ? upper.y + upper.h * faceBottom : upper.y + upper.h;
  return { top: Math.round(top), bottom: Math.round(lower.y + lower.h * faceTop) };
}

/**
 * The source window for a pane, of the pane's shape, `facesPerWindow` face heights tall, but
 * never magnified more than MAX_UPSCALE and never larger than the source.
 */
function paneWindow(
  pane: { w: number; h: number },
  faceHeight: number,
  facesPerWindow: number,
  source: Size,
): Size {
  const aspect = pane.w / pane.h;
  let height = Math.max(
    Number.isFinite(faceHeight) ? faceHeight * facesPerWindow : source.height,
    pane.h / MAX_UPSCALE,
  );
  height = Math.min(height, source.height, source.width / aspect);
  return { width: even(height * aspect), height: even(height) };
}

function framesOf(run: Run, analysis: SubjectAnalysis): number[] {
  return analysis.frames
    .map((frame, index) => ({ frame, index }))
    .filter(({ frame }) => frame.tMs >= run.startMs && frame.tMs < run.endMs)
    .map(({ index }) => index);
}

function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}
