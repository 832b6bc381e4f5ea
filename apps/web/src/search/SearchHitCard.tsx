import { Badge, Card, Group, Highlight, Stack, Text, Title } from '@mantine/core';
import type { SearchHit } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import { IconClock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { VideoThumbnail } from '../ingest/VideoCard';
import { ScoreBadge } from '../moments/ScoreRing';
import { t } from '../messages/catalogue';

/** Own videos open their moments page; moments open their public view. */
function hitPath(hit: SearchHit): string {
  return hit.moment_id
    ? `/home/moment/${encodeURIComponent(hit.moment_id)}`
    : `/video/${encodeURIComponent(hit.task_id)}/moments`;
}

/** One search result: thumbnail, title, and the sentence that matched with the query words marked. */
export function SearchHitCard({ hit, words }: { hit: SearchHit; words: string[] }) {
  const isMoment = hit.kind === 'moment';
  return (
    <Card
      component={Link}
      to={hitPath(hit)}
      p="md"
      data-testid="search-hit"
      data-kind={hit.kind}
      data-id={hit.moment_id ?? hit.task_id}
      style={{ textDecoration: 'none', color: 'inherit' }}
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
              <Highlight component="span" highlight={words} inherit>
                {hit.title}
              </Highlight>
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
        </Stack>
      </Group>
    </Card>
  );
}
