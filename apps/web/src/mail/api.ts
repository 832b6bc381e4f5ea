import type { MailPreferences, UnsubscribeInfo, UserMailCategory } from '@moments/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';

/** Unsubscribe links and mail preferences. */
export function useUnsubscribeInfo(token: string) {
  return useQuery({
    queryKey: ['unsubscribe', token],
    queryFn: () =>
      api.get<UnsubscribeInfo>(`/api/unsubscribe/${encodeURIComponent(token)}`, {
        suppressErrorDialog: true,
      }),
    retry: false,
  });
}

export function useUnsubscribe(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post<UnsubscribeInfo>(`/api/unsubscribe/${encodeURIComponent(token)}`, undefined, {
        suppressErrorDialog: true,
      }),
    onSuccess: (info) => queryClient.setQueryData(['unsubscribe', token], info),
  });
}

const preferencesKey = ['mail-preferences'] as const;

export function useMailPreferences() {
  return useQuery({
    queryKey: preferencesKey,
    queryFn: () => api.get<MailPreferences>('/api/user/mail-preferences'),
  });
}

export function useSetMailPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: { category: UserMailCategory; enabled: boolean }) =>
      api.put<MailPreferences>('/api/user/mail-preferences', update),
    onSuccess: (preferences) => queryClient.setQueryData(preferencesKey, preferences),
  });
}
