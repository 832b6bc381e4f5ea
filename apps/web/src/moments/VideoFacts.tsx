import { Badge, Group, Image, Stack, Text, Title } from '@mantine/core';
import type { VideoMeta } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import { formatViewCount } from '../messages/domain';
import type { ReactNode } from 'react';
import { t } from '../messages/catalogue';

/** The video a moment list belongs to: thumbnail, title and its facts (views, date, duration). */
export function VideoFacts({ video, children }: { video: VideoMeta; children?: ReactNode }) {
  const facts = [
    video.channel_title,
    video.duration != null ? formatDuration(video.duration * 1000) : null,
    video.view_count != null ? `${formatViewCount(video.view_count)} views` : null,
  ].filter(Boolean);
  return (
    <Group wrap="nowrap" gap="md" align="center">
      {video.thumbnail && (
        <Image
          src={video.thumbnail}
          alt=""
          w={120}
          h={68}
          radius="md"
          fit="cover"
          visibleFrom="xs"
          style={{ flexShrink: 0 }}
        />
      )}
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Title order={2} size="h3" lineClamp={2} data-testid="video-title">
          {video.title || t('summaries.untitledVideo')}
        </Title>
        <Group gap={6}>
          {video.video_platform && (
            <Badge variant="outline" color="gray.7" size="sm" radius="sm">
              {video.video_platform}
            </Badge>
          )}
          {facts.length > 0 && (
            <Text size="sm" c="dimmed">
              {facts.join(' · ')}
            </Text>
          )}
          {children}
        </Group>
      </Stack>
    </Group>
  );
}
