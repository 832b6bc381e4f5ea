import type {
  CaptionPreview,
  ClipFraming,
  ExportOptions,
  Job,
  SubtitleFormat,
  SubtitleLanguage,
  TranslationSupport,
} from '@moments/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { jobKeys } from '../jobs/api';

/** The caption result page's calls: the whole video of a task, captioned. */

/** What the page sends as `options`; the span is always the whole video. */
export type TaskCaptionOptions = Pick<
  ExportOptions,
  | 'aspect'
  | 'quality'
  | 'template'
  | 'layout'
  | 'caption_display'
  | 'target_lang'
  | 'transcript_text'
  | 'caption_position'
  | 'caption_size'
  | 'remove_fillers'
  | 'style'
  | 'hook_title'
  | 'platform'
>;

const captionKeys = {
  media: (taskId: string) => ['captions', 'media', taskId] as const,
  languages: ['captions', 'languages'] as const,
  preview: (taskId: string, options: TaskCaptionOptions) =>
    ['captions', 'task-preview', taskId, options] as const,
  framing: (taskId: string, options: Pick<TaskCaptionOptions, 'aspect' | 'quality' | 'layout'>) =>
    ['captions', 'task-framing', taskId, options] as const,
};

export function useTaskMedia(taskId: string) {
  return useQuery({
    queryKey: captionKeys.media(taskId),
    queryFn: () =>
      api.get<{ url: string | null }>('/api/captions/media', {
        query: { task_id: taskId },
        suppressErrorDialog: true,
      }),
    // The signed address lasts hours; refetching would restart the player for nothing.
    staleTime: 60 * 60_000,
  });
}

/** Which target languages this install can translate into, and why not where it cannot. */
export function useTranslationSupport() {
  return useQuery({
    queryKey: captionKeys.languages,
    queryFn: () => api.get<TranslationSupport>('/api/captions/languages'),
    staleTime: Infinity,
  });
}

/** The whole video's ASS document, exactly what the export burns in. */
export function useTaskCaptionPreview(taskId: string, options: TaskCaptionOptions) {
  return useQuery({
    queryKey: captionKeys.preview(taskId, options),
    queryFn: ({ signal }) =>
      api.post<CaptionPreview>(
        '/api/captions/preview',
        { task_id: taskId, options },
        { suppressErrorDialog: true, signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** The export's framing plan for the whole video in a social shape (none for `original`). */
export function useTaskFraming(
  taskId: string,
  options: Pick<TaskCaptionOptions, 'aspect' | 'quality' | 'layout'>,
) {
  return useQuery({
    queryKey: captionKeys.framing(taskId, options),
    queryFn: ({ signal }) =>
      api.post<ClipFraming>(
        '/api/captions/framing',
        { task_id: taskId, options },
        { suppressErrorDialog: true, signal },
      ),
    enabled: options.aspect !== 'original' && options.layout === 'auto',
    staleTime: 30 * 60_000,
  });
}

export function useStartCaptionExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { task_id: string; options: TaskCaptionOptions }) =>
      api.post<Job>('/api/job', { type: 'ANIMATED_CAPTION_EXPORT', ...body }, { idempotent: true }),
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.detail(job.job_id), job);
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists });
    },
  });
}

/** Address of a subtitle file download (the session cookie authenticates a plain link). */
export function subtitleUrl(
  taskId: string,
  format: SubtitleFormat,
  lang: SubtitleLanguage,
  options: Pick<TaskCaptionOptions, 'target_lang' | 'transcript_text' | 'remove_fillers'>,
): string {
  const query = new URLSearchParams({ task_id: taskId, format, lang });
  if (options.target_lang) query.set('target_lang', options.target_lang);
  if (options.transcript_text) query.set('transcript_text', options.transcript_text);
  if (options.remove_fillers) query.set('remove_fillers', 'true');
  return `/api/captions/subtitles?${query.toString()}`;
}
