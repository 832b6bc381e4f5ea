import {
  Anchor,
  Badge,
  Card,
  Group,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { SummaryView } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import type { ReactNode } from 'react';
import { t } from '../messages/catalogue';

/** The summary page's cards: each timed line is a button that plays the video from its time. */

/**
 * The text beside a time: takes the rest of the row and breaks inside a long word (a link, a
 * run of digits), so a line never runs past the card's edge.
 */
const LINE_TEXT = { flex: 1, minWidth: 0, overflowWrap: 'anywhere' } as const;
/** A time beside its line keeps its width. */
const TIME = { flexShrink: 0 } as const;

function SummaryCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export function OverviewCard({ overview }: { overview: string }) {
  return (
    <SummaryCard title={t('summaries.overview')}>
      <Text data-testid="summary-overview" style={{ overflowWrap: 'anywhere' }}>
        {overview || t('summaries.overview.empty')}
      </Text>
    </SummaryCard>
  );
}

export function KeyPointsCard({
  points,
  seek,
}: {
  points: SummaryView['key_points'];
  seek(ms: number): void;
}) {
  return (
    <SummaryCard title={t('summaries.keyPoints')}>
      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {points.map((point) => (
          <li key={`${point.start}-${point.text}`}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Anchor
                component="button"
                type="button"
                onClick={() => seek(point.start)}
                aria-label={t('summaries.playFrom', { time: formatDuration(point.start) })}
                ff="monospace"
                style={TIME}
              >
                {formatDuration(point.start)}
              </Anchor>
              <Text size="sm" style={LINE_TEXT}>
                {point.text}
              </Text>
            </Group>
          </li>
        ))}
      </Stack>
    </SummaryCard>
  );
}

export function ChaptersCard({
  chapters,
  activeChapter,
  seek,
}: {
  chapters: SummaryView['chapters'];
  activeChapter: number;
  seek(ms: number): void;
}) {
  return (
    <SummaryCard title={t('summaries.chapters')}>
      <Stack gap={4} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {chapters.map((chapter, index) => (
          <li key={chapter.start}>
            <UnstyledButton
              onClick={() => seek(chapter.start)}
              aria-current={index === activeChapter ? 'true' : undefined}
              data-testid="summary-chapter"
              data-start={chapter.start}
              p="xs"
              style={{
                width: '100%',
                borderRadius: 8,
                background:
                  index === activeChapter ? 'var(--mantine-color-violet-light)' : undefined,
              }}
            >
              <Group gap="xs" wrap="nowrap" align="flex-start">
                {/* Never shrunk: a squeezed badge showed "0." instead of "0:42". */}
                <Badge
                  variant="light"
                  color="violet"
                  radius="sm"
                  ff="monospace"
                  style={{ flexShrink: 0 }}
                  data-testid="summary-chapter-time"
                >
                  {formatDuration(chapter.start)}
                </Badge>
                <div style={LINE_TEXT}>
                  <Text fw={600} size="sm" data-testid="summary-chapter-title">
                    {chapter.title}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={3}>
                    {chapter.summary}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </SummaryCard>
  );
}

export function TranscriptCard({
  lines,
  seek,
}: {
  lines: SummaryView['transcript'];
  seek(ms: number): void;
}) {
  return (
    <SummaryCard title={t('summaries.transcript')}>
      <ScrollArea.Autosize mah={360} type="auto">
        <Stack gap={6}>
          {lines.map((line) => (
            <Group key={line.start} gap="xs" wrap="nowrap" align="flex-start">
              <Anchor
                component="button"
                type="button"
                size="xs"
                ff="monospace"
                onClick={() => seek(line.start)}
                aria-label={t('summaries.playFrom', { time: formatDuration(line.start) })}
                style={TIME}
              >
                {formatDuration(line.start)}
              </Anchor>
              <Text size="sm" style={LINE_TEXT}>
                {line.text}
              </Text>
            </Group>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </SummaryCard>
  );
}
