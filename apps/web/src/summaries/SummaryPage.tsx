import { Alert, Button, Card, Container, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconNotes, IconRefresh, IconShare } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTask } from '../tasks/useTasks';
import { isApiError } from '../api/client';
import { useVideoTopBar } from '../moments/useVideoTopBar';
import { ShareLinkModal } from './ShareLinkModal';
import { useCreateNote, useSummary, useSummaryActions } from './api';
import { ChaptersCard, KeyPointsCard, OverviewCard, TranscriptCard } from './SummarySections';
import { SummaryLoading, SummaryUnavailable, SummaryVideoMissing } from './SummaryStates';
import { t } from '../messages/catalogue';

/** /video/{taskId}/summary: overview, chapters and key points that seek, the transcript. */
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
  // No summary: is there a video at all? An unknown or someone else's task is "not found".
  const noSummary = isApiError(summary.error) && summary.error.status === 404;
  const task = useTask(noSummary ? taskId : undefined);
  const noTask = noSummary && isApiError(task.error) && task.error.status === 404;

  const seek = (ms: number) => {
    const video = videoRef.current;
    setPositionMs(ms);
    if (!video) return;
    video.currentTime = ms / 1000;
    // Play refused (autoplay rules): the seek stands and the user presses play.
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

  if (summary.isPending) return <SummaryLoading />;
  if (noTask) return <SummaryVideoMissing />;
  if (summary.isError && noSummary && task.isPending) return <SummaryLoading />;
  if (summary.isError) {
    return (
      <SummaryUnavailable
        missing={noSummary}
        message={summary.error.message}
        making={actions.refresh.isPending}
        onMake={() => actions.refresh.mutate()}
      />
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
            {t('summaries.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {data.video.title || t('summaries.untitledVideo')} ·{' '}
            {data.method === 'llm' ? t('summaries.method.llm') : t('summaries.method.extractive')}
          </Text>
        </div>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={actions.refresh.isPending}
            onClick={() => actions.refresh.mutate()}
          >
            {t('summaries.refresh')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconNotes size={16} />}
            loading={createNote.isPending}
            onClick={makeNote}
          >
            {t('a11y.createNote')}
          </Button>
          <Button leftSection={<IconShare size={16} />} onClick={() => setShareOpen(true)}>
            {t('a11y.share')}
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
                  aria-label={t('summaries.video')}
                  data-testid="summary-video"
                />
              ) : (
                <Text p="md">{t('summaries.videoGone')}</Text>
              )}
            </Card>
            <OverviewCard overview={data.overview} />
            <KeyPointsCard points={data.key_points} seek={seek} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <ChaptersCard chapters={data.chapters} activeChapter={activeChapter} seek={seek} />
            <TranscriptCard lines={data.transcript} seek={seek} />
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
