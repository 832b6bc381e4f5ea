import type { Job } from '@moments/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { useRealtimeMessages, useRealtimeReconnect, useRealtimeStatus } from '../realtime';

/** Export jobs (/api/job) as TanStack Query hooks. */

export const jobKeys = {
  all: ['jobs'] as const,
  lists: ['jobs', 'list'] as const,
  list: (page: number, pageSize: number) => ['jobs', 'list', page, pageSize] as const,
  detail: (id: string) => ['jobs', 'detail', id] as const,
};

/**
 * Progress is pushed (useJobUpdates); polling only stands in while the realtime connection is
 * down. Messages missed during a reconnect are caught up by the refetch on reconnect.
 */
const POLL_WITHOUT_REALTIME_MS = 2000;

function pollInterval(running: boolean, realtimeConnected: boolean): number | false {
  return running && !realtimeConnected ? POLL_WITHOUT_REALTIME_MS : false;
}

/**
 * Keeps cached jobs current from the pushed JOB_* messages: progress goes straight into
 * the cache; a finished job is fetched again for its signed file_url and error reason.
 */
function useJobUpdates(): void {
  const queryClient = useQueryClient();
  useRealtimeMessages((message) => {
    if (
      message.type !== 'JOB_VIRAL_MOMENT_EXPORT' &&
      message.type !== 'JOB_ANIMATED_CAPTION_EXPORT'
    ) {
      return;
    }
    const { job_id: jobId, job_status: status, progress } = message.data;
    // The status flips to DONE only with the refetched job, which carries the file_url.
    const withProgress = (job: Job) => (job.job_id === jobId ? { ...job, progress } : job);
    queryClient.setQueryData<Job>(jobKeys.detail(jobId), (job) => job && withProgress(job));
    queryClient.setQueriesData<Job[]>({ queryKey: jobKeys.lists }, (jobs) =>
      jobs?.map(withProgress),
    );
    if (status !== 'IN_PROGRESS') {
      void queryClient.invalidateQueries({ queryKey: jobKeys.detail(jobId) });
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists });
    }
  });
  useRealtimeReconnect(() => void queryClient.invalidateQueries({ queryKey: jobKeys.all }));
}

/**
 * One export job. The page shows its own messages (logged out, not found), so no global dialog;
 * a signed-out visitor gets 401 (/job/{jobId} is a route without a login guard).
 */
export function useJob(jobId: string, enabled = true) {
  const { connected } = useRealtimeStatus();
  useJobUpdates();
  return useQuery({
    queryKey: jobKeys.detail(jobId),
    enabled,
    queryFn: () =>
      api.get<Job>(`/api/job/${encodeURIComponent(jobId)}`, { suppressErrorDialog: true }),
    refetchInterval: (query) => pollInterval(query.state.data?.status === 'IN_PROGRESS', connected),
  });
}

export function useJobList(page: number, pageSize: number) {
  const { connected } = useRealtimeStatus();
  useJobUpdates();
  return useQuery({
    queryKey: jobKeys.list(page, pageSize),
    queryFn: () =>
      api.get<Job[]>('/api/job/list', { query: { page_num: page, page_size: pageSize } }),
    refetchInterval: (query) =>
      pollInterval(
        query.state.data?.some((job) => job.status === 'IN_PROGRESS') ?? false,
        connected,
      ),
  });
}

export function useDeleteJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => api.delete<null>(`/api/job/${encodeURIComponent(jobId)}`),
    onSuccess: (_, jobId) => {
      queryClient.removeQueries({ queryKey: jobKeys.detail(jobId) });
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists });
    },
  });
}

/**
 * Sharing a finished export as an unlisted clip page /s/{id}?clip=1, and revoking it.
 * The job is fetched again after either, so its `share_id` says what is shared.
 */
export function useClipShare(jobId: string) {
  const queryClient = useQueryClient();
  const refetch = () => queryClient.invalidateQueries({ queryKey: jobKeys.detail(jobId) });
  const share = useMutation({
    mutationFn: () =>
      api.post<{ share_id: string; path: string }>('/api/job/share', undefined, {
        query: { id: jobId },
      }),
    onSuccess: refetch,
  });
  const unshare = useMutation({
    mutationFn: () => api.delete<null>('/api/job/share', { query: { id: jobId } }),
    onSuccess: refetch,
  });
  return { share, unshare };
}
