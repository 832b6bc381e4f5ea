import type { UserInfo } from '@moments/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchUserInfo } from '../api/account';

export const USER_INFO_QUERY_KEY = ['user', 'info'] as const;

type SessionStatus = 'loading' | 'anonymous' | 'authenticated';

export interface Session {
  status: SessionStatus;
  user: UserInfo | null;
  /** Puts a freshly returned user (login, sign-up) or null (logout) in place. */
  setUser(user: UserInfo | null): void;
  /** Fetches the user info again (after a plan change). */
  refresh(): Promise<unknown>;
}

/** The signed-in user as the server last reported it. */
export function useSession(): Session {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: USER_INFO_QUERY_KEY,
    queryFn: fetchUserInfo,
    staleTime: 60_000,
    retry: false,
  });
  const setUser = useCallback(
    (user: UserInfo | null) => queryClient.setQueryData(USER_INFO_QUERY_KEY, user),
    [queryClient],
  );
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY }),
    [queryClient],
  );
  const user = query.data ?? null;
  // A failed fetch (server down) counts as signed out once it settles; the network dialog offers retry.
  const status: SessionStatus = query.isPending ? 'loading' : user ? 'authenticated' : 'anonymous';
  return { status, user, setUser, refresh };
}
