import type { Notification } from '@moments/contract';
import { useCallback } from 'react';
import { showNotificationDialog } from './dialogStore';
import { describeNotification } from './describe';
import { useNotificationActions } from './useNotifications';

/**
 * Opening a notification marks it viewed before any dialog shows. The call's outcome is
 * not waited on beyond its reply, and a failure is ignored.
 */
export function useOpenNotification() {
  const { markViewed } = useNotificationActions();
  return useCallback(
    async (notification: Notification) => {
      if (!notification.viewed) await markViewed([notification.id]);
      if (describeNotification(notification).target !== 'none')
        showNotificationDialog(notification);
    },
    [markViewed],
  );
}
