import { Badge, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBadgeCc, IconCrop, IconSparkles, IconWorld } from '@tabler/icons-react';
import { IngestPanel } from '../ingest/IngestPanel';
import { HomePopups } from '../popups/HomePopups';
import { SharedMoments } from '../search/SharedMoments';

const HIGHLIGHTS = [
  {
    icon: IconSparkles,
    title: 'Find viral moments',
    text: 'Turn long videos into ranked short clips.',
  },
  {
    icon: IconBadgeCc,
    title: 'Animated captions',
    text: 'Word-by-word captions in 100+ languages.',
  },
  {
    icon: IconCrop,
    title: 'One-click reframing',
    text: 'Keep the speaker in frame for every platform.',
  },
  { icon: IconWorld, title: 'Any source', text: 'YouTube, Vimeo, TikTok, uploads and more.' },
];

/** spec §2 /home: the search and link box, the shared moments, and the pop-ups for logged-in users. */
export default function HomePage() {
  return (
    <Stack maw={880} mx="auto" gap={40} py={{ base: 'md', sm: 48 }}>
      <Stack align="center" ta="center" gap="md">
        <Badge variant="light" size="lg" radius="sm">
          Long videos in, short clips out
        </Badge>
        <Title order={1} fz={{ base: 30, sm: 44 }} lh={1.15} maw={680}>
          Turn long videos into{' '}
          <Text
            span
            inherit
            variant="gradient"
            gradient={{ from: 'violet.6', to: 'grape.5', deg: 90 }}
          >
            viral clips
          </Text>
        </Title>
        <Text c="dimmed" fz="lg" maw={560}>
          Paste a video link or search for a topic. Moments finds the best moments, captions them
          and reframes them for every platform.
        </Text>
      </Stack>

      <IngestPanel />

      <SharedMoments />

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', md: 'md' }}>
        {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
          <Card key={title} p={{ base: 'md', md: 'lg' }}>
            <ThemeIcon variant="light" size={40} radius="md" mb="sm">
              <Icon size={22} />
            </ThemeIcon>
            <Text fw={600}>{title}</Text>
            <Text size="sm" c="dimmed">
              {text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>

      <HomePopups />
    </Stack>
  );
}
