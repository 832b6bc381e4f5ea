import { Anchor, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { IngestPanel } from '../ingest/IngestPanel';

/**
 * spec §2 /search/result child video/result: a video link typed in the results' search box. The
 * home input reads the `url` parameter, fetches the video details and offers the start form.
 */
export default function SearchVideoResultPage() {
  return (
    <Stack maw={880} mx="auto" gap="lg" py={{ base: 'md', sm: 'xl' }}>
      <Anchor component={Link} to="/home" size="sm">
        <IconArrowLeft size={14} style={{ verticalAlign: 'middle' }} /> Home
      </Anchor>
      <Title order={2} size="h3">
        Video
      </Title>
      <IngestPanel />
    </Stack>
  );
}
