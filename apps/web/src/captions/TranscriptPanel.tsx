import { Button, Group, Paper, Text } from '@mantine/core';
import type { Transcript } from '@moments/contract';
import { useCallback, useMemo, useState } from 'react';
import { TranscriptList } from './TranscriptList';
import { t } from '../messages/catalogue';

/**
 * The whole video's transcript as the user corrected it: the lines with their edits, and the
 * text the export sends (undefined while nothing was edited).
 */
export function useTranscriptEdits(transcript: Transcript) {
  const [edits, setEdits] = useState<Record<number, string>>({});
  const lineTexts = useMemo(
    () => transcript.segments.map((segment) => segment.words.map((word) => word.text).join(' ')),
    [transcript],
  );
  const edited = Object.keys(edits).length > 0;
  const transcriptText = useMemo(
    () => (edited ? lineTexts.map((text, index) => edits[index] ?? text).join(' ') : undefined),
    [edited, edits, lineTexts],
  );
  const commitLine = useCallback(
    (index: number, text: string) =>
      setEdits((current) => {
        const next = { ...current };
        if (text.trim() === lineTexts[index] || !text.trim()) delete next[index];
        else next[index] = text.trim();
        return next;
      }),
    [lineTexts],
  );
  const lines = transcript.segments.map((segment, index) => ({
    start: segment.start,
    text: edits[index] ?? lineTexts[index]!,
  }));
  return { lines, edited, transcriptText, commitLine, undo: () => setEdits({}) };
}

/** The caption page's transcript: one line per turn, edited in place, each time a seek. */
export function TranscriptPanel({
  edits,
  onSeek,
}: {
  edits: ReturnType<typeof useTranscriptEdits>;
  onSeek(ms: number): void;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{t('summaries.transcript')}</Text>
        <Button size="compact-sm" variant="subtle" disabled={!edits.edited} onClick={edits.undo}>
          {t('captions.transcript.undo')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed" mb="xs">
        {t('captions.transcript.help')}
      </Text>
      <TranscriptList lines={edits.lines} onCommit={edits.commitLine} onSeek={onSeek} />
    </Paper>
  );
}
