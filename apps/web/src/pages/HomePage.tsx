import { Badge, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBadgeCc, IconCrop, IconSparkles, IconWorld } from '@tabler/icons-react';
import { IngestPanel } from '../ingest/IngestPanel';
import { HomePopups } from '../popups/HomePopups';
import { useSearchParams } from 'react-router';
import { SearchResults } from '../search/SearchResultPage';
import { SharedMoments } from '../search/SharedMoments';
import { t } from '../messages/catalogue';

const HIGHLIGHTS = [
  { icon: IconSparkles, title: 'pages.home.viral.title', text: 'pages.home.viral.text' },
  { icon: IconBadgeCc, title: 'pages.home.captions.title', text: 'pages.home.captions.text' },
  { icon: IconCrop, title: 'pages.home.reframe.title', text: 'pages.home.reframe.text' },
  { icon: IconWorld, title: 'pages.home.sources.title', text: 'pages.home.sources.text' },
] as const;

/**
 * /home: the search and link box, the shared moments, and the pop-ups for logged-in users.
 * A visitor's search (anonymous visitors may use the home search) answers here, under
 * the box, since /search/result needs a login.
 */
export default function HomePage() {
  const [params] = useSearchParams();
  const query = (params.get('query') ?? '').trim();
  return (
    <Stack maw={880} mx="auto" gap={40} py={{ base: 'md', sm: 48 }}>
      <Stack align="center" ta="center" gap="md">
        <Badge variant="light" size="lg" radius="sm">
          {t('pages.home.badge')}
        </Badge>
        <Title order={1} fz={{ base: 30, sm: 44 }} lh={1.15} maw={680}>
          {t('pages.home.headline')}{' '}
          <Text
            span
            inherit
            variant="gradient"
            gradient={{ from: 'violet.6', to: 'grape.5', deg: 90 }}
          >
            {t('pages.home.headlineHighlight')}
          </Text>
        </Title>
        <Text c="dimmed" fz="lg" maw={560}>
          {t('pages.home.intro')}
        </Text>
      </Stack>

      <IngestPanel />

      {query && (
        <Stack gap="lg" data-testid="home-search">
          <SearchResults query={query} />
        </Stack>
      )}

      <SharedMoments />

      <SimpleGrid cols={{ base: 2, md: 4 }} spacing={{ base: 'sm', md: 'md' }}>
        {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
          <Card key={title} p={{ base: 'md', md: 'lg' }}>
            <ThemeIcon variant="light" size={40} radius="md" mb="sm">
              <Icon size={22} />
            </ThemeIcon>
            <Text fw={600}>{t(title)}</Text>
            <Text size="sm" c="dimmed">
              {t(text)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>

      <HomePopups />
    </Stack>
  );
}
