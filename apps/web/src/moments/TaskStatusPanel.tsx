import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Progress,
  ScrollArea,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { Task } from '@moments/contract';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useEffect } from 'react';
import { loadTaskPartial, useTaskPartial, type TaskPartial } from '../tasks/partials';
import { formatDuration } from '@moments/domain/format';
import { formatSpan } from './format';
import { t } from '../messages/catalogue';

const STAGE_LABELS: Record<Task['stage'], string> = {
  queued: t('moments.stage.queued'),
  downloading: t('moments.stage.downloading'),
  probing: t('moments.stage.probing'),
  transcribing: t('moments.stage.transcribing'),
  analysing: t('moments.stage.analysing'),
  summary: t('moments.stage.summary'),
  finishing: t('moments.stage.finishing'),
};

/** A task that is not DONE yet: its progress, or the reason it failed. */
export function TaskStatusPanel({ task }: { task: Task }) {
  const backLink = (
    <Button
      component={Link}
      to="/library/videoTasks"
      variant="default"
      leftSection={<IconArrowLeft size={16} />}
    >
      {t('moments.status.allTasks')}
    </Button>
  );
  if (task.status === 'ERROR') {
    return (
      <Card p="xl" data-testid="task-status">
        <Stack gap="md">
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={20} />}
            title={t('title.thisTaskCouldNotFinish')}
          >
            {task.error_reason ?? t('moments.status.failed')}
          </Alert>
          <Text size="sm" c="dimmed">
            {t('moments.status.retry')}
          </Text>
          <Group>{backLink}</Group>
        </Stack>
      </Card>
    );
  }
  return (
    <Stack gap="md">
      <Card p="xl" data-testid="task-status">
        <Stack gap="md">
          <Group gap="sm">
            <Loader size="sm" />
            <Title order={3}>
              {t('moments.status.stage', {
                stage: STAGE_LABELS[task.stage] ?? t('moments.stage.other'),
              })}
            </Title>
          </Group>
          {task.query && (
            <Text size="sm">
              {t('moments.status.lookingFor')} <b>{task.query}</b>
            </Text>
          )}
          <Progress
            value={task.progress}
            size="lg"
            striped
            animated
            aria-label={t('a11y.taskProgress')}
          />
          <Text size="sm" c="dimmed">
            {t('moments.status.progress', { percent: Math.round(task.progress) })}
          </Text>
          <Group>{backLink}</Group>
        </Stack>
      </Card>
      <PartialResults taskId={task.id} />
    </Stack>
  );
}

/**
 * While a long video is transcribed in chunks, the transcript heard so far and
 * the moments it already holds (provisional: the final ranking replaces them when the task ends).
 */
function PartialResults({ taskId }: { taskId: string }) {
  const partial = useTaskPartial(taskId);
  useEffect(() => {
    // Opened late: what was heard before this page got its first push.
    loadTaskPartial(taskId).catch(() => undefined); // a preview: the pushes still grow it
  }, [taskId]);
  if (!partial) return null;
  return (
    <>
      <ProvisionalMoments partial={partial} />
      <Card p="xl" data-testid="transcript-so-far">
        <Stack gap="xs">
          <Title order={4}>{t('moments.partial.heard')}</Title>
          <Text size="sm" c="dimmed">
            {t('moments.partial.upTo', {
              time: formatDuration(partial.transcribedMs),
              done: partial.chunksDone,
              count: partial.chunkCount,
            })}
          </Text>
          <ScrollArea.Autosize mah={240}>
            <Stack gap={4}>
              {partial.lines.map((line) => (
                <Text key={line.startMs} size="sm">
                  <Text span c="dimmed" size="xs" mr="xs">
                    {formatDuration(line.startMs)}
                  </Text>
                  {line.text}
                </Text>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Stack>
      </Card>
    </>
  );
}

function ProvisionalMoments({ partial }: { partial: TaskPartial }) {
  if (!partial.moments.length) return null;
  return (
    <Card p="xl" data-testid="provisional-moments">
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={4}>{t('moments.partial.early')}</Title>
          <Badge variant="light" color="gray">
            {t('moments.partial.provisional')}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t('moments.partial.earlyText')}
        </Text>
        {partial.moments.map((moment) => (
          <Group key={moment.startMs} justify="space-between" wrap="nowrap">
            <Text size="sm" fw={500} lineClamp={1}>
              {moment.title}
            </Text>
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatSpan(moment.startMs, moment.endMs)} · {moment.score}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
