/**
 * Face detections kept per source, so the moments of one task analyse the source once: a span
 * that overlaps stretches analysed earlier (by another moment, or another process through a
 * persistent store) decodes only the parts no stretch covers.
 *
 * Frames sit on one grid per source (multiples of 1000 / sampleFps ms from the start of the
 * file, plus the denser samples after cuts), so a frame found by one analysis is the same frame
 * another analysis of an overlapping span would have decoded.
 */
import type { Size } from './aspect';
import type { AnalyzedFrame } from './track';

/** Faces on the sampled frames of one analysed stretch of a source, in the source's own time. */
export interface DetectedStretch {
  /** How the detections were made (sampling, analysis size): see `detectionSettings`. */
  settings: string;
  /** Displayed size of the source, rotation applied. */
  source: Size;
  /** Covers every sample at `startMs <= tMs < endMs`. */
  startMs: number;
  endMs: number;
  /** Samples with `tMs` in the source's time. */
  frames: AnalyzedFrame[];
  /** Cuts at `startMs <= t < endMs`, in the source's time. */
  shotCutsMs: number[];
  /** Loudness of the sound every 100 ms in the stretch, in the source's time (none: silent). */
  energy?: EnergySample[];
}

/** The sound's loudness over 100 ms starting at `tMs`, in dBFS (silence: -120). */
export interface EnergySample {
  tMs: number;
  db: number;
}

/** Where the stretches of one source are kept (in memory, or the database for other processes). */
export interface DetectionStore {
  /** Stretches made with `settings` that overlap [startMs, endMs). */
  find(settings: string, startMs: number, endMs: number): Promise<DetectedStretch[]>;
  save(stretch: DetectedStretch): Promise<void>;
}

export interface TimeRange {
  startMs: number;
  endMs: number;
}

/** Bumped when the analysis changes what it finds, so stretches made by older code are not mixed in. */
const DETECTION_VERSION = 3;

/** Identifies the detections comparable with each other: same sampling, same analysis size. */
export function detectionSettings(sampleFps: number, analysisLongSide: number): string {
  return `v${DETECTION_VERSION}:${sampleFps}fps:${analysisLongSide}px`;
}

/** The parts of `range` no stretch covers, in time order. */
export function uncoveredRanges(range: TimeRange, covered: readonly TimeRange[]): TimeRange[] {
  const gaps: TimeRange[] = [];
  let from = range.startMs;
  const sorted = [...covered].sort((a, b) => a.startMs - b.startMs);
  for (const stretch of sorted) {
    if (stretch.endMs <= from || stretch.startMs >= range.endMs) continue;
    if (stretch.startMs > from) gaps.push({ startMs: from, endMs: stretch.startMs });
    from = Math.max(from, stretch.endMs);
    if (from >= range.endMs) break;
  }
  if (from < range.endMs) gaps.push({ startMs: from, endMs: range.endMs });
  return gaps;
}

/** Stretches kept in this process only; enough for the moments of a task planned together. */
export class MemoryDetectionStore implements DetectionStore {
  private readonly stretches: DetectedStretch[] = [];

  async find(settings: string, startMs: number, endMs: number): Promise<DetectedStretch[]> {
    return this.stretches.filter(
      (stretch) =>
        stretch.settings === settings && stretch.startMs < endMs && stretch.endMs > startMs,
    );
  }

  async save(stretch: DetectedStretch): Promise<void> {
    this.stretches.push(stretch);
  }
}
