import {
  Badge,
  Box,
  Card,
  Collapse,
  Group,
  Spoiler,
  Stack,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import type { Moment } from '@moments/contract';
import {
  IconChevronDown,
  IconChevronUp,
  IconClock,
  IconPlayerPlayFilled,
} from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { VideoThumbnail } from '../ingest/VideoCard';
import { MOBILE_MEDIA_QUERY } from '../theme';
import { formatClipLength, formatSpan } from './format';
import { MomentActions } from './MomentActions';
import { MomentReasons } from './MomentReasons';
import { ScoreRing } from './ScoreRing';
import { t } from '../messages/catalogue';

export function Hashtags({ hashtags }: { hashtags: string[] }) {
  if (hashtags.length === 0) return null;
  return (
    <Group gap={6}>
      {hashtags.map((tag) => (
        <Badge key={tag} variant="light" color="blue" radius="sm" tt="none" fw={500}>
          {tag.startsWith('#') ? tag : `#${tag}`}
        </Badge>
      ))}
    </Group>
  );
}

/** One moment in a task's ranked list; selecting it plays its span in the page's player. */
/** The folded transcript's line height: three whole lines show before the fold. */
const TRANSCRIPT_LINE_PX = 22;

export function MomentCard({
  moment,
  rank,
  selected,
  onPlay,
}: {
  moment: Moment;
  rank: number;
  selected: boolean;
  onPlay(): void;
}) {
  const [showReasons, setShowReasons] = useState(rank === 1);
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const scoreLabel =
    moment.type === 'search_snippet' ? t('moments.score.relevance') : t('moments.score.virality');
  return (
    <Card
      p="md"
      data-testid="moment-card"
      data-moment-id={moment.id}
      data-selected={selected || undefined}
      style={{
        borderColor: selected ? 'var(--mantine-color-violet-5)' : undefined,
        boxShadow: selected ? '0 0 0 1px var(--mantine-color-violet-5)' : undefined,
      }}
    >
      <Stack gap="sm">
        {/* Named by its content (score, rank, span, title), after a hidden "Play moment n:", so
            the name includes the text a voice-control user reads on screen. */}
        <UnstyledButton onClick={onPlay}>
          <VisuallyHidden>{`${t('moments.card.play', { rank })} `}</VisuallyHidden>
          {/* Phones: the moment's frame across the card, above its score and title. */}
          {moment.thumbnail && isMobile && (
            <Box mb="sm">
              <VideoThumbnail
                video={{ thumbnail: moment.thumbnail, duration: null }}
                width="100%"
                height={140}
              />
            </Box>
          )}
          <Group wrap="nowrap" align="flex-start" gap="md">
            {moment.thumbnail && !isMobile && (
              <VideoThumbnail
                video={{ thumbnail: moment.thumbnail, duration: null }}
                width={112}
                height={63}
              />
            )}
            <ScoreRing score={moment.score} label={scoreLabel} />
            <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
              <Group gap={6} wrap="nowrap">
                <Badge size="sm" variant="filled" color="dark" radius="sm">
                  #{rank}
                </Badge>
                <Group gap={4} wrap="nowrap">
                  <IconClock size={14} color="var(--mantine-color-dimmed)" />
                  <Text size="xs" c="dimmed" data-testid="moment-span">
                    {formatSpan(moment.start, moment.end)} ·{' '}
                    {formatClipLength(moment.start, moment.end)}
                  </Text>
                </Group>
              </Group>
              <Title order={2} size="h4" lh={1.3} data-testid="moment-title">
                {moment.title}
              </Title>
              {moment.description && (
                <Text size="sm" c="dimmed" lineClamp={3}>
                  {moment.description}
                </Text>
              )}
            </Stack>
            <Box
              c={selected ? 'violet' : 'gray.5'}
              style={{ alignSelf: 'center', flexShrink: 0 }}
              aria-hidden
            >
              <IconPlayerPlayFilled size={22} />
            </Box>
          </Group>
        </UnstyledButton>

        <Hashtags hashtags={moment.hashtags} />

        <Box>
          <UnstyledButton
            onClick={() => setShowReasons((open) => !open)}
            aria-expanded={showReasons}
          >
            <Group gap={4}>
              <Text size="sm" fw={600} c="violet.7">
                {moment.type === 'search_snippet'
                  ? t('moments.why.search')
                  : t('moments.why.viral')}
              </Text>
              {showReasons ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
            </Group>
          </UnstyledButton>
          <Collapse expanded={showReasons}>
            <Box pt="xs">
              <MomentReasons moment={moment} />
            </Box>
          </Collapse>
        </Box>

        {moment.transcript && (
          <Spoiler
            maxHeight={TRANSCRIPT_LINE_PX * 3}
            showLabel={t('moments.transcript.more')}
            hideLabel={t('moments.transcript.less')}
            // The folded text is a region: named per card, so a page of moments has no two
            // landmarks alike.
            attributes={{ content: { 'aria-label': t('moments.transcript.region', { rank }) } }}
          >
            <Text
              size="sm"
              // A whole number of lines fits the fold: no line half cut under "Show full transcript".
              lh={`${TRANSCRIPT_LINE_PX}px`}
              style={{ borderLeft: '3px solid var(--mantine-color-gray-3)', paddingLeft: 10 }}
              data-testid="moment-transcript"
            >
              {moment.transcript}
            </Text>
          </Spoiler>
        )}

        <MomentActions moment={moment} />
      </Stack>
    </Card>
  );
}
