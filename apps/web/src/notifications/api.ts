import type { Job, Notification } from '@moments/contract';
import { NOTIFICATION_PAGE_SIZE } from '@moments/contract';
import { api } from '../api/client';
import { stompSessionHeaders } from '../realtime';

export interface NotificationPage {
  content: Notification[];
  last: boolean;
}

/**
 * Notification calls that fail are silently ignored, so every call here suppresses
 * the global dialogs; the X-Stomp-Session header spares this client its own sync echo.
 */
const quiet = () => ({ suppressErrorDialog: true, headers: stompSessionHeaders() });

export function fetchNotificationPage(
  pageNum: number,
  created?: number,
): Promise<NotificationPage> {
  return api.get<NotificationPage>('/api/notify/history', {
    ...quiet(),
    query: { page_num: pageNum, page_size: NOTIFICATION_PAGE_SIZE, created },
  });
}

export const markNotificationsViewed = (ids: string[]) =>
  api.post<string[]>('/api/notify/viewed', ids, quiet());

export const markAllNotificationsViewed = () =>
  api.post<null>('/api/notify/all-viewed', undefined, quiet());

export const deleteNotifications = (ids: string[]) =>
  api.delete<string[]>('/api/notify/delete', { ...quiet(), body: ids });

/** GET /api/job/{id} with error messages suppressed; the dialog reads moment_id. */
export const fetchJob = (jobId: string) =>
  api.get<Job>(`/api/job/${encodeURIComponent(jobId)}`, { suppressErrorDialog: true });
