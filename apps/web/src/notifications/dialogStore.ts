import type { Notification } from '@moments/contract';
import { useSyncExternalStore } from 'react';

/** The notification whose dialog is open, shared by the bell, the page and the toasts. */
let current: Notification | null = null;
const listeners = new Set<() => void>();

export function showNotificationDialog(notification: Notification | null): void {
  current = notification;
  for (const listener of [...listeners]) listener();
}

export function useNotificationDialog(): Notification | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
