import {
  Badge,
  Button,
  Card,
  Flex,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBadgeCc,
  IconCrop,
  IconLink,
  IconSearch,
  IconSparkles,
  IconWorld,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { HomePopups } from '../popups/HomePopups';

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

/** spec §2 /home: the search and link box, plus the pop-ups for logged-in users. */
export default function HomePage() {
  const [params] = useSearchParams();
  // spec §2: `url` carries a video link to prefill.
  const [input, setInput] = useState(params.get('url') ?? '');
  const [submitted, setSubmitted] = useState(false);
  const looksLikeLink = /^https?:\/\//i.test(input.trim());

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

      <Card p="md" shadow="sm">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (input.trim()) setSubmitted(true);
          }}
        >
          <Flex gap="sm" direction={{ base: 'column', sm: 'row' }}>
            <TextInput
              flex={1}
              size="lg"
              aria-label="Video link or search"
              placeholder="Paste a video link or search"
              value={input}
              onChange={(event) => {
                setInput(event.currentTarget.value);
                setSubmitted(false);
              }}
              leftSection={looksLikeLink ? <IconLink size={20} /> : <IconSearch size={20} />}
            />
            <Button size="lg" type="submit">
              {looksLikeLink ? 'Get moments' : 'Search'}
            </Button>
          </Flex>
        </form>
        <Text size="sm" c="dimmed" mt="sm" role={submitted ? 'status' : undefined}>
          {submitted
            ? 'Video import is being built and arrives in the next release. Your link was not sent anywhere.'
            : 'Supports YouTube, Google Drive, Dailymotion, Vimeo, TikTok, Facebook, Twitch, Bilibili and direct media links.'}
        </Text>
      </Card>

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
