import {
  ClipSettings,
  thumbnailPath,
  type Job,
  type JobStatus,
  type JobType,
} from '@moments/contract';
import type { JobOptions } from './export-renderer.js';
import type { ExportRow } from './exports.repository.js';

/** The stored MP4 of a job, and the ASS document burnt into it (kept for support and re-checks). */
export const jobFileKey = (userId: string, jobId: string) => `users/${userId}/jobs/${jobId}.mp4`;
export const jobCaptionsKey = (userId: string, jobId: string) =>
  `users/${userId}/jobs/${jobId}.ass`;
/** The export's poster: a frame of the exported clip. */
export const jobPosterKey = (userId: string, jobId: string) => `users/${userId}/jobs/${jobId}.jpg`;

/** The clip's cover of its publish kit: its poster frame with the hook title (made on first ask). */
export const jobCoverKey = (userId: string, jobId: string) =>
  `users/${userId}/jobs/${jobId}.cover.jpg`;

/** An export job as the client reads it; `file_url` only once DONE. */
export function toJobDto(row: ExportRow, fileUrl: string | null): Job {
  return {
    job_id: row.id,
    moment_id: row.momentId,
    task_id: row.taskId,
    type: row.type as JobType,
    status: row.status as JobStatus,
    progress: Math.round(row.progress * 10) / 10,
    title: row.title,
    file_url: row.status === 'DONE' ? fileUrl : null,
    error_reason: row.errorReason,
    duration_ms: row.durationMs,
    cost_credits: row.costCredits,
    created_at: row.createdAt.getTime(),
    poster_url: row.posterKey ? thumbnailPath('job', row.id) : null,
    share_id: row.shareId,
  };
}

/** What notifications need to know about a job. */
export const jobForNotification = (row: ExportRow) => ({
  id: row.id,
  type: row.type,
  status: row.status as JobStatus,
  title: row.title,
  progress: row.progress,
  momentId: row.momentId,
  posterKey: row.posterKey,
  batchId: row.batchId,
});

/**
 * The settings an export was made with, as the clip editor holds them ("Edit again" opens exactly
 * these). Null for a row whose options do not read as settings (none stored).
 */
export function clipSettingsOf(row: ExportRow): ClipSettings | null {
  const options = row.options as Partial<JobOptions>;
  const settings = ClipSettings.safeParse({
    aspect: options.aspect,
    quality: options.quality,
    template: options.template,
    layout: options.layout,
    caption_display: options.captionDisplay,
    target_lang: options.targetLang ?? null,
    start_ms: options.startMs,
    end_ms: options.endMs,
    transcript_text: options.transcriptText ?? null,
    // Exports stored before caption placement existed were made with the defaults.
    caption_position: options.captionPosition ?? 'bottom',
    caption_size: options.captionSize ?? 'medium',
    remove_fillers: options.removeFillers ?? false,
    // Exports made without cuts read as they were stored before cuts existed.
    ...(options.cuts?.length && {
      cuts: options.cuts.map((cut) => ({ start_ms: cut.startMs, end_ms: cut.endMs })),
    }),
    ...(options.minPauseMs !== undefined && { remove_silences: { min_ms: options.minPauseMs } }),
    // Left out when unused, as a draft made without them has them.
    ...(options.style ? { style: options.style } : {}),
    ...(options.hookTitle ? { hook_title: options.hookTitle } : {}),
    ...(options.platform && options.platform !== 'generic' ? { platform: options.platform } : {}),
    // Made without a kit (or before kits): "Edit again" opens it without one, as it was made.
    brand_kit_id: options.brandKit?.id ?? null,
  });
  return settings.success ? settings.data : null;
}
