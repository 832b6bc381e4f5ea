import { Alert, Button, Card, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import type { Task } from '@moments/contract';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

const STAGE_LABELS: Record<Task['stage'], string> = {
  queued: 'Waiting in line',
  downloading: 'Downloading the video',
  probing: 'Reading the video',
  transcribing: 'Transcribing the speech',
  analysing: 'Finding the moments',
  summary: 'Writing the summary',
  finishing: 'Finishing up',
};

/** A task that is not DONE yet: its progress, or the reason it failed (spec §4 task states). */
export function TaskStatusPanel({ task }: { task: Task }) {
  const backLink = (
    <Button
      component={Link}
      to="/library/videoTasks"
      variant="default"
      leftSection={<IconArrowLeft size={16} />}
    >
      All video tasks
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
            title="This task could not finish"
          >
            {task.error_reason ?? 'Something went wrong while processing the video.'}
          </Alert>
          <Text size="sm" c="dimmed">
            You can retry it from your video tasks.
          </Text>
          <Group>{backLink}</Group>
        </Stack>
      </Card>
    );
  }
  return (
    <Card p="xl" data-testid="task-status">
      <Stack gap="md">
        <Group gap="sm">
          <Loader size="sm" />
          <Title order={3}>{STAGE_LABELS[task.stage] ?? 'Working on it'}…</Title>
        </Group>
        {task.query && (
          <Text size="sm">
            Looking for: <b>{task.query}</b>
          </Text>
        )}
        <Progress value={task.progress} size="lg" striped animated aria-label="Task progress" />
        <Text size="sm" c="dimmed">
          {Math.round(task.progress)}% done. The moments appear here as soon as the task finishes;
          you can leave this page meanwhile.
        </Text>
        <Group>{backLink}</Group>
      </Stack>
    </Card>
  );
}
