import type { Notification } from '@moments/contract';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSession } from '../account/session';
import { useRealtimeMessages, useRealtimeReconnect, type RealtimeMessage } from '../realtime';
import {
  deleteNotifications,
  fetchNotificationPage,
  markAllNotificationsViewed,
  markNotificationsViewed,
  type NotificationPage,
} from './api';

export const NOTIFICATIONS_QUERY_KEY = ['notifications'] as const;

/** A page plus the moment it was asked for: the first page's time is the cutoff of the rest. */
interface LoadedPage extends NotificationPage {
  requestedAt: number;
}
interface PageParam {
  page: number;
  created?: number;
}
type NotificationData = InfiniteData<LoadedPage, PageParam>;

/** A change the user made here (viewed, deleted), and when. */
interface LocalChange {
  at: number;
  change: (list: Notification[]) => Notification[];
}
/** How long a change is kept for the loads that were already running when it was made. */
const LOCAL_CHANGE_KEPT_MS = 5 * 60_000;
const localChanges = new WeakMap<QueryClient, LocalChange[]>();

/**
 * The list's query. A page asked for before a change the user made here (a click on "Mark all as
 * read" while the list was being read again after a reconnect) comes back without it: the change
 * is applied to what that load brings, or the list would show them unread again. It is applied
 * when the list is shown, not when the page arrives: reading the list again reads page after page
 * and shows them together, so a page that arrived before the click is shown after it.
 */
export function notificationListOptions(
  queryClient: QueryClient,
  fetchPage: typeof fetchNotificationPage = fetchNotificationPage,
) {
  return infiniteQueryOptions({
    queryKey: NOTIFICATIONS_QUERY_KEY,
    initialPageParam: { page: 1 } as PageParam,
    queryFn: async ({ pageParam }): Promise<LoadedPage> => {
      const requestedAt = Date.now();
      return { ...(await fetchPage(pageParam.page, pageParam.created)), requestedAt };
    },
    select: (data) => withLocalChanges(data, localChanges.get(queryClient) ?? []),
    getNextPageParam: (lastPage, pages, lastParam) =>
      lastPage.last
        ? undefined
        : { page: lastParam.page + 1, created: lastParam.created ?? pages[0]!.requestedAt },
    staleTime: Infinity,
  });
}

/** Each page with the changes made here since it was asked for (they are idempotent). */
function withLocalChanges(
  data: NotificationData,
  changes: readonly LocalChange[],
): NotificationData {
  if (changes.length === 0) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      content: changes
        .filter((local) => local.at >= page.requestedAt)
        .reduce((list, local) => local.change(list), page.content),
    })),
  };
}

/**
 * The notification list: pages of 20; loading more asks for the next page with
 * the first request's time as `created`, so notifications that arrive meanwhile (they are pushed
 * and prepended) do not shift the pages. Shared by the bell and /notification.
 */
export function useNotificationList() {
  const { status } = useSession();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    ...notificationListOptions(queryClient),
    enabled: status === 'authenticated',
  });
  // Pushed notifications may also come back in a later page: each id is shown once.
  const seen = new Set<string>();
  const notifications: Notification[] = [];
  for (const page of query.data?.pages ?? []) {
    for (const notification of page.content) {
      if (seen.has(notification.id)) continue;
      seen.add(notification.id);
      notifications.push(notification);
    }
  }
  const unreadCount = notifications.filter((notification) => !notification.viewed).length;
  return {
    notifications,
    unreadCount,
    /** Whether the first page has loaded. */
    loaded: query.isSuccess,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
    isError: query.isError,
  };
}

function patchNotifications(
  queryClient: QueryClient,
  change: (list: Notification[]) => Notification[],
) {
  const now = Date.now();
  const kept = (localChanges.get(queryClient) ?? []).filter(
    (local) => now - local.at < LOCAL_CHANGE_KEPT_MS,
  );
  localChanges.set(queryClient, [...kept, { at: now, change }]);
  queryClient.setQueryData<NotificationData>(NOTIFICATIONS_QUERY_KEY, (data) =>
    data
      ? { ...data, pages: data.pages.map((page) => ({ ...page, content: change(page.content) })) }
      : data,
  );
}

export const markViewedLocally = (queryClient: QueryClient, ids: ReadonlySet<string> | 'all') =>
  patchNotifications(queryClient, (list) =>
    list.map((n) => (ids === 'all' || ids.has(n.id) ? { ...n, viewed: true } : n)),
  );

const removeLocally = (queryClient: QueryClient, ids: ReadonlySet<string>) =>
  patchNotifications(queryClient, (list) => list.filter((n) => !ids.has(n.id)));

/** A pushed message that is a stored notification, in the shape the history call returns. */
export function notificationFromMessage(
  message: RealtimeMessage,
  nowMs = Date.now(),
): Notification | null {
  if (message.type.startsWith('SYNC_') || !('id' in message) || !message.id) return null;
  return {
    id: message.id,
    type: message.type,
    viewed: false,
    data: message.data as unknown as Record<string, unknown>,
    created: nowMs,
  };
}

/**
 * Mount once (the app frame): new notifications are prepended, SYNC_NOTIFY_VIEW and
 * SYNC_NOTIFY_DELETE from the user's other clients update the list and the badge.
 * Returns the notifications that just arrived, for the toast.
 */
export function useLiveNotifications(onArrival: (notification: Notification) => void): void {
  const queryClient = useQueryClient();
  useRealtimeMessages((message) => {
    if (message.type === 'SYNC_NOTIFY_VIEW') {
      markViewedLocally(queryClient, new Set(message.data.ids));
      return;
    }
    if (message.type === 'SYNC_NOTIFY_DELETE') {
      removeLocally(queryClient, new Set(message.data.ids));
      return;
    }
    const notification = notificationFromMessage(message);
    if (!notification) return;
    const data = queryClient.getQueryData<NotificationData>(NOTIFICATIONS_QUERY_KEY);
    if (data) {
      const known = data.pages.some((page) => page.content.some((n) => n.id === notification.id));
      if (!known) {
        const [first, ...rest] = data.pages;
        queryClient.setQueryData<NotificationData>(NOTIFICATIONS_QUERY_KEY, {
          ...data,
          pages: [{ ...first!, content: [notification, ...first!.content] }, ...rest],
        });
      }
    }
    onArrival(notification);
  });
  useRealtimeReconnect(() => void rereadNotifications(queryClient));
}

/**
 * Whatever arrived while the connection was down (or before its first connect) is read again.
 * A page still loading ("Load more" clicked as the connection came up) finishes first: a refetch
 * would cancel it, and the list would fall back to the pages it had, one click lost.
 */
export async function rereadNotifications(queryClient: QueryClient): Promise<void> {
  const filters = { queryKey: NOTIFICATIONS_QUERY_KEY };
  const loading = queryClient.isFetching(filters) > 0;
  // Joins the running load when there is one, else reads the loaded pages again.
  await queryClient.refetchQueries(filters, { cancelRefetch: false });
  if (loading) await queryClient.refetchQueries(filters, { cancelRefetch: false });
}

/** Viewing, marking all and deleting: the list changes at once, failures are ignored. */
export function useNotificationActions() {
  const queryClient = useQueryClient();
  const markViewed = useCallback(
    async (ids: string[]) => {
      markViewedLocally(queryClient, new Set(ids));
      // Best effort: shown as viewed here; the next load shows what the server kept.
      await markNotificationsViewed(ids).catch(() => undefined);
    },
    [queryClient],
  );
  const markAllViewed = useCallback(async () => {
    markViewedLocally(queryClient, 'all');
    // Best effort: shown as viewed here; the next load shows what the server kept.
    await markAllNotificationsViewed().catch(() => undefined);
  }, [queryClient]);
  const remove = useCallback(
    async (ids: string[]) => {
      removeLocally(queryClient, new Set(ids));
      // Best effort: removed here; the next load shows what the server kept.
      await deleteNotifications(ids).catch(() => undefined);
    },
    [queryClient],
  );
  return { markViewed, markAllViewed, remove };
}
