import { SEARCH_PAGE_SIZE, type MomentView, type SearchVideosReply } from '@moments/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { useSession } from '../account/session';

const searchKeys = {
  /** Per user: what a search finds depends on who asks (own videos). */
  results: (query: string, userId: string | null) =>
    ['search', query, userId ?? 'anonymous'] as const,
  shared: ['moments', 'shared', 'video_snippet'] as const,
};

/** searchVideos, 24 per page; the next page is asked for with the reply's search_id. */
export function useSearchResults(query: string) {
  const { status, user } = useSession();
  return useInfiniteQuery({
    queryKey: searchKeys.results(query, user?.id ?? null),
    queryFn: ({ pageParam, signal }) =>
      api.post<SearchVideosReply>(
        '/api/p/v1/searchVideos',
        { query, num: SEARCH_PAGE_SIZE, ...(pageParam ? { search_id: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.has_more ? last.search_id : undefined),
    // Wait for the session, so a signed-in user's first page includes their own videos.
    enabled: query.length > 0 && status !== 'loading',
  });
}

/** The home page's shared moments, best first (GET /highlight_moment/list/default). */
export function useSharedMoments() {
  return useQuery({
    queryKey: searchKeys.shared,
    queryFn: () =>
      api.get<MomentView[]>('/highlight_moment/list/default', {
        query: { type: 'video_snippet' },
        suppressErrorDialog: true,
      }),
    staleTime: 60_000,
  });
}
