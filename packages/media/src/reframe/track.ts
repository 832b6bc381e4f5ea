/**
 * Face tracking across sampled frames: detections are linked into tracks by overlap (IoU) or, for
 * a face that moved further than its own size, by centre distance. Tracks never cross a shot cut.
 */
import type { FaceBox } from './detect';
import type { SceneSample } from './scene';

export interface AnalyzedFrame {
  /** Time of the frame in ms from the start of the analysed range. */
  tMs: number;
  /** Faces in source pixels (with `mouth` when two or three share the frame). */
  faces: FaceBox[];
  /** What else the frame shows (absent in detections stored before it was measured). */
  scene?: SceneSample;
}

export interface TrackPoint {
  /** Index into `SubjectAnalysis.frames`. */
  frame: number;
  box: FaceBox;
}

export interface SubjectTrack {
  id: number;
  points: TrackPoint[];
}

export interface TrackingOptions {
  /** A face unseen for longer than this starts a new track. Default 1000 ms. */
  maxGapMs?: number;
  /** Track ends here: no track spans a cut. Times in ms, same clock as the frames. */
  shotCutsMs?: number[];
}

const MIN_IOU = 0.1;
/** A face may move this many of its own widths per second and still be the same face. */
const MAX_WIDTHS_PER_SECOND = 2.5;

export function buildTracks(
  frames: AnalyzedFrame[],
  options: TrackingOptions = {},
): SubjectTrack[] {
  const maxGapMs = options.maxGapMs ?? 1000;
  const cuts = [...(options.shotCutsMs ?? [])].sort((a, b) => a - b);
  const finished: SubjectTrack[] = [];
  let open: SubjectTrack[] = [];
  let nextId = 1;

  frames.forEach((frame, frameIndex) => {
    // Close tracks that went quiet or that a cut separates from this frame.
    open = open.filter((track) => {
      const last = track.points[track.points.length - 1]!;
      const lastMs = frames[last.frame]!.tMs;
      const cutBetween = cuts.some((cut) => cut > lastMs && cut <= frame.tMs);
      if (frame.tMs - lastMs > maxGapMs || cutBetween) {
        finished.push(track);
        return false;
      }
      return true;
    });

    const candidates: { track: SubjectTrack; face: number; cost: number }[] = [];
    for (const track of open) {
      const last = track.points[track.points.length - 1]!;
      const gapSec = Math.max(0.001, (frame.tMs - frames[last.frame]!.tMs) / 1000);
      frame.faces.forEach((face, faceIndex) => {
        const overlap = iou(last.box, face);
        const distance = Math.hypot(
          centerX(face) - centerX(last.box),
          centerY(face) - centerY(last.box),
        );
        const reach = Math.max(last.box.w, face.w) * Math.max(1, MAX_WIDTHS_PER_SECOND * gapSec);
        const sizeRatio = Math.max(face.w, last.box.w) / Math.max(1, Math.min(face.w, last.box.w));
        if (sizeRatio > 2) return; // a different face at another depth
        if (overlap >= MIN_IOU || distance <= reach) {
          candidates.push({ track, face: faceIndex, cost: 1 - overlap + distance / reach });
        }
      });
    }
    // Greedy matching, best pairs first: enough for the handful of faces in a frame.
    candidates.sort((a, b) => a.cost - b.cost);
    const usedTracks = new Set<SubjectTrack>();
    const usedFaces = new Set<number>();
    for (const candidate of candidates) {
      if (usedTracks.has(candidate.track) || usedFaces.has(candidate.face)) continue;
      usedTracks.add(candidate.track);
      usedFaces.add(candidate.face);
      candidate.track.points.push({ frame: frameIndex, box: frame.faces[candidate.face]! });
    }
    frame.faces.forEach((face, faceIndex) => {
      if (!usedFaces.has(faceIndex)) {
        open.push({ id: nextId++, points: [{ frame: frameIndex, box: face }] });
      }
    });
  });

  return [...finished, ...open].sort((a, b) => a.id - b.id);
}

function iou(a: FaceBox, b: FaceBox): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.w, b.x + b.w);
  const y2 = Math.min(a.y + a.h, b.y + b.h);
  const intersection = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.w * a.h + b.w * b.h - intersection;
  return union > 0 ? intersection / union : 0;
}

export function centerX(box: FaceBox): number {
  return box.x + box.w / 2;
}

export function centerY(box: FaceBox): number {
  return box.y + box.h / 2;
}
