import {
  Alert,
  Button,
  Card,
  EmptyState,
  Group,
  Loader,
  Center,
  Modal,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import type { Task } from '@moments/contract';
import { taskCost } from '@moments/domain';
import { formatCredits } from '@moments/domain/format';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconBadgeCc,
  IconRefresh,
  IconFileText,
  IconSparkles,
  IconTrash,
  IconVideo,
} from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { languageLabel } from '../ingest/languages';
import { MOBILE_MEDIA_QUERY } from '../theme';
import { VideoThumbnail } from '../ingest/VideoCard';
import { KIND_LABELS, STAGE_LABELS, TaskStatusBadge } from './TaskStatusBadge';
import { useDeleteTask, useRetryTask, useTasks } from './useTasks';
import { t } from '../messages/catalogue';
import { formatRelativeTime } from '../messages/domain';

const isRunning = (task: Task) => task.status === 'START' || task.status === 'IN_PROGRESS';

/** Where a task's video came from: its link, or the uploaded file's name. */
function sourceOf(task: Task): string | null {
  if (task.url_source === 'upload') return task.video.title || null;
  return task.video.url || null;
}

/**
 * Retry for a failed task (it was refunded, so it simply starts again); Run again for finished
 * work, which asks first with the price of the new run.
 */
function RetryButton({ task, retry }: { task: Task; retry: ReturnType<typeof useRetryTask> }) {
  const [confirming, setConfirming] = useState(false);
  // Running finished work again charges it again: the confirmation says how much, priced by the
  // one cost function the ledger charges with (a follow-up that reuses its transcript pays only
  // its run). A failed task was refunded, so its Retry simply starts it again.
  const cost =
    task.status === 'DONE'
      ? formatCredits(
          task.duration_ms != null
            ? taskCost(task.kind, task.duration_ms, task.reuses_transcript ?? false)
            : task.cost_credits,
        )
      : null;
  const one = cost === '1';
  return (
    <>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconRefresh size={14} />}
        loading={retry.isPending}
        onClick={() => (cost ? setConfirming(true) : retry.mutate(task.id))}
      >
        {cost ? t('tasks.row.runAgain') : t('tasks.row.retry')}
      </Button>
      {cost && (
        <Modal
          opened={confirming}
          onClose={() => setConfirming(false)}
          title={t('title.runThisTaskAgain')}
        >
          <Stack>
            <Text size="sm" data-testid="run-again-text">
              {t(one ? 'tasks.runAgain.text.one' : 'tasks.runAgain.text.other', {
                title: task.video.title || t('tasks.row.untitled'),
                cost,
              })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {t('tasks.list.cancel')}
              </Button>
              <Button
                loading={retry.isPending}
                onClick={() => retry.mutate(task.id, { onSettled: () => setConfirming(false) })}
              >
                {t(one ? 'tasks.runAgain.confirm.one' : 'tasks.runAgain.confirm.other', { cost })}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}

function TaskRow({
  task,
  highlighted,
  onDelete,
}: {
  task: Task;
  highlighted: boolean;
  onDelete(task: Task): void;
}) {
  const retry = useRetryTask();
  const source = sourceOf(task);
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY, false, { getInitialValueInEffect: false });
  const running = isRunning(task);
  const hasMoments = task.status === 'DONE' && task.kind !== 'caption';
  const details = [
    KIND_LABELS[task.kind],
    task.query ? t('tasks.row.query', { query: task.query }) : null,
    task.detected_lang ? languageLabel(task.detected_lang) : null,
    formatRelativeTime(task.created_at),
  ].filter(Boolean);

  const header = (
    <Stack gap={4} miw={0} flex={1}>
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <Text fw={600} lineClamp={2}>
          {task.video.title || source || t('tasks.row.untitled')}
        </Text>
        <TaskStatusBadge status={task.status} />
      </Group>
      <Text size="xs" c="dimmed">
        {details.join(' · ')}
      </Text>
    </Stack>
  );
  const body = (
    <Stack gap={6} miw={0} flex={1}>
      {running && (
        <Stack gap={4}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" data-testid="task-stage">
              {STAGE_LABELS[task.stage]}
            </Text>
            <Text size="sm" c="dimmed" data-testid="task-progress-label">
              {t('tasks.row.progress', { percent: Math.round(task.progress) })}
            </Text>
          </Group>
          <Progress
            value={task.progress}
            size="md"
            radius="xl"
            animated
            striped
            aria-label={t('a11y.taskProgress')}
            data-testid="task-progress"
            data-value={Math.round(task.progress)}
          />
        </Stack>
      )}
      {task.status === 'ERROR' && source && (
        <Text size="xs" c="dimmed" truncate="end" data-testid="task-source" title={source}>
          {t('tasks.row.from', { source })}
        </Text>
      )}
      {task.status === 'ERROR' && task.error_reason && (
        <Alert
          color="red"
          variant="light"
          p="xs"
          icon={<IconAlertCircle size={16} />}
          data-testid="task-error"
        >
          <Text size="sm">{task.error_reason}</Text>
        </Alert>
      )}
      {task.status === 'DONE' && task.warnings.length > 0 && (
        <Alert color="yellow" variant="light" p="xs" icon={<IconAlertTriangle size={16} />}>
          {task.warnings.map((warning) => (
            <Text size="sm" key={warning}>
              {warning}
            </Text>
          ))}
        </Alert>
      )}
      {retry.error && (
        <Text size="sm" c="red">
          {retry.error.message}
        </Text>
      )}
      <Group gap="xs" mt={2}>
        {hasMoments && (
          <Button
            component={Link}
            to={`/video/${task.id}/moments`}
            size="xs"
            leftSection={<IconSparkles size={14} />}
          >
            {t('tasks.row.viewMoments')}
          </Button>
        )}
        {task.status === 'DONE' && (
          <Button
            component={Link}
            to={`/video/${task.id}/summary`}
            size="xs"
            variant="light"
            leftSection={<IconFileText size={14} />}
          >
            {t('tasks.row.summary')}
          </Button>
        )}
        {task.status === 'DONE' && (
          <Button
            component={Link}
            to={`/video/${task.id}/captions`}
            size="xs"
            variant={task.kind === 'caption' ? 'filled' : 'light'}
            leftSection={<IconBadgeCc size={14} />}
          >
            {task.kind === 'caption' ? t('tasks.row.openCaptions') : t('tasks.row.captions')}
          </Button>
        )}
        {!running && <RetryButton task={task} retry={retry} />}
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={() => onDelete(task)}
        >
          {t('tasks.row.delete')}
        </Button>
      </Group>
    </Stack>
  );

  return (
    <Card
      p="md"
      data-testid="task-row"
      data-task-id={task.id}
      data-status={task.status}
      style={highlighted ? { borderColor: 'var(--mantine-color-violet-4)' } : undefined}
    >
      {isMobile ? (
        // Phones: the facts beside a small thumbnail, the progress and actions full width below.
        <Stack gap="sm">
          <Group align="flex-start" wrap="nowrap" gap="sm">
            <VideoThumbnail video={task.video} width={96} height={54} />
            {header}
          </Group>
          {body}
        </Stack>
      ) : (
        <Group align="flex-start" wrap="nowrap" gap="md">
          <VideoThumbnail video={task.video} width={140} height={79} />
          <Stack gap={6} miw={0} flex={1}>
            {header}
            {body}
          </Stack>
        </Group>
      )}
    </Card>
  );
}

/** /library/videoTasks: the user's tasks with live status, progress, retry and delete. */
export function VideoTasksList() {
  const tasks = useTasks();
  const remove = useDeleteTask();
  const [confirming, setConfirming] = useState<Task | null>(null);
  const startedTaskId = (useLocation().state as { startedTaskId?: string } | null)?.startedTaskId;

  if (tasks.isPending) {
    return (
      <Center py="xl">
        <Loader type="dots" />
      </Center>
    );
  }
  if (tasks.isLoadingError) {
    return (
      <Alert
        color="red"
        icon={<IconAlertCircle size={18} />}
        title={t('title.yourVideosCouldNotBeLoaded')}
      >
        <Button size="xs" mt="xs" variant="light" color="red" onClick={() => void tasks.refetch()}>
          {t('tasks.list.tryAgain')}
        </Button>
      </Alert>
    );
  }
  if (tasks.data.length === 0) {
    return (
      <Card p="xl">
        <EmptyState
          variant="light"
          icon={<IconVideo size={26} />}
          title={t('title.noVideoTasksYet')}
          description={t('tasks.list.empty')}
        >
          <EmptyState.Actions>
            <Button component={Link} to="/home">
              {t('tasks.list.addVideo')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Card>
    );
  }

  return (
    <Stack gap="sm" data-testid="video-tasks">
      {tasks.data.map((task) => (
        <TaskRow
          key={task.id}
          task={task}
          highlighted={task.id === startedTaskId}
          onDelete={setConfirming}
        />
      ))}
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={t('title.deleteThisVideoTask')}
      >
        <Stack>
          <Text size="sm">
            {t('tasks.list.deleteText', {
              title: confirming?.video.title || t('tasks.row.untitled'),
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('tasks.list.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => {
                if (!confirming) return;
                remove.mutate(confirming.id, { onSettled: () => setConfirming(null) });
              }}
            >
              {t('tasks.list.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
