import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  EmptyState,
  Grid,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { Moment, Task } from '@moments/contract';
import { IconAlertTriangle, IconInfoCircle, IconMoodEmpty } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { taskResultPath } from '@moments/domain/tasks';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { useTask } from '../tasks/useTasks';
import { isNotFound, useMomentView, useTaskMoments } from './api';
import { formatSpan, scoreMeaning } from './format';
import { MomentCard } from './MomentCard';
import { MomentPlayer } from './MomentPlayer';
import { QueryPanel } from './QueryPanel';
import { TaskStatusPanel } from './TaskStatusPanel';
import { useVideoTopBar } from './useVideoTopBar';
import { VideoFacts } from './VideoFacts';
import { t } from '../messages/catalogue';
import { ExportAllPanel } from '../batches/ExportAllPanel';

function NotFoundCard() {
  return (
    <Card p="xl">
      <EmptyState
        variant="light"
        icon={<IconMoodEmpty size={26} />}
        title={t('title.thisVideoTaskDoesNotExist')}
        description={t('summaries.videoMissing.text')}
      >
        <EmptyState.Actions>
          <Button component={Link} to="/library/videoTasks">
            {t('summaries.videoMissing.tasks')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}

/** Where the list sits beside the player (Mantine's lg breakpoint) instead of below it. */
const WIDE_QUERY = '(min-width: 75em)';

/** /video/{taskId}/moments: the player and the task's ranked moments. */
export default function TaskMomentsPage() {
  const { taskId = '' } = useParams();
  const task = useTask(taskId);
  useVideoTopBar(task.data?.video);

  if (task.isPending) {
    return (
      <Center h={300}>
        <Loader />
      </Center>
    );
  }
  if (task.isError) {
    return (
      <Stack maw={1200} mx="auto">
        {isNotFound(task.error) ? (
          <NotFoundCard />
        ) : (
          <Alert
            color="red"
            icon={<IconAlertTriangle size={18} />}
            title={t('title.couldNotLoadThisTask')}
          >
            {task.error.message}
          </Alert>
        )}
      </Stack>
    );
  }
  // A caption task's result is its captions page: this route leads there.
  if (task.data.kind === 'caption') return <Navigate to={taskResultPath(task.data)} replace />;
  return (
    <Stack maw={1200} mx="auto" gap="lg" data-task-id={task.data.id}>
      <VideoFacts video={task.data.video}>
        <Badge variant="light" color={task.data.kind === 'search' ? 'blue' : 'violet'} size="sm">
          {task.data.kind === 'search' ? t('moments.task.search') : t('moments.task.viral')}
        </Badge>
        {task.data.status === 'DONE' && (
          <Button component={Link} to={`/video/${task.data.id}/summary`} size="xs" variant="light">
            {t('summaries.title')}
          </Button>
        )}
      </VideoFacts>
      {task.data.status === 'DONE' ? (
        <DoneTask task={task.data} />
      ) : (
        <TaskStatusPanel task={task.data} />
      )}
    </Stack>
  );
}

function DoneTask({ task }: { task: Task }) {
  const moments = useTaskMoments(task.id, true);
  const [params, setParams] = useSearchParams();
  const list = moments.data ?? [];
  const selected = list.find((moment) => moment.id === params.get('moment')) ?? list[0] ?? null;
  // The media is the task's source video: one signed URL serves every moment of the list.
  const media = useMomentView(list[0]?.id ?? null);
  const [playRequest, setPlayRequest] = useState(0);
  const playerRef = useRef<HTMLDivElement>(null);
  const isWide = useMediaQuery(WIDE_QUERY, true, { getInitialValueInEffect: false });

  const play = (moment: Moment) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('moment', moment.id);
        return next;
      },
      { replace: true },
    );
    setPlayRequest((count) => count + 1);
  };
  useEffect(() => {
    // On a phone the player sits above the list: bring it into view when a moment starts.
    if (playRequest > 0 && !isWide) {
      playerRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }, [playRequest, isWide]);

  const warnings = task.warnings.length > 0 && (
    <Alert
      variant="light"
      color="yellow"
      icon={<IconInfoCircle size={18} />}
      title={t('title.goodToKnow')}
      data-testid="task-warnings"
    >
      <Stack gap={4}>
        {task.warnings.map((warning) => (
          <Text key={warning} size="sm">
            {warning}
          </Text>
        ))}
      </Stack>
    </Alert>
  );

  if (moments.isPending) {
    return (
      <Center h={240}>
        <Loader />
      </Center>
    );
  }
  if (moments.isError) {
    return (
      <Alert
        color="red"
        icon={<IconAlertTriangle size={18} />}
        title={t('title.couldNotLoadTheMoments')}
      >
        {moments.error.message}
      </Alert>
    );
  }

  const queryPanel = <QueryPanel task={task} />;
  if (list.length === 0) {
    return (
      <Stack gap="lg">
        {warnings}
        <Card p="xl">
          <EmptyState
            variant="light"
            icon={<IconMoodEmpty size={26} />}
            title={
              task.kind === 'search'
                ? t('moments.none.search.title')
                : t('moments.none.viral.title')
            }
            description={
              task.kind === 'search' ? t('moments.none.search.text') : t('moments.none.viral.text')
            }
          />
        </Card>
        {queryPanel}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      {warnings}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Box
            ref={playerRef}
            style={{ position: 'sticky', top: 'calc(var(--app-shell-header-height, 64px) + 16px)' }}
          >
            <Stack gap="md">
              <Card p="sm">
                {selected && (
                  <MomentPlayer
                    mediaUrl={media.data?.media_url}
                    span={{ start: selected.start, end: selected.end }}
                    playRequest={playRequest}
                  />
                )}
                {selected && (
                  <Stack gap={2} mt="sm" px={4}>
                    <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                      {t('moments.nowPlaying', { span: formatSpan(selected.start, selected.end) })}
                    </Text>
                    <Text fw={600} lineClamp={2} data-testid="now-playing">
                      {selected.title}
                    </Text>
                  </Stack>
                )}
              </Card>
              {isWide && queryPanel}
            </Stack>
          </Box>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="md">
            <Title order={1} size="h4">
              {list.length === 1
                ? t('moments.list.title.one')
                : t('moments.list.title.other', { count: list.length })}
            </Title>
            <Text size="sm" c="dimmed" data-testid="score-meaning">
              {scoreMeaning(task.kind)}
            </Text>
            {list.map((moment, index) => (
              <MomentCard
                key={moment.id}
                moment={moment}
                rank={index + 1}
                selected={moment.id === selected?.id}
                onPlay={() => play(moment)}
              />
            ))}
            <ExportAllPanel taskId={task.id} moments={list} />
            {!isWide && queryPanel}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
