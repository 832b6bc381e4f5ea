/**
 * Shot understanding: what each sampled frame shows, read from the analysis (faces, mouths,
 * scene statistics, the sound's loudness). A frame is a slide or screen share (large flat areas
 * and sharp two-tone text, barely moving), one speaker, a pair of people, a wide shot (many faces,
 * or none), and for a pair: who is speaking, from how their mouths move with the speech energy.
 */
import type { SubjectAnalysis } from './analyze';
import type { FaceBox } from './detect';
import type { SubjectTrack } from './track';
import { centerX } from './track';

export type ShotKind = 'screen' | 'speaker' | 'pair' | 'wide' | 'empty';

export interface FrameShot {
  kind: ShotKind;
  /** The usable faces on the frame, largest first. */
  faces: { track: SubjectTrack; box: FaceBox }[];
  /** For `pair`: the two people, left first. */
  pair?: [SubjectTrack, SubjectTrack];
  /** For `pair`: who speaks around this frame. */
  speaking?: SubjectTrack | 'both' | 'unclear';
}

/** A slide or a screen: this share of the frame flat (one colour)... */
const SCREEN_FLAT = 0.3;
/** ...with this share of sharp two-tone cells (text, line graphics)... */
const SCREEN_GRAPHIC = 0.04;
/** ...and barely moving between samples (mean per-byte change; a talking head is about 1). */
const SCREEN_MOTION = 3;
/** Four faces or more is a crowd; a third face under this share of the second's size is background. */
const BACKGROUND_FACE = 0.6;
/** Who speaks is judged over this much time either side of a frame. */
const SPEAKING_WINDOW_MS = 2000;
/**
 * Correlation of a mouth's opening with the speech energy (weighed by how much it moves next to
 * the other mouth) above which that face talks...
 */
const TALKS = 0.3;
/** ...and under which it does not (in between: unclear). */
const SILENT = 0.2;
/** A mouth whose opening varies less than this (share of face height) is not moving at all. */
const MOUTH_STILL = 0.002;
/** Samples of both mouths needed in a window before anything is said about who speaks. */
const MIN_MOUTH_SAMPLES = 5;
/** Loudness above which a 100 ms stretch counts as speech, over the quietest of the window. */
const SPEECH_OVER_FLOOR_DB = 12;

export function understandShots(
  analysis: SubjectAnalysis,
  tracks: readonly SubjectTrack[],
): FrameShot[] {
  const byFrame = analysis.frames.map(() => [] as { track: SubjectTrack; box: FaceBox }[]);
  for (const track of tracks) {
    for (const point of track.points) byFrame[point.frame]?.push({ track, box: point.box });
  }
  const shots = analysis.frames.map((frame, index): FrameShot => {
    const faces = byFrame[index]!.sort((a, b) => b.box.h - a.box.h);
    const scene = frame.scene;
    if (
      scene &&
      scene.flat >= SCREEN_FLAT &&
      scene.graphic >= SCREEN_GRAPHIC &&
      scene.motion <= SCREEN_MOTION
    ) {
      return { kind: 'screen', faces };
    }
    const people =
      faces.length === 3 && faces[2]!.box.h < BACKGROUND_FACE * faces[1]!.box.h
        ? faces.slice(0, 2)
        : faces;
    if (people.length === 0) return { kind: 'empty', faces };
    if (people.length === 1) return { kind: 'speaker', faces };
    if (people.length > 2) return { kind: 'wide', faces };
    const [a, b] = [people[0]!.track, people[1]!.track].sort(
      (p, q) =>
        centerX(people.find((f) => f.track === p)!.box) -
        centerX(people.find((f) => f.track === q)!.box),
    ) as [SubjectTrack, SubjectTrack];
    return { kind: 'pair', faces, pair: [a, b] };
  });
  markSpeakers(analysis, shots);
  return shots;
}

/** Fills `speaking` on every pair frame from its pair's mouths and the speech energy around it. */
function markSpeakers(analysis: SubjectAnalysis, shots: FrameShot[]): void {
  const frames = analysis.frames;
  const energyAt = loudnessLookup(analysis);
  shots.forEach((shot, index) => {
    if (shot.kind !== 'pair' || !shot.pair) return;
    const [left, right] = shot.pair;
    const t = frames[index]!.tMs;
    const samples: { a: number; b: number; energy: number }[] = [];
    for (let j = 0; j < shots.length; j++) {
      const other = shots[j]!;
      if (Math.abs(frames[j]!.tMs - t) > SPEAKING_WINDOW_MS || other.kind !== 'pair') continue;
      const a = other.faces.find((face) => face.track === left)?.box.mouth;
      const b = other.faces.find((face) => face.track === right)?.box.mouth;
      const energy = energyAt(frames[j]!.tMs);
      if (a !== undefined && b !== undefined && energy !== undefined) {
        samples.push({ a, b, energy });
      }
    }
    shot.speaking = whoSpeaks(samples, left, right);
  });
}

/**
 * From mouth openings and speech loudness sampled together: the face whose mouth opens with the
 * sound speaks; both when both do; unclear when neither clearly does (or nobody talks).
 */
export function whoSpeaks<T>(
  samples: readonly { a: number; b: number; energy: number }[],
  left: T,
  right: T,
): T | 'both' | 'unclear' {
  if (samples.length < MIN_MOUTH_SAMPLES) return 'unclear';
  const energies = samples.map((sample) => sample.energy);
  const floor = Math.min(...energies);
  const speech = energies.filter((db) => db >= floor + SPEECH_OVER_FLOOR_DB).length;
  if (speech < 2) return 'unclear';
  // Loudness as amplitude: a syllable's peak weighs more than the room's hum.
  const amplitude = energies.map((db) => 10 ** (db / 20));
  const spreadA = standardDeviation(samples.map((sample) => sample.a));
  const spreadB = standardDeviation(samples.map((sample) => sample.b));
  const widest = Math.max(spreadA, spreadB);
  // A mouth that opens with the syllables, weighed by how much it moves next to the other one
  // (a listener's mouth twitches; a talker's opens and closes all the time).
  const talks = (mouths: number[], spread: number) =>
    spread < MOUTH_STILL ? 0 : correlation(mouths, amplitude) * (spread / widest);
  const a = talks(
    samples.map((sample) => sample.a),
    spreadA,
  );
  const b = talks(
    samples.map((sample) => sample.b),
    spreadB,
  );
  if (a >= TALKS && b >= TALKS) return 'both';
  if (a >= TALKS && b <= SILENT) return left;
  if (b >= TALKS && a <= SILENT) return right;
  return 'unclear';
}

/** The loudness (dBFS) of the 100 ms around a time, or undefined without sound. */
function loudnessLookup(analysis: SubjectAnalysis): (tMs: number) => number | undefined {
  const energy = analysis.energy;
  if (energy.length === 0) return () => undefined;
  return (tMs) => {
    let low = 0;
    let high = energy.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (energy[mid]!.tMs <= tMs) low = mid;
      else high = mid - 1;
    }
    const sample = energy[low]!;
    return Math.abs(sample.tMs - tMs) <= 200 ? sample.db : undefined;
  };
}

function standardDeviation(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length);
}

/** Pearson correlation; 0 when either series is constant. */
function correlation(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}
