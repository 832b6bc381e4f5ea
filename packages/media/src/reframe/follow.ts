/**
 * Following faces inside a pane: which face to follow on each frame (with hysteresis, so the frame
 * never ping-pongs between speakers), and the window's path over a span, shot by shot (a switch
 * to a face far away is a cut, not a pan across the room).
 */
import type { Size } from './aspect';
import type { SubjectAnalysis } from './analyze';
import type { FaceBox } from './detect';
import {
  boundKeyframes,
  clamp,
  cropPathForSegment,
  dedupeTimes,
  dropRedundantKeyframes,
  fillGaps,
  movingAverage,
  simplifyPath,
} from './path';
import type { CropKeyframe } from './plan';
import { centerX, centerY, type SubjectTrack } from './track';

/** How readily the followed face changes (see PlanOptions). */
export interface SwitchSettings {
  switchAfterMs: number;
  minDwellMs: number;
  dominance: number;
}

/** The current face counts as gone after this long unseen. */
const LOST_AFTER_MS = 1000;

/** Tracks long enough to be a person rather than a one-frame false detection. */
export function usableTracks(analysis: SubjectAnalysis): SubjectTrack[] {
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
  settings: SwitchSettings,
  /** Extra weight of a face on a frame (who is speaking), 1 by default. */
  weight: (track: SubjectTrack, frameIndex: number) => number = () => 1,
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
      return box ? prominence(box, analysis.source) * weight(track, frameIndex) : 0;
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
export function boxAt(
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

/** A box to frame and who it is (a track's id, or a key for several faces framed together). */
export interface Framed {
  box: FaceBox;
  subject: number | string;
}

export interface FollowOptions {
  /** Size of the window (source pixels); it keeps this size and only moves. */
  window: Size;
  /** Where the face centre sits vertically in the window, from its top (0.4: room above the head). */
  faceHeightInWindow: number;
  deadZone: number;
  maxPanSpeed: number;
  /** What to frame on each frame of a shot: one entry per frame of `shotFrames`. */
  chooseBoxes: (shotFrames: number[]) => (Framed | undefined)[];
  /** Where the window rests on a frame with nothing to follow (default: the centre). */
  rest?: { x: number; y: number };
}

/**
 * The window's path over [startMs, endMs) (clip time), shot by shot: still for small motion,
 * smooth pans otherwise, a jump where the framed face changes to one far away, and a hold of
 * the last framing for shots too short to sample.
 */
export function followPath(
  analysis: SubjectAnalysis,
  startMs: number,
  endMs: number,
  options: FollowOptions,
): CropKeyframe[] {
  const { window } = options;
  const frames = analysis.frames;
  const bounds = {
    maxX: Math.max(0, analysis.source.width - window.width),
    maxY: Math.max(0, analysis.source.height - window.height),
  };
  const rest = options.rest ?? { x: bounds.maxX / 2, y: bounds.maxY / 2 };
  const keyframes: CropKeyframe[] = [];
  const cuts = analysis.shotCutsMs.filter((cut) => cut > startMs && cut < endMs);
  const shotEdges = [startMs, ...cuts, endMs];
  for (let shot = 0; shot + 1 < shotEdges.length; shot++) {
    const shotStart = shotEdges[shot]!;
    const shotEnd = shotEdges[shot + 1]!;
    const shotFrames = frames
      .map((frame, index) => ({ frame, index }))
      .filter(({ frame }) => frame.tMs >= shotStart && frame.tMs < shotEnd)
      .map(({ index }) => index);
    if (shotFrames.length === 0) {
      // A shot too short to sample holds the previous framing (or the resting one).
      const previous = keyframes[keyframes.length - 1];
      keyframes.push(
        previous
          ? { ...previous, tMs: shotStart }
          : { tMs: shotStart, x: rest.x, y: rest.y, w: window.width, h: window.height },
      );
      continue;
    }
    const boxes = options.chooseBoxes(shotFrames);
    const targets = boxes.map((framed) =>
      framed
        ? {
            x: clamp(centerX(framed.box) - window.width / 2, 0, bounds.maxX),
            y: clamp(
              centerY(framed.box) - window.height * options.faceHeightInWindow,
              0,
              bounds.maxY,
            ),
          }
        : undefined,
    );
    const filled = fillGaps(targets, rest);

    // A change to a face far away is a cut, not a pan across the room.
    const segmentStarts = [0];
    for (let i = 1; i < shotFrames.length; i++) {
      const jump = Math.max(
        Math.abs(filled[i]!.x - filled[i - 1]!.x) / window.width,
        Math.abs(filled[i]!.y - filled[i - 1]!.y) / window.height,
      );
      const changed = boxes[i] && boxes[i - 1] && boxes[i]!.subject !== boxes[i - 1]!.subject;
      if (changed && jump > 0.2) segmentStarts.push(i);
    }
    for (let s = 0; s < segmentStarts.length; s++) {
      const from = segmentStarts[s]!;
      const to = segmentStarts[s + 1] ?? shotFrames.length;
      const times = shotFrames.slice(from, to).map((index) => frames[index]!.tMs);
      const follow = (values: number[], side: number, max: number) =>
        cropPathForSegment(values, {
          fps: analysis.sampleFps,
          timesMs: times,
          deadZone: options.deadZone * side,
          maxSpeed: options.maxPanSpeed * side,
          min: 0,
          max,
        });
      const xs = follow(
        filled.slice(from, to).map((p) => p.x),
        window.width,
        bounds.maxX,
      );
      const ys = follow(
        filled.slice(from, to).map((p) => p.y),
        window.height,
        bounds.maxY,
      );
      const segmentStart = s === 0 ? shotStart : times[0]!;
      const segmentEnd = s + 1 < segmentStarts.length ? frames[shotFrames[to]!]!.tMs : shotEnd;
      const points = [
        { tMs: segmentStart, x: xs[0]!, y: ys[0]! },
        ...times.map((tMs, i) => ({ tMs, x: xs[i]!, y: ys[i]! })),
        { tMs: segmentEnd, x: xs[xs.length - 1]!, y: ys[ys.length - 1]! },
      ];
      // The previous stretch holds until this one starts: equal times make the jump.
      for (const point of simplifyPath(dedupeTimes(points), 1)) {
        keyframes.push({
          tMs: point.tMs,
          x: point.x,
          y: point.y,
          w: window.width,
          h: window.height,
        });
      }
    }
  }
  return dropRedundantKeyframes(boundKeyframes(keyframes));
}

/** The faces' union box, or undefined for none. */
export function unionBox(boxes: readonly FaceBox[]): FaceBox | undefined {
  if (boxes.length === 0) return undefined;
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.w));
  const bottom = Math.max(...boxes.map((b) => b.y + b.h));
  return { x, y, w: right - x, h: bottom - y, score: Math.min(...boxes.map((b) => b.score)) };
}
