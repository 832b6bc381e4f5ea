import type { CaptionDisplay, ExportAspect } from '@moments/contract';
import type { ClipAspect } from './frame';

/** Choices the clip editor and the caption result page both offer, labelled once. */
export const CLIP_ASPECT_OPTIONS: { value: ClipAspect; label: string }[] = [
  { value: '9:16', label: '9:16' },
  { value: '1:1', label: '1:1' },
  { value: '4:5', label: '4:5' },
  { value: '16:9', label: '16:9' },
];

/** A whole video may also keep its own shape. */
export const VIDEO_ASPECT_OPTIONS: { value: ExportAspect; label: string }[] = [
  { value: 'original', label: 'Original' },
  ...CLIP_ASPECT_OPTIONS,
];

export const CAPTION_DISPLAY_OPTIONS: { value: CaptionDisplay; label: string }[] = [
  { value: 'source', label: 'Original language' },
  { value: 'translate', label: 'Translation' },
  { value: 'all', label: 'Original and translation' },
  { value: 'none', label: 'No captions' },
];
