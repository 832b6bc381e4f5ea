import { Badge } from '@mantine/core';
import type { Task, TaskStage, TaskStatus } from '@moments/contract';

const STATUS_LOOK: Record<TaskStatus, { label: string; color: string }> = {
  START: { label: 'Queued', color: 'gray' },
  IN_PROGRESS: { label: 'In progress', color: 'blue' },
  DONE: { label: 'Done', color: 'teal' },
  ERROR: { label: 'Failed', color: 'red' },
};

export const STAGE_LABELS: Record<TaskStage, string> = {
  queued: 'Waiting to start',
  downloading: 'Downloading',
  probing: 'Reading the video',
  transcribing: 'Transcribing',
  analysing: 'Finding moments',
  finishing: 'Finishing',
};

export const KIND_LABELS: Record<Task['kind'], string> = {
  viral: 'Viral moments',
  search: 'Moment search',
  caption: 'Animated captions',
};

export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  const look = STATUS_LOOK[status];
  return (
    <Badge
      color={look.color}
      variant="light"
      radius="sm"
      data-testid="task-status"
      style={{ flexShrink: 0 }}
    >
      {look.label}
    </Badge>
  );
}
