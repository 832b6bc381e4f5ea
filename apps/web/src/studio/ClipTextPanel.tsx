import { Button, Checkbox, Group, Paper, Text, Textarea } from '@mantine/core';
import type { CaptionPreview, ClipSettings } from '@moments/contract';
import { cutsOfDeleted, deletedIndexes, sentenceAround } from '@moments/domain/cuts';
import { formatDuration } from '@moments/domain/format';
import { useMemo, useState, type MouseEvent } from 'react';
import { t } from '../messages/catalogue';
import classes from './studio.module.css';

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

/** The pause length "Shorten pauses" keeps: a breath, not a gap. */
export const SHORT_PAUSE_MS = 300;

/**
 * Edit by text: the clip's words, each a toggle; a deleted word is struck through and cut out of
 * the export (at the pauses around it) and of the preview's playback. Shows the cut clip's length
 * (the server's plan, silences measured on the audio) and what the cuts saved.
 */
export function ClipCutPanel({
  words,
  deleted,
  onDeletedChange,
  shortenPauses,
  onShortenPausesChange,
  clipMs,
  cutMs,
}: {
  words: readonly { text: string; start: number; end: number }[];
  deleted: ReadonlySet<number>;
  onDeletedChange(deleted: Set<number>): void;
  shortenPauses: boolean;
  onShortenPausesChange(on: boolean): void;
  /** The cut clip's length, once the preview says it. */
  clipMs: number | undefined;
  cutMs: number;
}) {
  const [anchor, setAnchor] = useState<number | null>(null);
  const setAll = (indexes: readonly number[], cut: boolean) => {
    const next = new Set(deleted);
    for (const index of indexes) {
      if (cut) next.add(index);
      else next.delete(index);
    }
    onDeletedChange(next);
  };
  const onWordClick = (index: number, event: MouseEvent) => {
    if (event.detail > 1) return; // the second click of a double-click: the sentence takes it
    if (event.shiftKey && anchor !== null) {
      const [from, to] = anchor < index ? [anchor, index] : [index, anchor];
      setAll(
        Array.from({ length: to - from + 1 }, (_, i) => from + i),
        !deleted.has(index),
      );
    } else {
      setAll([index], !deleted.has(index));
    }
    setAnchor(index);
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Text fw={600}>{t('studio.cuts.label')}</Text>
      <Text size="xs" c="dimmed" mb="xs">
        {t('studio.cuts.help')}
      </Text>
      <div className={classes.cutWords} data-testid="clip-cut-words">
        {words.map((word, index) => {
          const cut = deleted.has(index);
          return (
            <button
              key={`${word.start}-${index}`}
              type="button"
              className={cut ? `${classes.cutWord} ${classes.cutWordDeleted}` : classes.cutWord}
              aria-pressed={cut}
              aria-label={t(cut ? 'studio.cuts.wordBack' : 'studio.cuts.word', {
                word: word.text,
              })}
              onClick={(event) => onWordClick(index, event)}
              onDoubleClick={() => setAll(sentenceAround(words, index), true)}
            >
              {word.text}
            </button>
          );
        })}
      </div>
      <Group justify="space-between" mt="xs" gap="xs">
        <Text size="sm" data-testid="clip-cut-length">
          {clipMs === undefined ? '' : t('studio.cuts.length', { length: formatDuration(clipMs) })}
          {cutMs > 0 ? ` · ${t('studio.cuts.saved', { saved: formatDuration(cutMs) })}` : ''}
        </Text>
        <Button
          size="compact-sm"
          variant="subtle"
          disabled={deleted.size === 0}
          onClick={() => onDeletedChange(new Set())}
        >
          {t('studio.cuts.restoreAll')}
        </Button>
      </Group>
      <Checkbox
        mt="xs"
        label={t('studio.cuts.silences', { ms: SHORT_PAUSE_MS })}
        checked={shortenPauses}
        onChange={(event) => onShortenPausesChange(event.currentTarget.checked)}
      />
    </Paper>
  );
}

type Cuts = NonNullable<ClipSettings['cuts']>;

/**
 * The cut panel over the trim's words: deleted words are kept in the draft as source spans (one
 * per run of deleted words), and the clip's length is the preview's, the server's own plan.
 */
export function ClipCutSection({
  words,
  trim,
  cuts: { cuts, setCuts: onCutsChange, removeSilences, setRemoveSilences: onRemoveSilencesChange },
  preview,
}: {
  words: readonly { text: string; start: number; end: number }[];
  trim: { start: number; end: number };
  /** The editor's cut settings (useClipSettings). */
  cuts: {
    cuts: Cuts;
    setCuts(cuts: Cuts): void;
    removeSilences: ClipSettings['remove_silences'];
    setRemoveSilences(value: ClipSettings['remove_silences']): void;
  };
  preview: CaptionPreview | undefined;
}) {
  const trimWords = useMemo(
    () =>
      words.filter((word) => {
        const middle = (word.start + word.end) / 2;
        return middle >= trim.start && middle <= trim.end;
      }),
    [words, trim],
  );
  const spans = useMemo(
    () => trimWords.map((word) => ({ startMs: word.start, endMs: word.end })),
    [trimWords],
  );
  const deleted = useMemo(
    () =>
      deletedIndexes(
        spans,
        cuts.map((cut) => ({ startMs: cut.start_ms, endMs: cut.end_ms })),
      ),
    [spans, cuts],
  );
  return (
    <ClipCutPanel
      words={trimWords}
      deleted={deleted}
      onDeletedChange={(next) =>
        onCutsChange(
          cutsOfDeleted(spans, next).map((cut) => ({ start_ms: cut.startMs, end_ms: cut.endMs })),
        )
      }
      shortenPauses={!!removeSilences}
      onShortenPausesChange={(on) => onRemoveSilencesChange(on ? { min_ms: SHORT_PAUSE_MS } : null)}
      clipMs={preview?.duration_ms}
      cutMs={preview ? Math.max(0, preview.end_ms - preview.start_ms - preview.duration_ms) : 0}
    />
  );
}
