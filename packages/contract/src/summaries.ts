import { z } from 'zod';
import { VideoMeta } from './schemas.js';

/** A video's summary, its chapters and key points (times in ms into the video). */
export const SummaryChapter = z.object({
  start: z.number().int(),
  end: z.number().int(),
  title: z.string(),
  summary: z.string(),
});
export type SummaryChapter = z.infer<typeof SummaryChapter>;

export const SummaryKeyPoint = z.object({
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
});
export type SummaryKeyPoint = z.infer<typeof SummaryKeyPoint>;

export const TranscriptLine = z.object({
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
});

export const Summary = z.object({
  task_id: z.string(),
  overview: z.string(),
  chapters: z.array(SummaryChapter),
  key_points: z.array(SummaryKeyPoint),
  /** `extractive` (the talk's own sentences) or `llm`. */
  method: z.enum(['extractive', 'llm']),
  warnings: z.array(z.string()),
  share_id: z.string().nullable(),
  updated_at: z.number(),
});
export type Summary = z.infer<typeof Summary>;

/** The summary page: the summary, the video and its transcript; media_url plays the video (owner only). */
export const SummaryView = Summary.extend({
  video: VideoMeta,
  transcript: z.array(TranscriptLine),
  media_url: z.string().nullable(),
});
export type SummaryView = z.infer<typeof SummaryView>;

export const Note = z.object({
  id: z.string(),
  title: z.string(),
  /** Sanitised HTML from the rich-text editor; timestamp links are `<a href="/video/{taskId}/summary?t={ms}">`. */
  content_html: z.string(),
  task_id: z.string().nullable(),
  moment_id: z.string().nullable(),
  share_id: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Note = z.infer<typeof Note>;

export const NOTE_SOURCES = ['blank', 'summary', 'moment'] as const;
export const CreateNoteBody = z.object({
  from: z.enum(NOTE_SOURCES).default('blank'),
  /** The task id (from summary) or moment id (from moment). */
  id: z.string().max(100).optional(),
  title: z.string().max(300).optional(),
});
export const UpdateNoteBody = z.object({
  title: z.string().max(300).optional(),
  content_html: z.string().max(500_000).optional(),
});

/** A public, read-only page at /s/{id} (summary), /s/{id}?note=1 (note) or /s/{id}?clip=1 (clip). */
export const SharedPage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('summary'),
    title: z.string(),
    video: VideoMeta,
    summary: Summary.omit({ share_id: true, warnings: true }),
  }),
  z.object({ kind: z.literal('note'), title: z.string(), note: Note.omit({ share_id: true }) }),
  /** An exported clip, /s/{id}?clip=1: its MP4 and poster, served while it is shared. */
  z.object({
    kind: z.literal('clip'),
    title: z.string(),
    duration_ms: z.number().int().nullable(),
    video_url: z.string(),
    poster_url: z.string().nullable(),
    /** The MP4's frame size when known (a reframed export): a vertical clip plays upright. */
    width: z.number().int().positive().nullable(),
    height: z.number().int().positive().nullable(),
    /** What the clip is: the title of the video it was cut from and the moment's own words. */
    video_title: z.string().nullable(),
    about: z.string().nullable(),
  }),
]);
export type SharedPage = z.infer<typeof SharedPage>;

/** Body of moment share (POST /api/highlight_moment/share); the body is optional. */
export const ShareMomentBody = z
  .object({
    /** Also list it on the public home shelf and in anonymous search; off unless chosen. */
    publish: z.boolean().default(false),
  })
  .optional();

export const ShareResult = z.object({
  share_id: z.string(),
  path: z.string(),
  published: z.boolean().optional(),
});
