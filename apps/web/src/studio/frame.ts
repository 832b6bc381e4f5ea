import type { ExportAspect, ExportQuality } from '@moments/contract';
import { outputSize } from '@moments/domain/frame';

/** The shapes the clip editor offers (`original` is for whole-video caption exports). */
export type ClipAspect = Exclude<ExportAspect, 'original'>;

/**
 * The frame the server renders for an aspect and quality: the rule in packages/domain that the
 * export uses too, so the preview takes the export's shape at once.
 */
export function exportFrameSize(aspect: ClipAspect, quality: ExportQuality) {
  return outputSize(aspect, quality);
}
