import type { ExportAspect, ExportQuality } from '@moments/contract';

/** The shapes the clip editor offers (`original` is for whole-video caption exports). */
export type ClipAspect = Exclude<ExportAspect, 'original'>;

/**
 * The frame the server renders for an aspect and quality (short side 720 or 1080, even sizes),
 * mirrored from @moments/media's outputSize so the preview takes the export's shape at once.
 */
export function exportFrameSize(aspect: ClipAspect, quality: ExportQuality) {
  const short = quality === '720p' ? 720 : 1080;
  const [w, h] = aspect.split(':').map(Number) as [number, number];
  const even = (value: number) => Math.round(value / 2) * 2;
  return w >= h
    ? { width: even((short * w) / h), height: short }
    : { width: short, height: even((short * h) / w) };
}
