import { Anchor, Badge, Card, Group, Highlight, Stack, Text, Title } from '@mantine/core';
import type { SearchHit } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import { IconClock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { VideoThumbnail } from '../ingest/VideoCard';
import { ScoreBadge } from '../moments/ScoreRing';
import { t } from '../messages/catalogue';
import classes from './search.module.css';

/** Own videos open their moments page; moments open their public view. */
function hitPath(hit: SearchHit): string {
  return hit.moment_id
    ? `/home/moment/${encodeURIComponent(hit.moment_id)}`
    : `/video/${encodeURIComponent(hit.task_id)}/moments`;
}

/** The video's other matching moments, each a link to its own view, best match first. */
function MoreMoments({ hit, words }: { hit: SearchHit; words: string[] }) {
  if (!hit.moments.length) return null;
  return (
    <Stack gap={4} mt={4} data-testid="search-hit-moments" className={classes.above}>
      <Text size="xs" fw={600} c="dimmed" id={`more-${hit.task_id}`}>
        {t('search.hit.moreMoments')}
      </Text>
      <Stack component="ul" gap={4} m={0} p={0} aria-labelledby={`more-${hit.task_id}`}>
        {hit.moments.map((moment) => (
          <Group component="li" key={moment.moment_id} gap={6} wrap="nowrap" align="baseline">
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {formatDuration(moment.start_ms)}
            </Text>
            <Anchor
              component={Link}
              to={`/home/moment/${encodeURIComponent(moment.moment_id)}`}
              size="sm"
              lineClamp={1}
              data-testid="search-hit-moment"
              data-id={moment.moment_id}
              aria-label={t('search.hit.momentAt', {
                title: moment.title,
                time: formatDuration(moment.start_ms),
              })}
            >
              <Highlight component="span" highlight={words} inherit>
                {moment.title}
              </Highlight>
            </Anchor>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

/**
 * One search result, one per video: thumbnail, title, the sentence that matched with the query
 * words marked, and the video's other matching moments. The card's title is its link (a link
 * inside a link is not allowed), stretched over the card so all of it opens the hit.
 */
export function SearchHitCard({ hit, words }: { hit: SearchHit; words: string[] }) {
  const isMoment = hit.kind === 'moment';
  return (
    <Card
      p="md"
      data-testid="search-hit"
      data-kind={hit.kind}
      data-id={hit.moment_id ?? hit.task_id}
      data-video={hit.video.url}
      style={{ position: 'relative' }}
    >
      <Group wrap="nowrap" align="flex-start" gap="md">
        {/* A moment is a part of the video: the whole video's length would mislead. */}
        <VideoThumbnail
          video={{ thumbnail: hit.video.thumbnail, duration: isMoment ? null : hit.video.duration }}
          width={160}
          height={90}
        />
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap" justify="space-between" align="flex-start">
            <Title order={2} size="h5" lh={1.3} lineClamp={2} data-testid="search-hit-title">
              <Anchor
                component={Link}
                to={hitPath(hit)}
                inherit
                c="inherit"
                underline="never"
                className={classes.stretched}
              >
                <Highlight component="span" highlight={words} inherit>
                  {hit.title}
                </Highlight>
              </Anchor>
            </Title>
            {hit.score != null && <ScoreBadge score={hit.score} />}
          </Group>
          <Group gap={6}>
            <Badge size="sm" radius="sm" variant="light" color={isMoment ? 'grape' : 'blue'}>
              {isMoment ? t('search.hit.moment') : t('search.hit.ownVideo')}
            </Badge>
            {isMoment && hit.video.title && (
              <Text size="xs" c="dimmed" lineClamp={1}>
                {t('search.hit.fromVideo', { title: hit.video.title })}
              </Text>
            )}
            {hit.start_ms != null && (
              <Group gap={2} wrap="nowrap">
                <IconClock size={12} color="var(--mantine-color-dimmed)" />
                <Text size="xs" c="dimmed">
                  {formatDuration(hit.start_ms)}
                </Text>
              </Group>
            )}
          </Group>
          {hit.snippet && (
            <Highlight
              highlight={words}
              size="sm"
              c="dimmed"
              lineClamp={3}
              data-testid="search-hit-snippet"
              highlightStyles={{ fontWeight: 600, color: 'var(--mantine-color-text)' }}
            >
              {hit.snippet}
            </Highlight>
          )}
          <MoreMoments hit={hit} words={words} />
        </Stack>
      </Group>
    </Card>
  );
}
