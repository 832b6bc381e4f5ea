import { ActionIcon, Alert, Group, Loader, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import type { OverlayState } from './useCaptionRenderer';
import { formatClock } from './trim';
import { t } from '../messages/catalogue';

/** Under the preview: play/pause, where in the clip it is, and how the caption renderer fares. */
export function PlayerControls({
  playing,
  onToggle,
  positionMs,
  clipMs,
  overlayState,
}: {
  playing: boolean;
  onToggle(): void;
  positionMs: number;
  clipMs: number;
  overlayState: OverlayState;
}) {
  return (
    <>
      <Group justify="center" gap="sm" mt="xs">
        <ActionIcon
          variant="filled"
          radius="xl"
          size="lg"
          onClick={onToggle}
          aria-label={playing ? t('studio.preview.pause') : t('studio.preview.play')}
        >
          {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
        </ActionIcon>
        <Text size="sm" ff="monospace" aria-label={t('studio.preview.position')}>
          {formatClock(positionMs)} / {formatClock(clipMs)}
        </Text>
        {overlayState === 'loading' && (
          <Loader size="xs" role="status" aria-label={t('studio.preview.loadingCaptions')} />
        )}
      </Group>
      {overlayState === 'failed' && (
        <Alert color="yellow" mt="xs" title={t('studio.preview.unavailable.title')}>
          {t('studio.preview.unavailable.text')}
        </Alert>
      )}
    </>
  );
}
