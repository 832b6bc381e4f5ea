import type { Notification } from '@moments/contract';
import { useCallback, useState } from 'react';
import { useLiveBalance } from '../account/useLiveBalance';
import { useRealtimeConnection } from '../realtime';
import { useLiveTaskUpdates } from '../tasks/useTasks';
import { NotificationDialog } from './NotificationDialog';
import { NotificationToasts } from './NotificationToasts';
import { useLiveNotifications } from './useNotifications';
import { useOpenNotification } from './useOpenNotification';

const MAX_TOASTS = 3;

/**
 * Mounted once by the app frame: the realtime connection of the signed-in user, live task and
 * notification updates, the arrival toasts and the dialog of an opened notification.
 */
export function NotificationCenter() {
  useRealtimeConnection();
  useLiveTaskUpdates();
  useLiveBalance();
  const open = useOpenNotification();
  const [toasts, setToasts] = useState<Notification[]>([]);
  useLiveNotifications((notification) =>
    setToasts((shown) => [notification, ...shown].slice(0, MAX_TOASTS)),
  );
  const dismiss = useCallback(
    (id: string) => setToasts((shown) => shown.filter((toast) => toast.id !== id)),
    [],
  );
  return (
    <>
      <NotificationToasts
        toasts={toasts}
        onDismiss={dismiss}
        onOpen={(notification) => {
          dismiss(notification.id);
          void open(notification);
        }}
      />
      <NotificationDialog />
    </>
  );
}
