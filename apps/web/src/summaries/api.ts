import type { Note, SharedPage, SummaryView } from '@moments/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';

const summaryKey = (taskId: string) => ['summary', taskId] as const;

export function useSummary(taskId: string) {
  return useQuery({
    queryKey: summaryKey(taskId),
    queryFn: () => api.get<SummaryView>('/api/summary', { query: { task_id: taskId } }),
    retry: false,
  });
}

export function useSummaryActions(taskId: string) {
  const queryClient = useQueryClient();
  const store = (view: SummaryView) => queryClient.setQueryData(summaryKey(taskId), view);
  const refresh = useMutation({
    mutationFn: () =>
      api.post<SummaryView>('/api/summary/refresh', undefined, {
        query: { task_id: taskId },
        idempotent: true,
      }),
    onSuccess: store,
  });
  const share = useMutation({
    mutationFn: () =>
      api.post<{ share_id: string; path: string }>('/api/summary/share', undefined, {
        query: { task_id: taskId },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: summaryKey(taskId) }),
  });
  const unshare = useMutation({
    mutationFn: () => api.delete<null>('/api/summary/share', { query: { task_id: taskId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: summaryKey(taskId) }),
  });
  return { refresh, share, unshare };
}

const notesKey = ['notes'] as const;

export function useNotes(query: string) {
  return useQuery({
    queryKey: [...notesKey, 'list', query],
    queryFn: () => api.get<Note[]>('/api/note/list', { query: { q: query || undefined } }),
  });
}

export function useNote(id: string) {
  return useQuery({
    queryKey: [...notesKey, 'one', id],
    queryFn: () => api.get<Note>('/api/note', { query: { id } }),
    retry: false,
  });
}

export function useCreateNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { from: 'blank' | 'summary' | 'moment'; id?: string }) =>
      api.post<Note>('/api/note', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey }),
  });
}

export function useNoteActions(id: string) {
  const queryClient = useQueryClient();
  const store = (note: Note) => queryClient.setQueryData([...notesKey, 'one', id], note);
  const save = useMutation({
    mutationFn: (patch: { title?: string; content_html?: string }) =>
      api.put<Note>('/api/note', patch, { query: { id } }),
    onSuccess: store,
  });
  const remove = useMutation({
    mutationFn: () => api.delete<null>('/api/note', { query: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notesKey }),
  });
  const share = useMutation({
    mutationFn: () =>
      api.post<{ share_id: string; path: string }>('/api/note/share', undefined, {
        query: { id },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...notesKey, 'one', id] }),
  });
  const unshare = useMutation({
    mutationFn: () => api.delete<null>('/api/note/share', { query: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...notesKey, 'one', id] }),
  });
  return { save, remove, share, unshare };
}

/** A public /s/ page: a summary, a note (`?note=1`) or an exported clip (`?clip=1`). */
export function useSharedPage(shareId: string, kind: 'summary' | 'note' | 'clip') {
  return useQuery({
    queryKey: ['shared', shareId, kind],
    queryFn: () =>
      api.get<SharedPage>(`/api/share/${encodeURIComponent(shareId)}`, {
        query: {
          note: kind === 'note' ? '1' : undefined,
          clip: kind === 'clip' ? '1' : undefined,
        },
      }),
    retry: false,
  });
}
