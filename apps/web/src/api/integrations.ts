import type {
  ApiToken,
  CreateApiTokenBody,
  CreateWebhookBody,
  CreatedApiToken,
  CreatedWebhook,
  Webhook,
  WebhookDelivery,
} from '@moments/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** Settings → API: personal API tokens and webhooks. */
const TOKENS_KEY = ['api-tokens'] as const;
const WEBHOOKS_KEY = ['webhooks'] as const;

export const useApiTokens = () =>
  useQuery({ queryKey: TOKENS_KEY, queryFn: () => api.get<ApiToken[]>('/api/tokens/list') });

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiTokenBody) => api.post<CreatedApiToken>('/api/tokens', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/api/tokens/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}

export const useWebhooks = () =>
  useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => api.get<Webhook[]>('/api/webhooks/list') });

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookBody) => api.post<CreatedWebhook>('/api/webhooks', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/api/webhooks/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export function useTestWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<WebhookDelivery>(`/api/webhooks/${encodeURIComponent(id)}/test`),
    onSuccess: (_delivery, id) =>
      queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, id, 'deliveries'] }),
  });
}

export const useWebhookDeliveries = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: [...WEBHOOKS_KEY, id, 'deliveries'],
    queryFn: () => api.get<WebhookDelivery[]>(`/api/webhooks/${encodeURIComponent(id)}/deliveries`),
    enabled,
    // A delivery under way settles within seconds; the log follows it while it is open.
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'pending') ? 2000 : false,
  });
