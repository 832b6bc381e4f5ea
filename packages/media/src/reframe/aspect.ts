import { outputSize as domainOutputSize } from '@moments/domain/frame';

/** Aspect ratios the clip editor offers. */
export const ASPECT_RATIOS = ['9:16', '1:1', '4:5', '16:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export const OUTPUT_QUALITIES = ['720p', '1080p'] as const;
export type OutputQuality = (typeof OUTPUT_QUALITIES)[number];

export interface Size {
  width: number;
  height: number;
}

export function isAspectRatio(value: unknown): value is AspectRatio {
  return typeof value === 'string' && (ASPECT_RATIOS as readonly string[]).includes(value);
}

/** Width / height of an aspect ratio, e.g. 0.5625 for 9:16. */
function aspectValue(aspect: AspectRatio): number {
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  return w / h;
}

/**
 * Pixel size of the exported video: "720p"/"1080p" name the short side, as phones do
 * (9:16 1080p = 1080x1920, 16:9 720p = 1280x720, 4:5 1080p = 1080x1350).
 */
export function outputSize(aspect: AspectRatio, quality: OutputQuality): Size {
  // The rule lives in packages/domain: the editor's preview uses the very same one.
  return domainOutputSize(aspect, quality);
}

/** The largest even-sized window of `aspect` inside `source` (no zoom-in beyond the frame). */
export function cropWindowSize(source: Size, aspect: AspectRatio): Size {
  const ratio = aspectValue(aspect);
  if (source.width / source.height > ratio) {
    return {
      width: Math.min(evenFloor(source.width), even(source.height * ratio)),
      height: evenFloor(source.height),
    };
  }
  return {
    width: evenFloor(source.width),
    height: Math.min(evenFloor(source.height), even(source.width / ratio)),
  };
}

/** `inner` scaled to fit inside `outer`, keeping its shape (even sizes for yuv420p). */
export function fitInside(inner: Size, outer: Size): Size {
  const scale = Math.min(outer.width / inner.width, outer.height / inner.height);
  return {
    width: Math.min(outer.width, even(inner.width * scale)),
    height: Math.min(outer.height, even(inner.height * scale)),
  };
}

/** Nearest even integer (yuv420p needs even widths and heights). */
function even(value: number): number {
  return Math.max(2, Math.round(value / 2) * 2);
}

function evenFloor(value: number): number {
  return Math.max(2, Math.floor(value / 2) * 2);
}
