import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  markViewedLocally,
  notificationListOptions,
  NOTIFICATIONS_QUERY_KEY,
  rereadNotifications,
} from './useNotifications';

describe('reading the notification list again after a connect', () => {
  it('keeps a page that "Load more" is still loading, then reads every page again', async () => {
    const queryClient = new QueryClient();
    let reads = 0;
    let finishSecondPage!: () => void;
    const observer = new InfiniteQueryObserver(queryClient, {
      queryKey: NOTIFICATIONS_QUERY_KEY,
      initialPageParam: 1,
      queryFn: async ({ pageParam }: { pageParam: number }) => {
        reads += 1;
        if (pageParam === 2 && reads === 2) {
          await new Promise<void>((resolve) => (finishSecondPage = resolve));
        }
        return { page: pageParam, read: reads };
      },
      getNextPageParam: (lastPage: { page: number; read: number }) =>
        lastPage.page < 2 ? lastPage.page + 1 : undefined,
    });
    const stop = observer.subscribe(() => undefined);
    await observer.refetch();

    const loadMore = observer.fetchNextPage();
    // The realtime connection comes up while the second page is loading.
    const reread = rereadNotifications(queryClient);
    finishSecondPage();
    await Promise.all([loadMore, reread]);

    const pages = observer.getCurrentResult().data?.pages ?? [];
    expect(pages.map((page) => page.page)).toEqual([1, 2]);
    // Both pages were read again after the second one arrived.
    expect(pages.every((page) => page.read > 2)).toBe(true);
    stop();
  });
});

describe('a change made while the list is being read again', () => {
  const unread = (id: string) => ({ id, type: 'TASK_DONE', viewed: false, data: {}, created: 1 });
  /** The list's query over a stand-in server, loaded once; what it shows, and how to stop it. */
  const loadedList = async (
    queryClient: QueryClient,
    fetchPage: (page: number) => Promise<{ content: ReturnType<typeof unread>[]; last: boolean }>,
  ) => {
    const observer = new InfiniteQueryObserver(
      queryClient,
      notificationListOptions(queryClient, fetchPage as never),
    );
    const stop = observer.subscribe(() => undefined);
    await observer.refetch();
    const shown = () =>
      (observer.getCurrentResult().data?.pages.flatMap((page) => page.content) ?? []).map((n) => [
        n.id,
        n.viewed,
      ]);
    return { observer, shown, stop };
  };

  it('keeps "Mark all as read" when a load sent before it brings them back unread', async () => {
    const queryClient = new QueryClient();
    const server = { answered: Promise.resolve() };
    const fetchPage = async () => {
      // The server's answer is read when the request is sent: before the click below.
      const content = [unread('a'), unread('b')];
      await server.answered;
      return { content, last: true };
    };
    const { shown, stop } = await loadedList(queryClient, fetchPage);

    let answer!: () => void;
    server.answered = new Promise<void>((resolve) => (answer = resolve));
    const reread = rereadNotifications(queryClient);
    markViewedLocally(queryClient, 'all');
    answer();
    await reread;

    expect(shown()).toEqual([
      ['a', true],
      ['b', true],
    ]);
    stop();
  });

  it('keeps "Mark all as read" made between the pages of one reading again', async () => {
    const queryClient = new QueryClient();
    const secondPage = { asked: () => undefined as void, answered: Promise.resolve() };
    const fetchPage = async (page: number) => {
      if (page === 1) return { content: [unread('a'), unread('b')], last: false };
      secondPage.asked();
      const content = [unread('c')];
      await secondPage.answered;
      return { content, last: true };
    };
    const { observer, shown, stop } = await loadedList(queryClient, fetchPage);
    await observer.fetchNextPage();

    // Reading the list again reads page 1, then page 2; the click comes while page 2 loads.
    let answer!: () => void;
    secondPage.answered = new Promise<void>((resolve) => (answer = resolve));
    const secondPageAsked = new Promise<void>((resolve) => (secondPage.asked = resolve));
    const reread = rereadNotifications(queryClient);
    await secondPageAsked;
    markViewedLocally(queryClient, 'all');
    answer();
    await reread;

    expect(shown()).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
    stop();
  });
});
