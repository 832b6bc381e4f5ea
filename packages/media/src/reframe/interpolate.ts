/**
 * Faces between two detections: the analysis is offline, so a sample between two detected ones of
 * the same shot can take its faces from both neighbours when they agree (same faces, moved and
 * resized a little). Smooth motion then costs the detector every other sample; anything sudden
 * (a face appearing, a jump, a zoom) sends the sample itself through the detector.
 */
import type { FaceBox } from './detect';

/** A face may move up to its own width between the two neighbours (fast for a speaker) and agree. */
const MAX_SHIFT_OF_WIDTH = 1;
/** ...and change size by at most this factor. */
const MAX_SIZE_CHANGE = 1.25;

/**
 * The faces of `after` paired with those of `before` (same order as `before`), or undefined when
 * the two samples do not show the same faces moving a little.
 */
function pairFaces(before: readonly FaceBox[], after: readonly FaceBox[]): FaceBox[] | undefined {
  if (before.length !== after.length) return undefined;
  const left = [...after];
  const paired: FaceBox[] = [];
  for (const face of before) {
    let best = -1;
    let bestDistance = Infinity;
    left.forEach((candidate, index) => {
      const distance = Math.hypot(
        centreX(candidate) - centreX(face),
        centreY(candidate) - centreY(face),
      );
      if (distance < bestDistance) {
        best = index;
        bestDistance = distance;
      }
    });
    const match = left[best];
    if (!match) return undefined;
    const width = Math.max(face.w, match.w);
    const sizeChange = Math.max(face.w, match.w) / Math.max(1e-6, Math.min(face.w, match.w));
    if (bestDistance > MAX_SHIFT_OF_WIDTH * width || sizeChange > MAX_SIZE_CHANGE) return undefined;
    paired.push(match);
    left.splice(best, 1);
  }
  return paired;
}

/**
 * Faces at `fraction` (0 = `before`, 1 = `after`) of the way between two samples that agree, or
 * undefined when they do not (see `pairFaces`).
 */
export function interpolateFaces(
  before: readonly FaceBox[],
  after: readonly FaceBox[],
  fraction: number,
): FaceBox[] | undefined {
  const paired = pairFaces(before, after);
  if (!paired) return undefined;
  const mix = (a: number, b: number) => a + (b - a) * fraction;
  return before.map((face, index) => {
    const other = paired[index]!;
    return {
      x: mix(face.x, other.x),
      y: mix(face.y, other.y),
      w: mix(face.w, other.w),
      h: mix(face.h, other.h),
      score: Math.min(face.score, other.score),
    };
  });
}

const centreX = (box: FaceBox) => box.x + box.w / 2;
const centreY = (box: FaceBox) => box.y + box.h / 2;
