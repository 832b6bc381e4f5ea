import { USER_INFO_QUERY_KEY } from '../account/session';
import type {
  CaptionFontFamily,
  CaptionPreview,
  CaptionTemplate,
  ClipDraft,
  ClipSettings,
  ClipFraming,
  ExportLayout,
  ExportOptions,
  Job,
  Moment,
  JobType,
  MomentView,
  Task,
  Transcript,
} from '@moments/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { jobKeys } from '../jobs/api';

/** The clip editor's calls: moment, transcript, caption preview, export. */

/** What the editor sends as `options`; every field the user can change. */
export type ClipOptions = Pick<
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
  | 'cuts'
  | 'remove_silences'
  | 'brand_kit_id'
  | 'style'
  | 'hook_title'
  | 'platform'
> & { start_ms: number; end_ms: number };

export const studioKeys = {
  moment: (id: string) => ['moments', 'view', id] as const,
  task: (id: string) => ['tasks', 'detail', id] as const,
  transcript: (taskId: string) => ['tasks', 'transcript', taskId] as const,
  templates: ['captions', 'templates'] as const,
  draft: (momentId: string) => ['moments', 'draft', momentId] as const,
  jobSettings: (jobId: string) => ['jobs', 'settings', jobId] as const,
  preview: (momentId: string, options: ClipOptions, background: string) =>
    ['captions', 'preview', momentId, options, background] as const,
  framing: (momentId: string, options: FramingOptions) =>
    ['captions', 'framing', momentId, options] as const,
};

/** The options the framing depends on: span, frame shape and size, layout (not the captions). */
export type FramingOptions = Pick<
  ClipOptions,
  'aspect' | 'quality' | 'layout' | 'start_ms' | 'end_ms'
>;

export const framingOptionsOf = ({
  aspect,
  quality,
  layout,
  start_ms,
  end_ms,
}: ClipOptions): FramingOptions => ({ aspect, quality, layout, start_ms, end_ms });

export function useClipMoment(momentId: string) {
  return useQuery({
    queryKey: studioKeys.moment(momentId),
    queryFn: () =>
      api.get<MomentView>('/api/highlight_moment', {
        query: { id: momentId },
        suppressErrorDialog: true,
      }),
    // The signed media URL expires in hours; refetching would restart the player for nothing.
    staleTime: 10 * 60_000,
  });
}

/** The moment's task: its caption display and translation language are the editor's defaults. */
export function useClipTask(taskId: string | undefined) {
  return useQuery({
    queryKey: studioKeys.task(taskId ?? ''),
    queryFn: () => api.get<Task>('/api/highlight_moment/task', { query: { id: taskId } }),
    enabled: !!taskId,
  });
}

export function useTranscript(taskId: string | undefined) {
  return useQuery({
    queryKey: studioKeys.transcript(taskId ?? ''),
    queryFn: () =>
      api.get<Transcript>('/api/highlight_moment/task/transcript', { query: { id: taskId } }),
    enabled: !!taskId,
    staleTime: Infinity,
  });
}

/** The caption font families installed on the server, with the scripts each draws. */
export function useCaptionFonts() {
  return useQuery({
    queryKey: ['captions', 'fonts'] as const,
    queryFn: () => api.get<CaptionFontFamily[]>('/api/captions/fonts'),
    staleTime: Infinity,
  });
}

export function useCaptionTemplates() {
  return useQuery({
    queryKey: studioKeys.templates,
    queryFn: () => api.get<CaptionTemplate[]>('/api/captions/templates'),
    staleTime: Infinity,
  });
}

/**
 * The ASS document the export with these options would burn in. Errors (a translation that is
 * unavailable, a bad range) are shown next to the preview, so no global dialog. The captions get
 * a box or outline from the framing plan once it is known (`background`, the plan's verdict on
 * the picture under them), so the document is asked for again when that verdict arrives.
 */
export function useCaptionPreview(
  momentId: string,
  options: ClipOptions | null,
  background = 'unknown',
) {
  return useQuery({
    queryKey: studioKeys.preview(momentId, options!, background),
    queryFn: ({ signal }) =>
      api.post<CaptionPreview>(
        '/api/captions/preview',
        { moment_id: momentId, options },
        { suppressErrorDialog: true, signal },
      ),
    enabled: options !== null,
    // Keep showing the last captions while the next ones are made.
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/**
 * The framing the export with these options would use (the server's own plan: the crop path that
 * follows the speaker, or the blurred fit). The first answer for a span takes seconds (face
 * analysis); the server keeps it, and the export then renders that very plan.
 */
export function useClipFraming(momentId: string, options: FramingOptions | null) {
  return useQuery({
    queryKey: studioKeys.framing(momentId, options!),
    queryFn: ({ signal }) =>
      api.post<ClipFraming>(
        '/api/captions/framing',
        { moment_id: momentId, options },
        { suppressErrorDialog: true, signal },
      ),
    enabled: options !== null,
    // While a new trim is analysed the last plan still frames its own span correctly; a plan
    // for another shape or layout would not, so it is dropped.
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[3];
      return before &&
        options &&
        before.aspect === options.aspect &&
        before.quality === options.quality &&
        before.layout === options.layout
        ? previous
        : undefined;
    },
    staleTime: 30 * 60_000,
  });
}

/** Keeps the framing layout chosen in the studio with the clip, so it opens framed that way. */
export function useKeepLayout(momentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (layout: ExportLayout) =>
      api.post<Moment>(
        '/api/highlight_moment/layout',
        { layout },
        { query: { id: momentId }, suppressErrorDialog: true },
      ),
    onSuccess: (moment) => {
      queryClient.setQueryData<MomentView>(studioKeys.moment(momentId), (view) =>
        view ? { ...view, layout: moment.layout } : view,
      );
    },
  });
}

// Shared with the MCP server's export tool.
export { exportTypeOf } from '@moments/contract';

/** POST /api/job; a used-up free plan answers 402, which the global handler turns into its dialog. */
export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { type: JobType; moment_id: string; options: ClipOptions }) =>
      api.post<Job>('/api/job', body, { idempotent: true }),
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.detail(job.job_id), job);
      void queryClient.invalidateQueries({ queryKey: jobKeys.lists });
      // The export used one of the plan's exports: the editor shows what is left.
      void queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
    },
  });
}

/**
 * The clip's settings as the user last left them (saved by the editor as it edits), or null.
 * Always read afresh: another tab or device may have changed them since.
 */
export function useClipDraft(momentId: string) {
  return useQuery({
    queryKey: studioKeys.draft(momentId),
    queryFn: () =>
      api.get<ClipDraft | null>('/api/highlight_moment/draft', { query: { id: momentId } }),
    staleTime: 0,
    gcTime: 0,
  });
}

/** What an export was made with ("Edit again" opens exactly these); disabled without a job. */
export function useExportSettings(jobId: string | null) {
  return useQuery({
    queryKey: studioKeys.jobSettings(jobId ?? ''),
    queryFn: () =>
      api.get<ClipSettings | null>(`/api/job/${encodeURIComponent(jobId!)}/settings`, {
        suppressErrorDialog: true,
      }),
    enabled: !!jobId,
    staleTime: Infinity,
    // A deleted export is not found: the editor opens the clip's draft instead, at once.
    retry: false,
  });
}

/**
 * Saves the clip's settings as its draft. No global dialog: the editor says itself whether its
 * changes are saved. `keepalive` lets the request outlive the page (sent as it unloads).
 */
export function saveClipDraft(
  momentId: string,
  settings: ClipSettings,
  options: { keepalive?: boolean } = {},
) {
  return api.put<ClipDraft>(
    '/api/highlight_moment/draft',
    { settings },
    { query: { id: momentId }, suppressErrorDialog: true, keepalive: options.keepalive },
  );
}
