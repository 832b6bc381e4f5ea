import { Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { MomentView } from '@moments/contract';
import { Link } from 'react-router';
import { VideoThumbnail } from '../ingest/VideoCard';
import { formatClipLength } from '../moments/format';
import { ScoreBadge } from '../moments/ScoreRing';
import { useSharedMoments } from './api';
import { t } from '../messages/catalogue';

const SHOWN = 6;

function SharedMomentCard({ moment }: { moment: MomentView }) {
  return (
    <Card
      component={Link}
      to={`/home/moment/${encodeURIComponent(moment.id)}`}
      p="sm"
      data-testid="shared-moment"
      data-id={moment.id}
      style={{ textDecoration: 'none', color: 'inherit' }}
    >
      <Stack gap="xs">
        <VideoThumbnail
          video={{ thumbnail: moment.video.thumbnail, duration: null }}
          width="100%"
          height={140}
        />
        <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
          <Text fw={600} lineClamp={2} lh={1.3}>
            {moment.title}
          </Text>
          <ScoreBadge score={moment.score} />
        </Group>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {formatClipLength(moment.start, moment.end)}
          {moment.video.title ? ` · ${moment.video.title}` : ''}
        </Text>
      </Stack>
    </Card>
  );
}

/** The home page's public shelf: the best shared moments (anyone may view a moment). */
export function SharedMoments() {
  const shared = useSharedMoments();
  // Nothing shared yet (or the list failed): the home page simply has no shelf.
  if (shared.isError || (shared.data && shared.data.length === 0)) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="shared-moments-title">
      <Title order={2} size="h4" id="shared-moments-title">
        {t('search.shared.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
        {shared.data
          ? shared.data
              .slice(0, SHOWN)
              .map((moment) => <SharedMomentCard key={moment.id} moment={moment} />)
          : [0, 1, 2].map((i) => <Skeleton key={i} h={220} radius="md" />)}
      </SimpleGrid>
    </Stack>
  );
}
