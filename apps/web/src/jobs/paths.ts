import type { Job } from '@moments/contract';

/**
 * Where to fix an export: its moment's editor opened with the settings it was made with, or the
 * tasks list for whole-video caption exports.
 */
export function editPathOf(job: Pick<Job, 'moment_id' | 'job_id'>): string {
  return job.moment_id
    ? `/moment/${job.moment_id}/clip?job=${encodeURIComponent(job.job_id)}`
    : '/library/videoTasks';
}
