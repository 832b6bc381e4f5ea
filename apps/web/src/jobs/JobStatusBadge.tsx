import { Badge } from '@mantine/core';
import type { Job } from '@moments/contract';

/** spec §3 job status as a badge: rendering with its percent, ready, or failed. */
export function JobStatusBadge({ job }: { job: Pick<Job, 'status' | 'progress'> }) {
  if (job.status === 'DONE')
    return (
      <Badge color="teal.9" style={{ flexShrink: 0 }}>
        Ready
      </Badge>
    );
  if (job.status === 'ERROR')
    return (
      <Badge color="red.9" style={{ flexShrink: 0 }}>
        Failed
      </Badge>
    );
  return (
    <Badge color="violet" variant="light" style={{ flexShrink: 0 }}>
      Rendering {Math.floor(job.progress)}%
    </Badge>
  );
}

export const JOB_TYPE_LABELS: Record<Job['type'], string> = {
  VIRAL_MOMENT_EXPORT: 'Viral moment',
  VIRAL_FIND_MOMENT_EXPORT: 'Search moment',
  ANIMATED_CAPTION_EXPORT: 'Captioned video',
};
