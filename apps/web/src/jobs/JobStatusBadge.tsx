import { Badge } from '@mantine/core';
import type { Job } from '@moments/contract';
import { t } from '../messages/catalogue';

/** An export job's status as a badge: rendering with its percent, ready, or failed. */
export function JobStatusBadge({ job }: { job: Pick<Job, 'status' | 'progress'> }) {
  if (job.status === 'DONE')
    return (
      <Badge color="teal.9" style={{ flexShrink: 0 }}>
        {t('jobs.status.ready')}
      </Badge>
    );
  if (job.status === 'ERROR')
    return (
      <Badge color="red.9" style={{ flexShrink: 0 }}>
        {t('jobs.status.failed')}
      </Badge>
    );
  return (
    <Badge color="violet" variant="light" style={{ flexShrink: 0 }}>
      {t('jobs.status.rendering', { percent: Math.floor(job.progress) })}
    </Badge>
  );
}

export const JOB_TYPE_LABELS: Record<Job['type'], string> = {
  VIRAL_MOMENT_EXPORT: t('jobs.type.VIRAL_MOMENT_EXPORT'),
  VIRAL_FIND_MOMENT_EXPORT: t('jobs.type.VIRAL_FIND_MOMENT_EXPORT'),
  ANIMATED_CAPTION_EXPORT: t('jobs.type.ANIMATED_CAPTION_EXPORT'),
};
