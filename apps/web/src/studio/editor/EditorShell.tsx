import { Alert, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ERROR_CODES, USAGE_LIMIT_CODES } from '@moments/contract';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDuration } from '@moments/domain/format';
import { MAX_CLIP_MINUTES } from '@moments/domain/plans';
import { findEntitlement } from '../../account/plan';
import { useSession } from '../../account/session';
import { isApiError, type ApiError } from '../../api/client';
import classes from '../studio.module.css';
import { t } from '../../messages/catalogue';

/**
 * The frame both editors share (the caption page of a whole video, the clip editor of a moment):
 * a title with its actions, why an export did not start, the preview on the left and the
 * settings on the right.
 */
export function EditorShell({
  maw,
  title,
  subtitle,
  actions,
  nowrap,
  exportError,
  preview,
  children,
}: {
  maw: number;
  title: string;
  subtitle: ReactNode;
  actions: ReactNode;
  /** Keeps the actions beside a long title instead of under it. */
  nowrap?: boolean;
  exportError: unknown;
  preview: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack maw={maw} mx="auto" p={{ base: 'sm', sm: 'md' }} gap="md">
      <Group justify="space-between" align="flex-start" wrap={nowrap ? 'nowrap' : undefined}>
        <div style={{ minWidth: 0 }}>
          <Title order={1} size="h3" lineClamp={2}>
            {title}
          </Title>
          {subtitle}
        </div>
        {actions}
      </Group>
      <ExportStartError error={exportError} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="sm" radius="md" className={classes.previewPanel}>
            {preview}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">{children}</Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/**
 * What an editor says about a refused export or preview: a clip longer than the plan allows names
 * the plan's longest clip; anything else is the server's own words.
 */
function useEditorErrorText(error: ApiError | null): string | null {
  const { user } = useSession();
  if (!error) return null;
  const minutes = findEntitlement(user, MAX_CLIP_MINUTES)?.limit;
  if (error.code === ERROR_CODES.CLIP_TOO_LONG && minutes !== undefined && minutes > 0) {
    return t('studio.export.clipTooLong', { limit: formatDuration(minutes * 60_000) });
  }
  return error.message;
}

/** Why an export did not start; usage limits and lost connections have their own global dialogs. */
function ExportStartError({ error }: { error: unknown }) {
  const text = useEditorErrorText(isShownExportError(error) ? error : null);
  if (!text) return null;
  return (
    <Alert
      color="red"
      icon={<IconAlertTriangle size={18} />}
      title={t('studio.export.notStarted')}
      data-testid="export-error"
    >
      {text}
    </Alert>
  );
}

const isShownExportError = (error: unknown): error is ApiError =>
  isApiError(error) &&
  !USAGE_LIMIT_CODES.has(error.code) &&
  error.code !== ERROR_CODES.NETWORK_DISCONNECTED;

/** The note under the preview when the server cannot make the captions' document. */
export function PreviewError({ error }: { error: ApiError | null }) {
  const text = useEditorErrorText(error);
  if (!text) return null;
  return (
    <Alert color="yellow" mt="xs" title={t('studio.preview.failed')} data-testid="preview-error">
      {text}
    </Alert>
  );
}

/** One bordered group of settings in the right column. */
export function SettingsPanel({ children }: { children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">{children}</Stack>
    </Paper>
  );
}

/** The dimmed line under an editor's title. */
export function EditorSubtitle({ children, clamp }: { children: ReactNode; clamp?: number }) {
  return (
    <Text size="sm" c="dimmed" lineClamp={clamp}>
      {children}
    </Text>
  );
}
