import type { Moment, MomentView, QuestionQuote, Task } from '@moments/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../api/client';
import { t } from '../messages/catalogue';

/** The moment calls as TanStack Query hooks; the one place the moments UI talks to the API. */

const momentKeys = {
  all: ['moments'] as const,
  ofTask: (taskId: string) => ['moments', 'task', taskId] as const,
  view: (id: string) => ['moments', 'view', id] as const,
  mine: (list: MyMomentsList) => ['moments', 'mine', list] as const,
  history: (rootTaskId: string) => ['tasks', 'history', rootTaskId] as const,
  questionQuote: (rootTaskId: string) => ['tasks', 'question-quote', rootTaskId] as const,
};

export type MyMomentsList = 'all' | 'favorites' | 'clipped';

export type ThumbDownReason =
  'Bad start or end' | 'Not interesting' | 'Wrong topic' | 'Transcript errors' | 'Other';

/** The reasons as the server stores them; what a person reads is `THUMB_DOWN_REASON_LABELS`. */
export const THUMB_DOWN_REASONS: ThumbDownReason[] = [
  'Bad start or end',
  'Not interesting',
  'Wrong topic',
  'Transcript errors',
  'Other',
];

export const THUMB_DOWN_REASON_LABELS: Record<ThumbDownReason, string> = {
  'Bad start or end': t('moments.thumbDown.reason.badSpan'),
  'Not interesting': t('moments.thumbDown.reason.notInteresting'),
  'Wrong topic': t('moments.thumbDown.reason.wrongTopic'),
  'Transcript errors': t('moments.thumbDown.reason.transcriptErrors'),
  Other: t('moments.thumbDown.reason.other'),
};

export type FeedbackInput =
  | { action: 'THUMB_UP' }
  | { action: 'THUMB_DOWN'; reason: ThumbDownReason; content: string }
  | { action: null };

/** A task's moments, best first. */
export function useTaskMoments(taskId: string, enabled: boolean) {
  return useQuery({
    queryKey: momentKeys.ofTask(taskId),
    queryFn: () => api.get<Moment[]>('/api/highlight_moment/list', { query: { task_id: taskId } }),
    enabled,
  });
}

/** The root task and its query tasks (the query history). */
export function useQueryHistory(rootTaskId: string | null) {
  return useQuery({
    queryKey: momentKeys.history(rootTaskId ?? ''),
    queryFn: () =>
      api.get<Task[]>('/api/highlight_moment/task/query_history', {
        query: { root_task_id: rootTaskId },
      }),
    enabled: !!rootTaskId,
  });
}

/** What Ask charges: the server knows whether the video's transcript is reused. */
export function useQuestionQuote(rootTaskId: string) {
  return useQuery({
    queryKey: momentKeys.questionQuote(rootTaskId),
    queryFn: () =>
      api.get<QuestionQuote>('/api/highlight_moment/task/question_quote', {
        query: { root_task_id: rootTaskId },
      }),
  });
}

/**
 * One moment with its video and signed media URL. A moment that is not shared answers 404 to
 * anyone but its owner; the page shows its own message for that, so no global dialog.
 */
export function useMomentView(momentId: string | null) {
  return useQuery({
    queryKey: momentKeys.view(momentId ?? ''),
    queryFn: () =>
      api.get<MomentView>('/api/highlight_moment', {
        query: { id: momentId },
        suppressErrorDialog: true,
      }),
    enabled: !!momentId,
    // The signed media URL expires; refetching often would restart the player for nothing.
    staleTime: 10 * 60_000,
  });
}

export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

const MY_MOMENTS_PATHS: Record<MyMomentsList, string> = {
  all: '/api/highlight_moment/list',
  favorites: '/api/highlight_moment/favorite/list',
  clipped: '/api/highlight_moment/clipped/list',
};

export function useMyMoments(list: MyMomentsList) {
  return useQuery({
    queryKey: momentKeys.mine(list),
    queryFn: () => api.get<Moment[]>(MY_MOMENTS_PATHS[list]),
  });
}

/** Puts the server's updated moment everywhere it is cached, so every list and view agrees. */
function useStoreMoment() {
  const queryClient = useQueryClient();
  return (updated: Moment) => {
    queryClient.setQueryData<Moment[]>(momentKeys.ofTask(updated.task_id), (list) =>
      list?.map((moment) => (moment.id === updated.id ? { ...moment, ...updated } : moment)),
    );
    queryClient.setQueryData<MomentView>(momentKeys.view(updated.id), (view) =>
      view ? { ...view, ...updated } : view,
    );
    void queryClient.invalidateQueries({ queryKey: ['moments', 'mine'] });
  };
}

export function useMomentActions(moment: Pick<Moment, 'id'>) {
  const store = useStoreMoment();
  const id = moment.id;

  const feedback = useMutation({
    mutationFn: (input: FeedbackInput) =>
      input.action === null
        ? api.delete<Moment>(`/api/highlight_moment/feedback/${encodeURIComponent(id)}`)
        : api.post<Moment>(`/api/highlight_moment/feedback/${encodeURIComponent(id)}`, input),
    onSuccess: store,
  });
  const favorite = useMutation({
    mutationFn: (on: boolean) =>
      api.post<Moment>(
        on ? '/api/highlight_moment/favorite' : '/api/highlight_moment/unfavorite',
        undefined,
        { query: { id } },
      ),
    onSuccess: store,
  });
  const share = useMutation({
    mutationFn: (options: { publish: boolean } = { publish: false }) =>
      api.post<{ share_id: string; path: string; published?: boolean }>(
        '/api/highlight_moment/share',
        { publish: options.publish },
        { query: { id } },
      ),
  });
  const unshare = useMutation({
    mutationFn: () => api.delete<null>('/api/highlight_moment/share', { query: { id } }),
  });
  const refresh = useMutation({
    mutationFn: () =>
      api.put<Moment>('/api/highlight_moment/refresh', undefined, { query: { id } }),
    onSuccess: store,
  });
  return { feedback, favorite, share, unshare, refresh };
}

/** Removes a moment from the clipped list (the library's Clipped tab). */
export function useUnclip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post<null>('/api/highlight_moment/clipped/delete', undefined, { query: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: momentKeys.mine('clipped') }),
  });
}

/** A follow-up query on the same video, chained to the root task (reuses its transcript). */
export function useAskQuestion(task: Task | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (query: string) => {
      if (!task) throw new Error(t('moments.taskNotLoaded'));
      return api.post<Task>('/api/highlight_moment/task/start', task.video, {
        query: {
          url_source: task.url_source,
          source_lang: task.source_lang,
          query,
          root_task_id: task.root_task_id ?? task.id,
        },
        idempotent: true,
      });
    },
    onSuccess: (started) => {
      void queryClient.invalidateQueries({
        queryKey: momentKeys.history(started.root_task_id ?? started.id),
      });
    },
  });
}

/** The user's recent tasks by id, to show which video each moment comes from. */
export function useTaskIndex() {
  return useQuery({
    queryKey: ['tasks', 'index'],
    queryFn: async () => {
      const tasks = await api.get<Task[]>('/api/highlight_moment/task/list', {
        query: { page_num: 1, page_size: 100 },
      });
      return new Map(tasks.map((task) => [task.id, task]));
    },
    staleTime: 60_000,
  });
}
