import type { Task } from '@moments/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useRealtimeMessages, useRealtimeReconnect, type TaskStatusData } from '../realtime';
import { deleteTask, getTask, listTasks, retryTask, startTask, type TaskStartOptions } from './api';
import type { VideoMeta } from '@moments/contract';
import { forgetTaskPartial, recordTaskPartial } from './partials';

const TASKS_QUERY_KEY = ['tasks'] as const;
const taskKey = (id: string) => ['tasks', 'one', id] as const;
const LIST_KEY = ['tasks', 'list'] as const;

/**
 * Task state lives in the TanStack Query cache and is kept current by pushed TASK_STATUS_UPDATE
 * messages (task updates arrive as notifications), never by polling.
 */
export function useTasks() {
  return useQuery({ queryKey: LIST_KEY, queryFn: listTasks, staleTime: Infinity });
}

export function useTask(id: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: taskKey(id ?? ''),
    queryFn: () => getTask(id!),
    enabled: Boolean(id),
    staleTime: Infinity,
    // A task already in the list needs no extra request.
    initialData: () => queryClient.getQueryData<Task[]>(LIST_KEY)?.find((task) => task.id === id),
  });
}

/** Merges a pushed status into a cached task. */
export function applyTaskStatus(task: Task, update: TaskStatusData): Task {
  const status = update.task_status;
  return {
    ...task,
    status,
    stage: update.stage ?? task.stage,
    progress: typeof update.progress === 'number' ? update.progress : task.progress,
    error_reason: status === 'ERROR' ? (update.error_reason ?? task.error_reason) : null,
    done: status === 'DONE',
    error: status === 'ERROR',
    completed: status === 'DONE' || status === 'ERROR',
  };
}

function putTask(queryClient: QueryClient, task: Task) {
  queryClient.setQueryData<Task>(taskKey(task.id), task);
  queryClient.setQueryData<Task[]>(LIST_KEY, (tasks) => {
    if (!tasks) return tasks;
    return tasks.some((t) => t.id === task.id)
      ? tasks.map((t) => (t.id === task.id ? task : t))
      : [task, ...tasks];
  });
}

/**
 * Mount once (the app frame): routes pushed task updates into the cache. A finished task is read
 * again for the fields a push does not carry (warnings, detected language); after a reconnect
 * everything is re-read once, since pushes may have been missed.
 */
export function useLiveTaskUpdates(): void {
  const queryClient = useQueryClient();
  useRealtimeMessages((message) => {
    if (message.type !== 'TASK_STATUS_UPDATE') return;
    const update = message.data;
    const cached =
      queryClient.getQueryData<Task>(taskKey(update.task_id)) ??
      queryClient.getQueryData<Task[]>(LIST_KEY)?.find((task) => task.id === update.task_id);
    if (cached) putTask(queryClient, applyTaskStatus(cached, update));
    if (update.partial) recordTaskPartial(update.task_id, update.partial);
    const finished = update.task_status === 'DONE' || update.task_status === 'ERROR';
    if (finished) forgetTaskPartial(update.task_id);
    if (update.followed_up) {
      // The moments' pictures and the search's embeddings came after DONE: read them again.
      void queryClient.invalidateQueries({ queryKey: ['moments', 'task', update.task_id] });
      void queryClient.invalidateQueries({ queryKey: ['search'] });
      return;
    }
    if (!cached || finished) {
      // Unknown here (started in another tab) or finished: fetch the full task once.
      void getTask(update.task_id)
        .then((task) => putTask(queryClient, task))
        .catch(() => undefined);
    }
  });
  useRealtimeReconnect(() => {
    void queryClient.invalidateQueries({ queryKey: TASKS_QUERY_KEY });
  });
}

export function useStartTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ video, options }: { video: VideoMeta; options: TaskStartOptions }) =>
      startTask(video, options),
    onSuccess: (task) => putTask(queryClient, task),
  });
}

export function useRetryTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryTask,
    onSuccess: (task) => putTask(queryClient, task),
  });
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  const forget = useCallback(
    (id: string) => {
      queryClient.removeQueries({ queryKey: taskKey(id) });
      queryClient.setQueryData<Task[]>(LIST_KEY, (tasks) => tasks?.filter((t) => t.id !== id));
    },
    [queryClient],
  );
  return useMutation({ mutationFn: deleteTask, onSuccess: (_null, id) => forget(id) });
}
