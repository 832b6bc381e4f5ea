/**
 * Frame sizes that the clip editor (preview) and the server (export, framing) must agree on
 * (one rule, one place).
 */

export interface FrameSize {
  width: number;
  height: number;
}

/** An `w:h` aspect such as `9:16`, and the `720p`/`1080p` qualities. */
export type FrameAspect = `${number}:${number}`;
export type FrameQuality = '720p' | '1080p';

/** Nearest even integer, at least 2 (yuv420p needs even widths and heights). */
export function evenSize(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}

/**
 * Pixel size of an exported clip: "720p"/"1080p" name the short side, as phones do
 * (9:16 1080p = 1080x1920, 16:9 720p = 1280x720, 4:5 1080p = 1080x1350).
 */
export function outputSize(aspect: FrameAspect, quality: FrameQuality): FrameSize {
  const shortSide = quality === '1080p' ? 1080 : 720;
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  const ratio = w / h;
  return ratio >= 1
    ? { width: evenSize(shortSide * ratio), height: shortSide }
    : { width: shortSide, height: evenSize(shortSide / ratio) };
}

/**
 * The upright size of a video whose stream is `width`x`height` with a display rotation in degrees
 * (phones store portrait video as landscape plus a 90° turn, which ffmpeg applies when decoding).
 */
export function uprightFrameSize(width: number, height: number, rotation = 0): FrameSize {
  const quarterTurn = Math.abs(Math.round(rotation / 90)) % 2 === 1;
  return quarterTurn ? { width: height, height: width } : { width, height };
}
