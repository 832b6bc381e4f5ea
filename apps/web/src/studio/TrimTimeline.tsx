import { Button, Group, RangeSlider, Stack, Text } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { formatClock, snapTrim, stepEdge, type Span, type TimedWord } from './trim';
import classes from './studio.module.css';
import { t } from '../messages/catalogue';

interface Props {
  /** The stretch of video the bar covers. */
  range: Span;
  /** The moment as found, marked under the bar. */
  moment: Span;
  words: TimedWord[];
  trim: Span;
  onTrimChange(trim: Span, edge: 'start' | 'end'): void;
}

const START_LABEL = t('studio.trim.start');
const END_LABEL = t('studio.trim.end');

/**
 * The moment's neighbourhood as a bar with two trim handles that snap to word edges: dragging
 * lands on the nearest word, the arrow keys move one word. Words show as ticks under the bar.
 */
export function TrimTimeline({ range, moment, words, trim, onTrimChange }: Props) {
  const length = Math.max(1, range.end - range.start);
  const percent = (ms: number) => `${((ms - range.start) / length) * 100}%`;
  const visibleWords = words.filter((word) => word.end > range.start && word.start < range.end);

  const change = ([start, end]: [number, number]) => {
    const next = snapTrim({ start, end }, visibleWords, trim);
    if (next.start !== trim.start) onTrimChange(next, 'start');
    else if (next.end !== trim.end) onTrimChange(next, 'end');
  };

  // Mantine's own arrow-key step would snap straight back; one press moves one word instead.
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    const label = (event.target as HTMLElement).getAttribute('aria-label');
    const edge = label === START_LABEL ? 'start' : label === END_LABEL ? 'end' : null;
    const direction =
      event.key === 'ArrowRight' || event.key === 'ArrowUp'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowDown'
          ? -1
          : 0;
    if (!edge || !direction) return;
    event.preventDefault();
    event.stopPropagation();
    const next = stepEdge(trim, edge, direction, visibleWords);
    if (next !== trim) onTrimChange(next, edge);
  };

  const isDefault = trim.start === moment.start && trim.end === moment.end;

  return (
    <Stack gap={6}>
      <div onKeyDownCapture={onKeyDownCapture}>
        <RangeSlider
          min={range.start}
          max={range.end}
          step={10}
          minRange={10}
          value={[trim.start, trim.end]}
          onChange={change}
          label={(ms) => formatClock(ms)}
          thumbFromLabel={START_LABEL}
          thumbToLabel={END_LABEL}
          size="lg"
          color="violet"
          aria-label={t('a11y.trim')}
        />
      </div>
      <div className={classes.ticks} aria-hidden>
        {visibleWords.map((word) => (
          <span
            key={`${word.start}-${word.end}`}
            className={`${classes.tick} ${
              word.start >= trim.start && word.start < trim.end ? classes.tickInside : ''
            }`}
            style={{ left: percent(word.start) }}
            title={word.text}
          />
        ))}
        <span
          className={classes.momentBand}
          style={{
            left: percent(moment.start),
            width: `${((moment.end - moment.start) / length) * 100}%`,
          }}
          title={t('title.theMomentAsFound')}
        />
      </div>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          {formatClock(trim.start)} – {formatClock(trim.end)}
        </Text>
        <Text size="sm" fw={600} data-testid="clip-duration">
          {t('studio.trim.duration', { length: formatClock(trim.end - trim.start) })}
        </Text>
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconRestore size={14} />}
          disabled={isDefault}
          onClick={() => onTrimChange({ ...moment }, 'start')}
        >
          {t('studio.trim.reset')}
        </Button>
      </Group>
    </Stack>
  );
}
