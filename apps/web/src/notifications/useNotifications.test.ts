import { InfiniteQueryObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { NOTIFICATIONS_QUERY_KEY, rereadNotifications } from './useNotifications';

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
