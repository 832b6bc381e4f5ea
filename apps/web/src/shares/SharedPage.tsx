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
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../api/client';
import type { SharedPage as SharedPageData } from '@moments/contract';
import { t } from '../messages/catalogue';
import { useSharedPage } from '../summaries/api';

/**
 * The public, read-only page of a shared summary (/s/{id}) or note (/s/{id}?note=1),
 * and of a shared clip (/s/{id}?clip=1). No account needed; a revoked link shows
 * "not found".
 */
export default function SharedPage() {
  const { shareId = '' } = useParams();
  const [params] = useSearchParams();
  const isNote = params.get('note') === '1';
  const kind = params.get('clip') === '1' ? 'clip' : isNote ? 'note' : 'summary';
  const page = useSharedPage(shareId, kind);

  if (page.isPending)
    return (
      <Container py="xl">
        <Loader role="status" aria-label={t('a11y.loading')} />
      </Container>
    );
  if (page.isLoadingError)
    return (
      <Container py="xl" size="sm">
        <Title order={1} size="h2" mb="sm">
          {t('shares.broken.title')}
        </Title>
        <Text mb="md">
          {isApiError(page.error) && page.error.status === 404
            ? t('shares.broken.text')
            : page.error.message}
        </Text>
        <Anchor component={Link} to="/home">
          {t('shares.goToMoments')}
        </Anchor>
      </Container>
    );

  const data = page.data;
  if (data.kind === 'clip') return <SharedClip clip={data} />;
  if (data.kind === 'note')
    return (
      <Container size="md" py="lg">
        <Stack gap="md">
          <Badge variant="light" color="violet">
            {t('shares.note.badge')}
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
          {t('shares.summary.badge')}
        </Badge>
        <Title order={1}>{data.title}</Title>
        {video.url.startsWith('http') && (
          <Anchor href={video.url} target="_blank" rel="noopener noreferrer nofollow" size="sm">
            {t('shares.summary.original')}
          </Anchor>
        )}
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            {t('shares.summary.overview')}
          </Title>
          <Text data-testid="shared-overview">{summary.overview}</Text>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            {t('shares.summary.chapters')}
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
            {t('shares.summary.keyPoints')}
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
          {t('shares.summary.madeWith')}{' '}
          <Anchor component={Link} to="/login?type=signup" c="violet.8">
            {t('shares.signUp')}
          </Anchor>{' '}
          {t('shares.summary.toSummarise')}
        </Alert>
      </Stack>
    </Container>
  );
}

/** How much of the screen's height the player may take: title and controls stay in view. */
const PLAYER_HEIGHT = '62dvh';

/**
 * A shared export: its MP4 in a player, with its poster, for anyone with the link. The player
 * takes the clip's own shape (known from the export, else from the file once it loads), as wide
 * as fits both the page and the height left, so a vertical clip is not a black-barred strip and
 * its controls are on screen.
 */
function SharedClip({ clip }: { clip: Extract<SharedPageData, { kind: 'clip' }> }) {
  const [loadedShape, setLoadedShape] = useState<number | null>(null);
  const shape = clip.width && clip.height ? clip.width / clip.height : (loadedShape ?? 16 / 9);
  return (
    <Container size="sm" py="lg">
      <Stack gap="md">
        <Badge variant="light" color="violet">
          {t('clip.shared.badge')}
        </Badge>
        <Title order={1} size="h2">
          {clip.title}
        </Title>
        {clip.duration_ms ? (
          <Text c="dimmed" size="sm">
            {formatDuration(clip.duration_ms)}
          </Text>
        ) : null}
        <Card
          withBorder
          p={0}
          mx="auto"
          style={{
            overflow: 'hidden',
            background: '#000',
            width: `min(100%, calc(${PLAYER_HEIGHT} * ${shape.toFixed(4)}))`,
          }}
        >
          <video
            src={clip.video_url}
            poster={clip.poster_url ?? undefined}
            controls
            playsInline
            preload="metadata"
            aria-label={clip.title}
            data-testid="shared-clip-video"
            onLoadedMetadata={(event) => {
              const { videoWidth, videoHeight } = event.currentTarget;
              if (videoWidth && videoHeight) setLoadedShape(videoWidth / videoHeight);
            }}
            style={{ display: 'block', width: '100%', aspectRatio: String(shape) }}
          />
        </Card>
        <Alert variant="light" color="gray">
          {t('clip.shared.cta')}{' '}
          <Anchor component={Link} to="/login?type=signup" c="violet.8">
            {t('shares.signUp')}
          </Anchor>
        </Alert>
      </Stack>
    </Container>
  );
}
