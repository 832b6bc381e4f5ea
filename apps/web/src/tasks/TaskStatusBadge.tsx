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
  summary: 'Summarising',
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
      // The lightest tint behind the dark text: on the default tint teal is below 4.5:1.
      bg={`${look.color}.0`}
      radius="sm"
      data-testid="task-status"
      style={{ flexShrink: 0 }}
    >
      {look.label}
    </Badge>
  );
}
