import { Button, Group, Paper, Text, Textarea } from '@mantine/core';
import { t } from '../messages/catalogue';

/** The clip's words, editable; reset (and said so) when a new trim made them another span's. */
export function ClipTextPanel({
  text,
  edited,
  resetByTrim,
  onChange,
  onUndo,
}: {
  text: string;
  edited: boolean;
  resetByTrim: boolean;
  onChange(text: string): void;
  onUndo(): void;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Textarea
        label={t('studio.text.label')}
        description={t('studio.text.help')}
        autosize
        minRows={3}
        maxRows={10}
        value={text}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      <Group justify="space-between" mt={6} gap="xs">
        <Text size="xs" c="dimmed">
          {resetByTrim ? t('studio.text.resetByTrim') : ''}
        </Text>
        <Button size="compact-sm" variant="subtle" disabled={!edited} onClick={onUndo}>
          {t('captions.transcript.undo')}
        </Button>
      </Group>
    </Paper>
  );
}
