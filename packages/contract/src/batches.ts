import { z } from 'zod';
import { JOB_STATUSES } from './constants.js';
import { ExportOptions } from './exports.js';

/**
 * Export all: one request renders several moments of a task with the same options, each clip an
 * ordinary export job of the batch, and the finished clips download as one ZIP with a publish kit.
 */

/** The most clips one batch renders. */
export const BATCH_MAX_CLIPS = 30;

const Id = z.string().min(1).max(100);

/** POST /api/job/batch: the task's `top_n` best moments, or the moments `moment_ids` names. */
export const ExportBatchCreateBody = z.object({
  task_id: Id,
  moment_ids: z.array(Id).min(1).max(BATCH_MAX_CLIPS).optional(),
  top_n: z.number().int().min(1).max(BATCH_MAX_CLIPS).optional(),
  options: ExportOptions.default(ExportOptions.parse({})),
});
export type ExportBatchCreateBody = z.infer<typeof ExportBatchCreateBody>;

export const ExportBatchCreated = z.object({
  batch_id: z.string(),
  /** One export job per clip, best moment first (GET /api/job/{id} reads each). */
  job_ids: z.array(z.string()),
});
export type ExportBatchCreated = z.infer<typeof ExportBatchCreated>;

export const BATCH_STATUSES = JOB_STATUSES;

export const ExportBatchClip = z.object({
  job_id: z.string(),
  moment_id: z.string().nullable(),
  title: z.string(),
  status: z.enum(JOB_STATUSES),
  progress: z.number(),
  error_reason: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  poster_url: z.string().nullable(),
});
export type ExportBatchClip = z.infer<typeof ExportBatchClip>;

export const ExportBatch = z.object({
  batch_id: z.string(),
  task_id: z.string().nullable(),
  /** IN_PROGRESS while any clip renders; DONE once all have ended with at least one made; ERROR when none was. */
  status: z.enum(JOB_STATUSES),
  /** The mean of the clips' progress. */
  progress: z.number(),
  clips: z.array(ExportBatchClip),
  done_count: z.number().int(),
  error_count: z.number().int(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
  /** The ZIP of the finished clips, their covers and publish.json; null until one is finished. */
  zip_url: z.string().nullable(),
});
export type ExportBatch = z.infer<typeof ExportBatch>;

/** A platform's texts of a publish kit, each inside the platform's limits. */
export const PublishTexts = z.object({
  platform: z.enum(['tiktok', 'instagram_reels', 'youtube_shorts']),
  title: z.string(),
  description: z.string(),
  hashtags: z.array(z.string()),
  /** What goes into the post's text box as it is. */
  caption: z.string(),
});
export type PublishTexts = z.infer<typeof PublishTexts>;

/** GET /api/job/{id}/publish_kit: what a clip is posted with. */
export const PublishKit = z.object({
  job_id: z.string(),
  /** The clip's name in a batch ZIP. */
  file_name: z.string(),
  /** The cover image (the clip's best frame, with its hook title when it has one). */
  cover_url: z.string(),
  platforms: z.array(PublishTexts),
});
export type PublishKit = z.infer<typeof PublishKit>;
