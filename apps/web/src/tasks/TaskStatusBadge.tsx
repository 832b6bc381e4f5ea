import { Badge } from '@mantine/core';
import type { Task, TaskStage, TaskStatus } from '@moments/contract';
import { t } from '../messages/catalogue';

const STATUS_LOOK: Record<TaskStatus, { label: string; color: string }> = {
  START: { label: t('tasks.status.START'), color: 'gray' },
  IN_PROGRESS: { label: t('tasks.status.IN_PROGRESS'), color: 'blue' },
  DONE: { label: t('tasks.status.DONE'), color: 'teal' },
  ERROR: { label: t('tasks.status.ERROR'), color: 'red' },
};

export const STAGE_LABELS: Record<TaskStage, string> = {
  queued: t('tasks.stage.queued'),
  downloading: t('tasks.stage.downloading'),
  probing: t('tasks.stage.probing'),
  transcribing: t('tasks.stage.transcribing'),
  analysing: t('tasks.stage.analysing'),
  summary: t('tasks.stage.summary'),
  finishing: t('tasks.stage.finishing'),
};

export const KIND_LABELS: Record<Task['kind'], string> = {
  viral: t('tasks.kind.viral'),
  search: t('tasks.kind.search'),
  caption: t('tasks.kind.caption'),
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
