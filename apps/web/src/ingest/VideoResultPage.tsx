import { Anchor, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { t } from '../messages/catalogue';
import { IngestPanel } from './IngestPanel';

/**
 * video/result, under /home and /search/result: the video of the `url` parameter (a
 * pasted link or a search hit) or of the `upload` parameter (a finished upload) with its card (thumbnail, title, duration, channel, views or
 * platform, published date) and the start form, so it leads straight to a task.
 */
export default function VideoResultPage() {
  const [params] = useSearchParams();
  const fromSearch = useLocation().pathname.startsWith('/search/');
  const query = params.get('query');
  const hasVideo = Boolean(params.get('url') || params.get('upload'));
  const back = fromSearch && query ? `/search/result?query=${encodeURIComponent(query)}` : '/home';
  return (
    <Stack maw={880} mx="auto" gap="lg" py={{ base: 'md', sm: 'xl' }}>
      <Anchor component={Link} to={back} size="sm">
        <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} aria-hidden />{' '}
        {fromSearch && query ? t('ingest.result.backToSearch') : t('ingest.result.backHome')}
      </Anchor>
      <Title order={1} size="h3">
        {t('ingest.result.title')}
      </Title>
      {!hasVideo && <Text c="dimmed">{t('ingest.result.pasteLink')}</Text>}
      <IngestPanel />
    </Stack>
  );
}
