import { useEffect, useRef, useSyncExternalStore } from 'react';
import { fetchRealtimeTicket } from '../api/account';
import { useSession } from '../account/session';
import { realtimeChannel, type RealtimeListener, type RealtimeStatus } from './channel';

/** Connection state, session id and last protocol error, re-rendering on change. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(realtimeChannel.onStatusChange, realtimeChannel.getStatus);
}

/** Calls `listener` for every pushed message while the component is mounted. */
export function useRealtimeMessages(listener: RealtimeListener): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => realtimeChannel.subscribe((message) => latest.current(message)), []);
}

/**
 * Calls `listener` after every connect: pushes sent before it (while connecting, or during a
 * drop) were missed, so views re-read their data then.
 */
export function useRealtimeReconnect(listener: () => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => realtimeChannel.onConnect(() => latest.current()), []);
}

/**
 * The connection exists only while logged in. Mount once, high in the tree; logging out
 * (the session turning anonymous) deactivates it.
 */
export function useRealtimeConnection(): void {
  const { status, user } = useSession();
  const userId = user?.id ?? null;
  useEffect(() => {
    if (status === 'loading') return;
    if (!userId) {
      void realtimeChannel.stop();
      return;
    }
    // Every (re)connect asks for a fresh single-use ticket.
    realtimeChannel.start(userId, fetchRealtimeTicket);
  }, [status, userId]);
  useEffect(() => () => void realtimeChannel.stop(), []);
}
