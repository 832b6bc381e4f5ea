import type { CaptionDisplay, ClipLength, Task, UrlSource, VideoMeta } from '@moments/contract';
import { api } from '../api/client';

/** What the start form decides (the task start parameters). */
export interface TaskStartOptions {
  mode: 'viral' | 'search' | 'caption';
  urlSource: UrlSource;
  sourceLang: string;
  targetLang?: string;
  captionDisplay: CaptionDisplay;
  actAs?: string;
  query?: string;
  rootTaskId?: string;
  /** Preferred clip length of viral moments. */
  clipLength?: ClipLength;
}

/**
 * Moment tasks start at /highlight_moment/task/start, caption tasks at
 * /tool-task/v2/caption/start (no act_as, no query). The body is the video meta.
 */
export function startTask(video: VideoMeta, options: TaskStartOptions): Promise<Task> {
  const common = {
    url_source: options.urlSource,
    source_lang: options.sourceLang,
    target_lang: options.targetLang || undefined,
    caption_display: options.captionDisplay,
  };
  // Link and media errors have no catalogue dialog: the start form shows them itself;
  // balance and usage-limit codes still open their global dialogs.
  if (options.mode === 'caption') {
    return api.post<Task>('/api/tool-task/v2/caption/start', video, {
      query: common,
      idempotent: true,
    });
  }
  return api.post<Task>('/api/highlight_moment/task/start', video, {
    query: {
      ...common,
      act_as: options.actAs?.trim() || undefined,
      query: options.mode === 'search' ? options.query?.trim() || undefined : undefined,
      root_task_id: options.rootTaskId,
      clip_length: options.mode === 'viral' ? options.clipLength : undefined,
    },
    idempotent: true,
  });
}

export const listTasks = () =>
  api.get<Task[]>('/api/highlight_moment/task/list', { query: { page_size: 100 } });
export const getTask = (id: string) =>
  api.get<Task>('/api/highlight_moment/task', { query: { id } });
export const retryTask = (id: string) =>
  api.post<Task>('/api/highlight_moment/task/retry', undefined, {
    query: { id },
    idempotent: true,
  });
export const deleteTask = (id: string) =>
  api.delete<null>('/api/highlight_moment/task', { query: { id } });
