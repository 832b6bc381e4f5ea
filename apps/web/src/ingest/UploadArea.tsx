import { Alert, Box, Button, Group, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { UPLOAD_EXTENSIONS } from '@moments/contract';
import {
  IconAlertCircle,
  IconCloudUpload,
  IconPlayerPause,
  IconPlayerPlay,
  IconX,
} from '@tabler/icons-react';
import { useRef, useState } from 'react';
import type { useVideoUpload } from './upload';
import { t } from '../messages/catalogue';

const ACCEPT = [
  ...UPLOAD_EXTENSIONS.map((extension) => `.${extension}`),
  'video/mp4',
  'video/quicktime',
  'video/webm',
].join(',');

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

const PHASE_LABELS = {
  uploading: t('ingest.upload.phase.uploading'),
  paused: t('ingest.upload.phase.paused'),
  processing: t('ingest.upload.phase.processing'),
  done: t('ingest.upload.phase.done'),
} as const;

/** The upload area: drag and drop or pick an mp4, mov or webm; resumable with pause and resume. */
export function UploadArea({ upload }: { upload: ReturnType<typeof useVideoUpload> }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { state } = upload;
  const busy =
    state.phase === 'uploading' || state.phase === 'paused' || state.phase === 'processing';
  const canResume = state.phase === 'error' && state.error?.code === 'NETWORK_DISCONNECTED';

  const pick = (files: FileList | null) => {
    const file = files?.[0];
    if (file) upload.start(file);
  };

  return (
    <Stack gap="sm">
      <Box
        data-testid="upload-area"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          pick(event.dataTransfer.files);
        }}
        p="lg"
        style={{
          border: `2px dashed var(--mantine-color-${dragging ? 'violet-5' : 'gray-4'})`,
          borderRadius: 'var(--mantine-radius-lg)',
          background: dragging ? 'var(--mantine-color-violet-0)' : 'var(--mantine-color-gray-0)',
          transition: 'background 120ms, border-color 120ms',
        }}
      >
        <Group justify="center" gap="md" wrap="wrap" ta="center">
          <ThemeIcon size={44} radius="xl" variant="light">
            <IconCloudUpload size={24} />
          </ThemeIcon>
          <Stack gap={2} align="flex-start" ta="left">
            <Text fw={600}>{t('ingest.upload.drop')}</Text>
            <Text size="sm" c="dimmed">
              {t('ingest.upload.formats')}
            </Text>
          </Stack>
          <Button variant="default" onClick={() => inputRef.current?.click()} disabled={busy}>
            {t('ingest.upload.choose')}
          </Button>
          <input
            ref={inputRef}
            type="file"
            accept={ACCEPT}
            aria-label={t('a11y.uploadAVideo')}
            hidden
            onChange={(event) => {
              pick(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        </Group>
      </Box>

      {state.phase !== 'idle' && state.phase !== 'error' && (
        <Box data-testid="upload-progress">
          <Group justify="space-between" mb={6} wrap="nowrap" gap="sm">
            <Text size="sm" fw={500} truncate="end">
              {state.fileName}
            </Text>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('ingest.upload.phasePercent', {
                phase: PHASE_LABELS[state.phase],
                percent: state.percent,
              })}
            </Text>
          </Group>
          <Progress
            value={state.percent}
            size="lg"
            radius="xl"
            striped={state.phase === 'processing'}
            animated={state.phase === 'uploading' || state.phase === 'processing'}
            aria-label={t('a11y.uploadProgress')}
          />
          <Group justify="space-between" mt={6}>
            <Text size="xs" c="dimmed">
              {t('ingest.upload.bytesOf', {
                sent: formatBytes(state.bytesSent),
                total: formatBytes(state.bytesTotal),
              })}
            </Text>
            <Group gap="xs">
              {state.phase === 'uploading' && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  leftSection={<IconPlayerPause size={14} />}
                  onClick={upload.pause}
                >
                  {t('ingest.upload.pause')}
                </Button>
              )}
              {state.phase === 'paused' && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  leftSection={<IconPlayerPlay size={14} />}
                  onClick={upload.resume}
                >
                  {t('ingest.upload.resume')}
                </Button>
              )}
              {state.phase !== 'processing' && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="gray"
                  leftSection={<IconX size={14} />}
                  onClick={upload.reset}
                >
                  {state.phase === 'done' ? t('ingest.upload.remove') : t('ingest.upload.cancel')}
                </Button>
              )}
            </Group>
          </Group>
        </Box>
      )}

      {state.phase === 'error' && state.error && (
        <Alert
          color="red"
          icon={<IconAlertCircle size={18} />}
          role="alert"
          title={t('title.uploadFailed')}
          withCloseButton
          onClose={upload.reset}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{state.error.message}</Text>
            {canResume && (
              <Button size="compact-sm" variant="light" color="red" onClick={upload.resume}>
                {t('ingest.upload.resume')}
              </Button>
            )}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
