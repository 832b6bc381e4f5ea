import { Text } from '@mantine/core';
import type { ClipFraming, ExportLayout, FramingSegment } from '@moments/contract';
import type { ApiError } from '../api/client';
import { t } from '../messages/catalogue';

/** How each layout is named where the preview says what auto chose. */
const SEGMENT_NAMES: Record<FramingSegment['layout'], string> = {
  speaker: t('studio.framingNote.speaker'),
  split: t('studio.framingNote.split'),
  fit: t('studio.framingNote.fit'),
  slide_speaker: t('studio.framingNote.slideSpeaker'),
};

/** The line under the clip's preview: how it is framed, or why the framing cannot be shown. */
export function FramingNote({
  layout,
  framing,
  error,
}: {
  layout: ExportLayout;
  framing: ClipFraming | undefined;
  error: ApiError | null;
}) {
  if (!error && !framing) return null;
  return (
    <Text size="xs" c="dimmed" mt={6} ta="center" data-testid="framing-note">
      {error
        ? t('studio.framingNote.failed', { message: error.message })
        : framingNote(layout, framing!)}
    </Text>
  );
}

/** What the preview frames, in words: what auto chose stretch by stretch, or why it fitted. */
function framingNote(layout: ExportLayout, framing: ClipFraming): string {
  const kinds = framing.segments
    .map((segment) => segment.layout)
    .filter((kind, i, all) => i === 0 || all[i - 1] !== kind);
  if (layout === 'auto' && kinds.length === 1 && kinds[0] === 'fit') {
    return t('studio.framingNote.noOne');
  }
  const named = kinds.map((kind) => SEGMENT_NAMES[kind]).join(t('studio.framingNote.then'));
  const backing =
    framing.caption_background.bottom === 'light'
      ? ` ${t('studio.framingNote.light')}`
      : framing.caption_background.bottom === 'busy'
        ? ` ${t('studio.framingNote.busy')}`
        : '';
  const sentence = layout === 'auto' ? 'studio.framingNote.auto' : 'studio.framingNote.chosen';
  return t(sentence, { segments: named }) + backing;
}
