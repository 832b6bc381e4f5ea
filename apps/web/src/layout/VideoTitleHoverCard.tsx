import { Group, HoverCard, Image, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCalendar, IconClock, IconEye, IconUser } from '@tabler/icons-react';
import { formatDuration } from '@moments/domain/format';
import { formatPublishedDate } from '../lib/format';
import { t } from '../messages/catalogue';
import { formatViewCount } from '../messages/domain';
import { PLATFORM_LABELS } from '../ingest/VideoCard';
import type { TopBarVideo } from './topBarVideo';

/** On moment and job routes the top bar shows the video's title with a hover card. */
export function VideoTitleHoverCard({ video }: { video: TopBarVideo }) {
  const facts: Array<{ icon: typeof IconClock; text: string }> = [];
  if (video.duration != null)
    facts.push({ icon: IconClock, text: formatDuration(video.duration * 1000) });
  if (video.channel) facts.push({ icon: IconUser, text: video.channel });
  if (video.viewCount != null) {
    facts.push({
      icon: IconEye,
      text: t('layout.video.views', { views: formatViewCount(video.viewCount) }),
    });
  } else if (video.platform) {
    facts.push({
      icon: IconEye,
      text:
        video.platform === 'upload'
          ? t('layout.video.uploaded')
          : t('layout.video.from', {
              source: PLATFORM_LABELS[video.platform] ?? t('ingest.platform.direct'),
            }),
    });
  }
  if (video.publishedAt != null) {
    facts.push({ icon: IconCalendar, text: formatPublishedDate(video.publishedAt) });
  }

  return (
    <HoverCard width={320} shadow="md" openDelay={150} position="bottom-start" withArrow>
      <HoverCard.Target>
        <UnstyledButton maw={480} miw={0} style={{ cursor: 'default' }}>
          <Text fw={600} truncate="end">
            {video.title}
          </Text>
        </UnstyledButton>
      </HoverCard.Target>
      <HoverCard.Dropdown>
        <Stack gap="xs">
          {video.thumbnail && (
            <Image src={video.thumbnail} alt="" radius="sm" h={160} fit="cover" />
          )}
          <Text fw={600} lineClamp={2}>
            {video.title}
          </Text>
          {facts.map(({ icon: Icon, text }) => (
            <Group key={text} gap={6} wrap="nowrap">
              <Icon size={14} stroke={1.6} />
              <Text size="sm" c="dimmed" truncate="end">
                {text}
              </Text>
            </Group>
          ))}
        </Stack>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}
