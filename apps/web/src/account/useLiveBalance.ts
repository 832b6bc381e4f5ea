import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useRealtimeMessages } from '../realtime';
import { USER_INFO_QUERY_KEY } from './session';

/** The queries that show a balance: the user's entitlements, the credit history. */
const BALANCE_QUERY_KEYS = [USER_INFO_QUERY_KEY, ['credit-history']] as const;
/**
 * A balance change is pushed as its ledger step ends; the work that made it (a task start) may
 * commit a moment later, so the balances are read again after this pause (and once per burst).
 */
const BALANCE_REREAD_DELAY_MS = 300;

/**
 * Every balance on screen follows the ledger: a charge, refund, grant or expiry made by this
 * tab, another tab or the server pushes CREDITS_CHANGED, and the balances are read again.
 */
export function useLiveBalance(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useRealtimeMessages((message) => {
    if (message.type !== 'CREDITS_CHANGED') return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      for (const queryKey of BALANCE_QUERY_KEYS) void queryClient.invalidateQueries({ queryKey });
    }, BALANCE_REREAD_DELAY_MS);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
}
