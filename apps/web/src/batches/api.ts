import type {
  ExportBatch,
  ExportBatchCreateBody,
  ExportBatchCreated,
  PublishKit,
} from '@moments/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { useRealtimeMessages, useRealtimeStatus } from '../realtime';

/** Export all (/api/job/batch) and the publish kit of a finished clip, as TanStack Query hooks. */
const batchKeys = {
  detail: (id: string) => ['batches', id] as const,
  kit: (jobId: string) => ['publish-kit', jobId] as const,
};

export function useCreateBatch() {
  return useMutation({
    mutationFn: (body: ExportBatchCreateBody) =>
      api.post<ExportBatchCreated>('/api/job/batch', body, { idempotent: true }),
  });
}

/** A batch, refetched when one of its clips moves (pushed), polled only without realtime. */
export function useBatch(batchId: string | null) {
  const queryClient = useQueryClient();
  const connected = useRealtimeStatus().connected;
  useRealtimeMessages((message) => {
    if (!batchId || !message.type.startsWith('JOB_')) return;
    const data = message.data as { batch_id?: string };
    if (data.batch_id === batchId) {
      void queryClient.invalidateQueries({ queryKey: batchKeys.detail(batchId) });
    }
  });
  return useQuery({
    queryKey: batchKeys.detail(batchId ?? ''),
    enabled: Boolean(batchId),
    queryFn: () => api.get<ExportBatch>(`/api/job/batch/${encodeURIComponent(batchId!)}`),
    refetchInterval: (query) =>
      query.state.data?.status === 'IN_PROGRESS' ? (connected ? 5000 : 2000) : false,
  });
}

export function usePublishKit(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: batchKeys.kit(jobId),
    enabled,
    queryFn: () => api.get<PublishKit>(`/api/job/${encodeURIComponent(jobId)}/publish_kit`),
    staleTime: Infinity,
  });
}
