import { Group, Text, Textarea, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import { formatClock } from '../studio/trim';
import { t } from '../messages/catalogue';

const ROW_HEIGHT = 64;

/**
 * The transcript, one row per line, virtualised: a long video's thousand lines cost only the rows
 * on screen.
 */
export function TranscriptList({
  lines,
  onCommit,
  onSeek,
}: {
  lines: { start: number; text: string }[];
  onCommit(index: number, text: string): void;
  onSeek(ms: number): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  return (
    <div
      ref={scroller}
      style={{ height: 420, overflowY: 'auto', contain: 'strict' }}
      data-testid="transcript-list"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            // Rows are as tall as their text: each is measured once it is drawn.
            ref={virtualizer.measureElement}
            data-index={item.index}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              transform: `translateY(${item.start}px)`,
            }}
          >
            <TranscriptLine
              index={item.index}
              start={lines[item.index]!.start}
              text={lines[item.index]!.text}
              onCommit={onCommit}
              onSeek={onSeek}
            />
          </div>
        ))}
      </div>
    </div>
  );
}

const TranscriptLine = memo(function TranscriptLine({
  index,
  start,
  text,
  onCommit,
  onSeek,
}: {
  index: number;
  start: number;
  text: string;
  onCommit(index: number, text: string): void;
  onSeek(ms: number): void;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" py={4}>
      <UnstyledButton
        onClick={() => onSeek(start)}
        aria-label={t('summaries.playFrom', { time: formatClock(start) })}
        w={56}
        mt={8}
      >
        <Text size="xs" c="dimmed" ff="monospace">
          {formatClock(start)}
        </Text>
      </UnstyledButton>
      {/* The whole line, wrapped over as many rows as it needs: nothing is cut off. */}
      <Textarea
        // Re-mounts when the committed text changes (e.g. undo), keeping typing uncontrolled and cheap.
        key={text}
        defaultValue={text}
        aria-label={t('captions.transcript.line', { number: index + 1 })}
        autosize
        minRows={1}
        maxRows={8}
        style={{ flex: 1 }}
        onFocus={() => onSeek(start)}
        onBlur={(event) => onCommit(index, event.currentTarget.value)}
        onKeyDown={(event) => {
          // A transcript line is one line of speech: Enter commits it instead of a new line.
          if (event.key === 'Enter') {
            event.preventDefault();
            onCommit(index, event.currentTarget.value);
          }
        }}
      />
    </Group>
  );
});
