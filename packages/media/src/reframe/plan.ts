/**
 * From a shot analysis to a reframing plan: what each stretch shows decides its layout (speaker
 * close-up, two people split, a slide with the speaker below it, the whole frame fitted over a
 * blurred fill), switched with hysteresis on sentence ends and pauses; within a layout each
 * pane's window holds perfectly still for small motion and pans smoothly otherwise (design.md
 * "Where the product must beat the others": steady on one speaker, never jitters, two people
 * together when both talk, slides whole and readable, blurred fit when no subject is found).
 * The plan also says how light or busy the picture is under each caption position.
 */
import {
  cropWindowSize,
  outputSize,
  type AspectRatio,
  type OutputQuality,
  type Size,
} from './aspect';
import type { SubjectAnalysis } from './analyze';
import { captionBackgrounds, type CaptionBackgrounds } from './caption-background';
import { usableTracks } from './follow';
import {
  segmentLayouts,
  segmentPanes,
  stacksVertically,
  type FramingLayout,
  type LayoutChoice,
  type LayoutSegment,
} from './layout';
import { understandShots, type FrameShot } from './shots';

/** Top-left corner and size of a source window in source pixels, from `tMs` on. */
export interface CropKeyframe {
  /** ms from the plan's `startMs`. Two keyframes with the same time are a jump (a cut). */
  tMs: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The plan at a glance: `crop` (one speaker close-up all along), `blur_fit` (the whole frame
 * fitted all along), `split`, `slide_speaker`, or `mixed` when the layout changes.
 */
export type PlanLayout = 'crop' | 'blur_fit' | 'split' | 'slide_speaker' | 'mixed';

export interface ReframePlan {
  layout: PlanLayout;
  aspect: AspectRatio;
  quality: OutputQuality;
  source: Size;
  output: Size;
  /** Range of the source the plan covers (filters see time 0 at `startMs`). */
  startMs: number;
  endMs: number;
  /** The layouts over time; they tile [0, endMs - startMs). */
  segments: LayoutSegment[];
  /** How light or busy the picture is under the captions at each position. */
  captionBackground: CaptionBackgrounds;
  /** Layout changes not at a cut of the source, per minute of clip (hysteresis keeps it low). */
  switchesPerMinute: number;
}

export interface PlanOptions {
  aspect: AspectRatio;
  quality: OutputQuality;
  /** `auto` (default) lets each stretch decide; any other layout is used wherever it can be. */
  layout?: LayoutChoice;
  /** Sentence ends and pauses in the source's time: layout switches move onto them. */
  breaksMs?: readonly number[];
  /** Motion of the subject inside this fraction of the window moves nothing. Default 0.12. */
  deadZone?: number;
  /** Fastest pan, in window widths (or heights) per second. Default 1. */
  maxPanSpeed?: number;
  /** A face must dominate the current one this long before the frame switches. Default 1500 ms. */
  switchAfterMs?: number;
  /** Shortest time on one speaker before another switch. Default 2500 ms. */
  minDwellMs?: number;
  /** How much stronger (size, centrality, confidence) a face must be to dominate. Default 1.4. */
  dominance?: number;
  /** Below this share of frames with a face the whole clip is fitted (auto). Default 0.3. */
  minSubjectCoverage?: number;
  /** Shortest layout segment, unless the source cuts. Default 3000 ms. */
  minShotMs?: number;
  /** How far a switch may move to land on a sentence end or a pause. Default 1500 ms. */
  snapMs?: number;
}

const DEFAULTS = {
  deadZone: 0.12,
  maxPanSpeed: 1,
  switchAfterMs: 1500,
  minDwellMs: 2500,
  dominance: 1.4,
  minSubjectCoverage: 0.3,
  minShotMs: 3000,
  snapMs: 1500,
};

export function planReframe(analysis: SubjectAnalysis, options: PlanOptions): ReframePlan {
  const settings = { ...DEFAULTS, ...definedOnly(options) };
  const output = outputSize(options.aspect, options.quality);
  const durationMs = analysis.endMs - analysis.startMs;
  const tracks = usableTracks(analysis);
  const shots = understandShots(analysis, tracks);
  const crop = cropWindowSize(analysis.source, options.aspect);
  const sameShape = crop.width === analysis.source.width && crop.height === analysis.source.height;

  const choice = options.layout ?? 'auto';
  const withFaces = shots.filter((shot) => shot.faces.length > 0).length;
  const fewFaces =
    analysis.frames.length === 0 ||
    withFaces / analysis.frames.length < settings.minSubjectCoverage;
  const wished = analysis.frames.map((frame, index) => ({
    tMs: frame.tMs,
    layout:
      // Same shape as the source: nothing to choose, the whole frame is shown.
      sameShape || (choice === 'auto' && fewFaces && shots[index]!.kind !== 'screen')
        ? ('fit' as const)
        : layoutFor(shots[index]!, choice, output, crop),
  }));
  const runs = sameShape
    ? [{ layout: 'fit' as const, startMs: 0, endMs: durationMs }]
    : segmentLayouts(wished, {
        durationMs,
        cutsMs: analysis.shotCutsMs,
        breaksMs: (options.breaksMs ?? [])
          .map((ms) => ms - analysis.startMs)
          .filter((ms) => ms > 0 && ms < durationMs),
        minShotMs: settings.minShotMs,
        snapMs: settings.snapMs,
      });
  const context = {
    analysis,
    shots,
    tracks,
    aspect: options.aspect,
    output,
    switching: settings,
    deadZone: settings.deadZone,
    maxPanSpeed: settings.maxPanSpeed,
  };
  const segments: LayoutSegment[] = runs.map((run) => ({
    ...run,
    ...segmentPanes(run, context),
  }));
  const plan: Omit<ReframePlan, 'captionBackground'> = {
    layout: summary(segments),
    aspect: options.aspect,
    quality: options.quality,
    source: analysis.source,
    output,
    startMs: analysis.startMs,
    endMs: analysis.endMs,
    segments,
    switchesPerMinute: switchesPerMinute(segments, analysis.shotCutsMs, durationMs),
  };
  return { ...plan, captionBackground: captionBackgrounds(plan, analysis) };
}

/** The layout one frame asks for. */
function layoutFor(shot: FrameShot, choice: LayoutChoice, output: Size, crop: Size): FramingLayout {
  const hasFace = shot.faces.length > 0;
  const slideFits = stacksVertically(output);
  if (choice !== 'auto') {
    // The user's layout wherever the frame has what it needs.
    if (choice === 'fit') return 'fit';
    if (choice === 'split') return shot.faces.length >= 2 ? 'split' : hasFace ? 'speaker' : 'fit';
    if (choice === 'slide_speaker') return hasFace && slideFits ? 'slide_speaker' : 'fit';
    return hasFace ? 'speaker' : 'fit';
  }
  switch (shot.kind) {
    case 'screen':
      return hasFace && slideFits ? 'slide_speaker' : 'fit';
    case 'empty':
    case 'wide':
      return 'fit';
    case 'speaker':
      return 'speaker';
    case 'pair': {
      const [a, b] = shot.faces;
      const left = Math.min(a!.box.x, b!.box.x);
      const right = Math.max(a!.box.x + a!.box.w, b!.box.x + b!.box.w);
      // Close enough for one window: both stay in the close-up.
      if (right - left <= crop.width * 0.85) return 'speaker';
      return shot.speaking === 'both' || shot.speaking === 'unclear' || !shot.speaking
        ? 'split'
        : 'speaker';
    }
  }
}

function summary(segments: readonly LayoutSegment[]): PlanLayout {
  const kinds = new Set(segments.map((segment) => segment.layout));
  if (kinds.size !== 1) return 'mixed';
  const only = [...kinds][0]!;
  return only === 'speaker' ? 'crop' : only === 'fit' ? 'blur_fit' : only;
}

/** Changes of layout that the source's own cuts do not explain, per minute. */
function switchesPerMinute(
  segments: readonly LayoutSegment[],
  cutsMs: readonly number[],
  durationMs: number,
): number {
  let switches = 0;
  for (let i = 1; i < segments.length; i++) {
    const at = segments[i]!.startMs;
    if (!cutsMs.some((cut) => Math.abs(cut - at) <= 50)) switches++;
  }
  return durationMs > 0 ? Math.round((switches / (durationMs / 60_000)) * 100) / 100 : 0;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
