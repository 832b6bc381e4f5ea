import { Badge, Box, Card, Group, Image, Skeleton, Stack, Text } from '@mantine/core';
import type { VideoMeta } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import { IconMovie } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { MOBILE_MEDIA_QUERY } from '../theme';
import { t } from '../messages/catalogue';
import { formatRelativeTime, formatViewCount } from '../messages/domain';

export const PLATFORM_LABELS: Record<string, string> = {
  youtube: t('ingest.platform.youtube'),
  upload: t('ingest.platform.upload'),
  google_drive: t('ingest.platform.google_drive'),
  dailymotion: t('ingest.platform.dailymotion'),
  vimeo: t('ingest.platform.vimeo'),
  tiktok: t('ingest.platform.tiktok'),
  facebook: t('ingest.platform.facebook'),
  twitch: t('ingest.platform.twitch'),
  bilibili: t('ingest.platform.bilibili'),
  direct: t('ingest.platform.direct'),
};

/** Views and age, as "1.2M views · 3 months ago"; either half is left out when unknown. */
function videoFacts(video: VideoMeta, nowMs = Date.now()): string[] {
  const facts: string[] = [];
  if (video.view_count != null) {
    const count = formatViewCount(video.view_count);
    facts.push(
      t(video.view_count === 1 ? 'ingest.video.views.one' : 'ingest.video.views.other', { count }),
    );
  }
  if (video.published_at != null) facts.push(formatRelativeTime(video.published_at * 1000, nowMs));
  return facts;
}

export function VideoThumbnail({
  video,
  width,
  height,
}: {
  video: Pick<VideoMeta, 'thumbnail' | 'duration'>;
  width: number | string;
  height: number | string;
}) {
  return (
    <Box pos="relative" w={width} h={height} style={{ flexShrink: 0 }}>
      {video.thumbnail ? (
        <Image
          src={video.thumbnail}
          alt=""
          w={width}
          h={height}
          fit="cover"
          radius="md"
          loading="lazy"
          data-testid="thumbnail"
        />
      ) : (
        <Box
          w={width}
          h={height}
          bg="violet.0"
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            display: 'grid',
            placeItems: 'center',
          }}
        >
          <IconMovie size={32} color="var(--mantine-color-violet-4)" />
        </Box>
      )}
      {video.duration != null && (
        <Badge
          pos="absolute"
          bottom={6}
          right={6}
          size="sm"
          radius="sm"
          color="dark"
          variant="filled"
          style={{ opacity: 0.85 }}
        >
          {formatDuration(video.duration * 1000)}
        </Badge>
      )}
    </Box>
  );
}

/** The video card: thumbnail, title, duration, channel, abbreviated views, relative date. */
export function VideoCard({ video, actions }: { video: VideoMeta; actions?: ReactNode }) {
  const facts = videoFacts(video);
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Card p="md" data-testid="video-card">
      <Group align="flex-start" wrap="nowrap" gap="md">
        <VideoThumbnail video={video} width={isMobile ? 128 : 176} height={isMobile ? 72 : 99} />
        <Stack gap={4} miw={0} flex={1}>
          <Text fw={600} lineClamp={2} data-testid="video-title">
            {video.title || t('ingest.video.untitled')}
          </Text>
          <Group gap={6} wrap="wrap">
            {video.video_platform && (
              <Badge variant="light" color="gray" size="sm" radius="sm">
                {PLATFORM_LABELS[video.video_platform] ?? video.video_platform}
              </Badge>
            )}
            {video.channel_title && (
              <Text size="sm" c="dimmed" truncate="end">
                {video.channel_title}
              </Text>
            )}
          </Group>
          {facts.length > 0 && (
            <Text size="sm" c="dimmed" data-testid="video-facts">
              {facts.join(' · ')}
            </Text>
          )}
          {actions}
        </Stack>
      </Group>
    </Card>
  );
}

export function VideoCardSkeleton() {
  return (
    <Card p="md" role="status" aria-busy="true" aria-label={t('a11y.loadingVideoDetails')}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Skeleton w={176} h={99} radius="md" />
        <Stack gap={8} flex={1}>
          <Skeleton h={16} w="80%" />
          <Skeleton h={12} w="40%" />
          <Skeleton h={12} w="55%" />
        </Stack>
      </Group>
    </Card>
  );
}
