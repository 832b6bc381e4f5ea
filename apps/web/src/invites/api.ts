import type { InviteInfo, InviteLanding } from '@moments/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

/** Invite calls. */
export function useInviteInfo() {
  return useQuery({
    queryKey: ['invite', 'info'],
    queryFn: () => api.get<InviteInfo>('/api/invite/info'),
  });
}

export function useInviteLanding(code: string | null) {
  return useQuery({
    queryKey: ['invite', 'landing', code],
    queryFn: () =>
      api.get<InviteLanding>('/api/invite/landing', {
        query: { ref: code ?? undefined },
        suppressErrorDialog: true,
      }),
  });
}
