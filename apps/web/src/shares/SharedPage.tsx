import {
  Alert,
  Anchor,
  Badge,
  Card,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  Title,
  Typography,
} from '@mantine/core';
import { formatDuration } from '@moments/domain/format';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../api/client';
import { useSharedPage } from '../summaries/api';

/**
 * issue 10: the public, read-only page of a shared summary (/s/{id}) or note (/s/{id}?note=1).
 * No account needed; a revoked link shows "not found".
 */
export default function SharedPage() {
  const { shareId = '' } = useParams();
  const [params] = useSearchParams();
  const isNote = params.get('note') === '1';
  const page = useSharedPage(shareId, isNote);

  if (page.isPending)
    return (
      <Container py="xl">
        <Loader role="status" aria-label="Loading" />
      </Container>
    );
  if (page.isError)
    return (
      <Container py="xl" size="sm">
        <Title order={1} size="h2" mb="sm">
          This link does not work
        </Title>
        <Text mb="md">
          {isApiError(page.error) && page.error.status === 404
            ? 'It was never shared, or its owner stopped sharing it.'
            : page.error.message}
        </Text>
        <Anchor component={Link} to="/home">
          Go to Moments
        </Anchor>
      </Container>
    );

  const data = page.data;
  if (data.kind === 'note')
    return (
      <Container size="md" py="lg">
        <Stack gap="md">
          <Badge variant="light" color="violet">
            Shared note
          </Badge>
          <Title order={1}>{data.title}</Title>
          <Card withBorder>
            {/* Sanitised on the server when it was saved. */}
            <Typography>
              <div
                data-testid="shared-note"
                dangerouslySetInnerHTML={{ __html: data.note.content_html }}
              />
            </Typography>
          </Card>
        </Stack>
      </Container>
    );

  const { summary, video } = data;
  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <Badge variant="light" color="violet">
          Shared summary
        </Badge>
        <Title order={1}>{data.title}</Title>
        {video.url.startsWith('http') && (
          <Anchor href={video.url} target="_blank" rel="noopener noreferrer nofollow" size="sm">
            Watch the original video
          </Anchor>
        )}
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            Overview
          </Title>
          <Text data-testid="shared-overview">{summary.overview}</Text>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            Chapters
          </Title>
          <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {summary.chapters.map((chapter) => (
              <li key={chapter.start}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge variant="light" radius="sm" ff="monospace" style={{ flexShrink: 0 }}>
                    {formatDuration(chapter.start)}
                  </Badge>
                  <div>
                    <Text fw={600} size="sm">
                      {chapter.title}
                    </Text>
                    <Text size="sm">{chapter.summary}</Text>
                  </div>
                </Group>
              </li>
            ))}
          </Stack>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            Key points
          </Title>
          <Stack gap={6} component="ul" style={{ paddingLeft: 18, margin: 0 }}>
            {summary.key_points.map((point) => (
              <li key={`${point.start}-${point.text}`}>
                <Text size="sm">
                  <Text span ff="monospace" c="dimmed">
                    {formatDuration(point.start)}
                  </Text>{' '}
                  {point.text}
                </Text>
              </li>
            ))}
          </Stack>
        </Card>
        <Alert variant="light" color="gray">
          Made with Moments.{' '}
          <Anchor component={Link} to="/login?type=signup" c="violet.8">
            Sign up free
          </Anchor>{' '}
          to summarise your own videos.
        </Alert>
      </Stack>
    </Container>
  );
}
