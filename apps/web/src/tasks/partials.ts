import { useSyncExternalStore } from 'react';
import type { TaskPartial as TaskPartialData } from '@moments/contract';
import { api } from '../api/client';

/** What the task page shows while a long video is still being transcribed. */
export interface TaskPartial {
  transcribedMs: number;
  chunksDone: number;
  chunkCount: number;
  /** The transcript heard so far (loaded when the page opened, then grown by pushes), in order. */
  lines: { startMs: number; endMs: number; text: string }[];
  /** The provisional moments of everything heard so far; the final ranking replaces them. */
  moments: { startMs: number; endMs: number; title: string; score: number }[];
}

const partials = new Map<string, TaskPartial>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/**
 * Adds a growth of the task's transcript: pushed (useLiveTaskUpdates) or loaded by a page opened
 * late (`loadTaskPartial`). Either may arrive first: the lines are merged, the counts and the
 * provisional moments come from whichever has heard more.
 */
export function recordTaskPartial(taskId: string, pushed: TaskPartialData): void {
  const before = partials.get(taskId);
  const known = new Set(before?.lines.map((line) => line.startMs));
  const added = pushed.added
    .filter((segment) => !known.has(segment.start_ms))
    .map((segment) => ({ startMs: segment.start_ms, endMs: segment.end_ms, text: segment.text }));
  const lines = [...(before?.lines ?? []), ...added].sort((a, b) => a.startMs - b.startMs);
  if (before && before.chunksDone > pushed.chunks_done) {
    partials.set(taskId, { ...before, lines });
  } else {
    partials.set(taskId, {
      transcribedMs: Math.max(before?.transcribedMs ?? 0, pushed.transcribed_ms),
      chunksDone: pushed.chunks_done,
      chunkCount: pushed.chunk_count,
      lines,
      moments: pushed.moments.map((moment) => ({
        startMs: moment.start_ms,
        endMs: moment.end_ms,
        title: moment.title,
        score: moment.score,
      })),
    });
  }
  notify();
}

/** A page opened while the task transcribes: everything heard before it opened. */
export async function loadTaskPartial(taskId: string): Promise<void> {
  const soFar = await api.get<TaskPartialData | null>('/api/highlight_moment/task/partial', {
    query: { id: taskId },
    // A preview: the page still shows the progress and the pushes without it.
    suppressErrorDialog: true,
  });
  if (soFar) recordTaskPartial(taskId, soFar);
}

/** The task finished: its final moments replace the provisional ones. */
export function forgetTaskPartial(taskId: string): void {
  if (partials.delete(taskId)) notify();
}

/** What the page shows of the task now. */
export const taskPartial = (taskId: string): TaskPartial | undefined => partials.get(taskId);

export function useTaskPartial(taskId: string): TaskPartial | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => taskPartial(taskId),
  );
}
