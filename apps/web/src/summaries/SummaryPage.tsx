import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Grid,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { formatDuration } from '@moments/domain/format';
import { IconNotes, IconRefresh, IconShare } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../api/client';
import { useVideoTopBar } from '../moments/useVideoTopBar';
import { ShareLinkModal } from './ShareLinkModal';
import { useCreateNote, useSummary, useSummaryActions } from './api';

/** issue 10: /video/{taskId}/summary: overview, chapters and key points that seek, the transcript. */
export default function SummaryPage() {
  const { taskId = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const summary = useSummary(taskId);
  const actions = useSummaryActions(taskId);
  const createNote = useCreateNote();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [positionMs, setPositionMs] = useState(0);
  const [shareOpen, setShareOpen] = useState(false);
  useVideoTopBar(summary.data?.video);

  const seek = (ms: number) => {
    const video = videoRef.current;
    setPositionMs(ms);
    if (!video) return;
    video.currentTime = ms / 1000;
    void video.play().catch(() => undefined);
  };

  // A timestamp link (?t=ms, e.g. from a note) seeks once the video is there.
  const startAt = Number(params.get('t'));
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !Number.isFinite(startAt) || startAt <= 0) return;
    const apply = () => {
      video.currentTime = startAt / 1000;
      setPositionMs(startAt);
    };
    if (video.readyState >= 1) apply();
    else video.addEventListener('loadedmetadata', apply, { once: true });
    return () => video.removeEventListener('loadedmetadata', apply);
  }, [startAt, summary.data?.media_url]);

  if (summary.isPending)
    return (
      <Container py="xl">
        <Loader role="status" aria-label="Loading the summary" />
      </Container>
    );
  if (summary.isError) {
    const missing = isApiError(summary.error) && summary.error.status === 404;
    return (
      <Container py="xl" size="sm">
        <Title order={1} size="h2" mb="md">
          Summary
        </Title>
        {missing ? (
          <Alert color="gray" title="No summary for this video yet">
            <Stack gap="sm">
              <Text size="sm">
                Videos processed from now on get a summary automatically. You can make one now.
              </Text>
              <Group>
                <Button
                  leftSection={<IconRefresh size={16} />}
                  loading={actions.refresh.isPending}
                  onClick={() => actions.refresh.mutate()}
                >
                  Make the summary
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Alert color="red">The summary could not be loaded: {summary.error.message}</Alert>
        )}
      </Container>
    );
  }

  const data = summary.data;
  const activeChapter = data.chapters.findLastIndex((chapter) => chapter.start <= positionMs);
  const makeNote = () =>
    createNote.mutate(
      { from: 'summary', id: taskId },
      { onSuccess: (note) => navigate(`/note/detail/${note.id}`) },
    );

  return (
    <Container size="lg" py="md">
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            Summary
          </Title>
          <Text c="dimmed" size="sm">
            {data.video.title || 'Untitled video'} ·{' '}
            {data.method === 'llm' ? 'written by the language model' : 'made from the talk itself'}
          </Text>
        </div>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={actions.refresh.isPending}
            onClick={() => actions.refresh.mutate()}
          >
            Refresh
          </Button>
          <Button
            variant="default"
            leftSection={<IconNotes size={16} />}
            loading={createNote.isPending}
            onClick={makeNote}
          >
            Create note
          </Button>
          <Button leftSection={<IconShare size={16} />} onClick={() => setShareOpen(true)}>
            Share
          </Button>
        </Group>
      </Group>
      {(actions.refresh.isError || createNote.isError) && (
        <Alert color="red" mb="md">
          {(actions.refresh.error ?? createNote.error)?.message}
        </Alert>
      )}
      {data.warnings.map((warning) => (
        <Alert key={warning} color="yellow" mb="md">
          {warning}
        </Alert>
      ))}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Card withBorder p={0} style={{ overflow: 'hidden' }}>
              {data.media_url ? (
                <video
                  ref={videoRef}
                  src={data.media_url}
                  controls
                  preload="metadata"
                  style={{ width: '100%', display: 'block', background: '#000' }}
                  onTimeUpdate={(event) =>
                    setPositionMs(Math.round(event.currentTarget.currentTime * 1000))
                  }
                  aria-label="Video"
                  data-testid="summary-video"
                />
              ) : (
                <Text p="md">The video file is no longer available.</Text>
              )}
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Overview
              </Title>
              <Text data-testid="summary-overview">{data.overview || 'Nothing was said.'}</Text>
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Key points
              </Title>
              <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {data.key_points.map((point) => (
                  <li key={`${point.start}-${point.text}`}>
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <Anchor
                        component="button"
                        type="button"
                        onClick={() => seek(point.start)}
                        aria-label={`Play from ${formatDuration(point.start)}`}
                        ff="monospace"
                      >
                        {formatDuration(point.start)}
                      </Anchor>
                      <Text size="sm">{point.text}</Text>
                    </Group>
                  </li>
                ))}
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Chapters
              </Title>
              <Stack gap={4} component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {data.chapters.map((chapter, index) => (
                  <li key={chapter.start}>
                    <UnstyledButton
                      onClick={() => seek(chapter.start)}
                      aria-current={index === activeChapter ? 'true' : undefined}
                      data-testid="summary-chapter"
                      data-start={chapter.start}
                      p="xs"
                      style={{
                        width: '100%',
                        borderRadius: 8,
                        background:
                          index === activeChapter ? 'var(--mantine-color-violet-light)' : undefined,
                      }}
                    >
                      <Group gap="xs" wrap="nowrap" align="flex-start">
                        <Badge variant="light" color="violet" radius="sm" ff="monospace">
                          {formatDuration(chapter.start)}
                        </Badge>
                        <div>
                          <Text fw={600} size="sm">
                            {chapter.title}
                          </Text>
                          <Text size="xs" c="dimmed" lineClamp={3}>
                            {chapter.summary}
                          </Text>
                        </div>
                      </Group>
                    </UnstyledButton>
                  </li>
                ))}
              </Stack>
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Transcript
              </Title>
              <ScrollArea.Autosize mah={360} type="auto">
                <Stack gap={6}>
                  {data.transcript.map((line) => (
                    <Group key={line.start} gap="xs" wrap="nowrap" align="flex-start">
                      <Anchor
                        component="button"
                        type="button"
                        size="xs"
                        ff="monospace"
                        onClick={() => seek(line.start)}
                        aria-label={`Play from ${formatDuration(line.start)}`}
                      >
                        {formatDuration(line.start)}
                      </Anchor>
                      <Text size="sm">{line.text}</Text>
                    </Group>
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
      <ShareLinkModal
        opened={shareOpen}
        onClose={() => setShareOpen(false)}
        what="summary"
        sharePath={data.share_id ? `/s/${data.share_id}` : null}
        onShare={() => actions.share.mutateAsync().then((r) => r.path)}
        onUnshare={() => actions.unshare.mutateAsync().then(() => undefined)}
      />
    </Container>
  );
}
