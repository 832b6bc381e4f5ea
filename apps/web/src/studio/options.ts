import type { CaptionDisplay, ExportAspect } from '@moments/contract';
import type { ClipAspect } from './frame';
import { t } from '../messages/catalogue';

/** Choices the clip editor and the caption result page both offer, labelled once. */
export const CLIP_ASPECT_OPTIONS: { value: ClipAspect; label: string }[] = [
  { value: '9:16', label: '9:16' },
  { value: '1:1', label: '1:1' },
  { value: '4:5', label: '4:5' },
  { value: '16:9', label: '16:9' },
];

/** A whole video may also keep its own shape. */
export const VIDEO_ASPECT_OPTIONS: { value: ExportAspect; label: string }[] = [
  { value: 'original', label: t('studio.aspect.original') },
  ...CLIP_ASPECT_OPTIONS,
];

export const CAPTION_DISPLAY_OPTIONS: { value: CaptionDisplay; label: string }[] = [
  { value: 'source', label: t('studio.display.source') },
  { value: 'translate', label: t('studio.display.translate') },
  { value: 'all', label: t('studio.display.all') },
  { value: 'none', label: t('studio.display.none') },
];
