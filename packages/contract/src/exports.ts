import { z } from 'zod';
import { CAPTION_DISPLAYS, JOB_TYPES } from './constants.js';
import { OptionalTargetLanguage } from './schemas.js';

/**
 * Export jobs and the clip editor's caption preview (issue "Clip studio"; the spec names the job
 * calls but not their bodies, so these are ours). Times are milliseconds in the source video.
 */

/** Frame shapes; `original` keeps the source's shape (caption exports of a whole video). */
export const EXPORT_ASPECTS = ['9:16', '1:1', '4:5', '16:9', 'original'] as const;
export type ExportAspect = (typeof EXPORT_ASPECTS)[number];
/** The short side of the output: 720 or 1080 pixels. */
export const EXPORT_QUALITIES = ['720p', '1080p'] as const;
export type ExportQuality = (typeof EXPORT_QUALITIES)[number];
/** `auto` follows the subject (falls back to blur_fit when none is found). */
export const EXPORT_LAYOUTS = ['auto', 'blur_fit'] as const;
export type ExportLayout = (typeof EXPORT_LAYOUTS)[number];

/** Caption placement; `bottom` stays above the platforms' own bottom UI. */
export const CAPTION_POSITIONS = ['bottom', 'middle', 'top'] as const;
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number];
export const CAPTION_SIZES = ['small', 'medium', 'large'] as const;
export type CaptionSize = (typeof CAPTION_SIZES)[number];

export const ExportOptions = z.object({
  aspect: z.enum(EXPORT_ASPECTS).default('9:16'),
  quality: z.enum(EXPORT_QUALITIES).default('1080p'),
  /** A caption template id (GET /api/captions/templates); an unknown one is UNKNOWN_TEMPLATE. */
  template: z.string().trim().min(1).max(60).default('karaoke'),
  /** Default: the task's caption_display. */
  caption_display: z.enum(CAPTION_DISPLAYS).optional(),
  /** Language of the translated captions; default: the task's target_lang. */
  target_lang: OptionalTargetLanguage,
  /** Trim; default the moment's span (or the whole video). Snapped to word boundaries. */
  start_ms: z.number().int().optional(),
  end_ms: z.number().int().optional(),
  /** The edited transcript of the span; touched words are re-timed. */
  transcript_text: z.string().max(200_000).optional(),
  layout: z.enum(EXPORT_LAYOUTS).default('auto'),
  /** Where the captions sit and how big they are (issue 13: readable on a phone). */
  caption_position: z.enum(CAPTION_POSITIONS).default('bottom'),
  caption_size: z.enum(CAPTION_SIZES).default('medium'),
  /** Drops filler words ("um", "uh", a word said twice) from the captions and, in exports, the cut. */
  remove_fillers: z.boolean().default(false),
});
export type ExportOptions = z.infer<typeof ExportOptions>;

/** POST /api/job. moment_id for the moment types, task_id for ANIMATED_CAPTION_EXPORT. */
export const JobCreateBody = z.object({
  type: z.enum(JOB_TYPES),
  moment_id: z.string().max(100).optional(),
  task_id: z.string().max(100).optional(),
  options: ExportOptions.default(ExportOptions.parse({})),
});
export type JobCreateBody = z.infer<typeof JobCreateBody>;

export const JobListQuery = z.object({
  page_num: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  type: z.enum(JOB_TYPES).optional(),
});

/** POST /api/captions/preview: what the export of the same body would burn in. */
export const CaptionPreviewBody = z.object({
  moment_id: z.string().max(100).optional(),
  task_id: z.string().max(100).optional(),
  options: ExportOptions.default(ExportOptions.parse({})),
});
export type CaptionPreviewBody = z.infer<typeof CaptionPreviewBody>;

export const CaptionFontRef = z.object({ family: z.string(), url: z.string() });

export const CaptionPreview = z.object({
  /** The ASS document; its times count from `start_ms` (clip time), its canvas is width x height. */
  ass: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** The trim after snapping to word boundaries. */
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  /** The caption words (after re-timing an edited transcript), in source time. */
  words: z.array(z.object({ text: z.string(), start: z.number(), end: z.number() })),
  /** Fonts the document uses, for JASSUB's availableFonts. */
  fonts: z.array(CaptionFontRef),
});
export type CaptionPreview = z.infer<typeof CaptionPreview>;

/** POST /api/captions/framing: same body as the caption preview. */
export const ClipFramingBody = CaptionPreviewBody;
export type ClipFramingBody = CaptionPreviewBody;

export const CropKeyframe = z.object({
  /** ms from `start_ms`; two keyframes with the same time are a jump (a cut). */
  t_ms: z.number(),
  /** Top-left corner and size of the visible window, in source pixels. */
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
});
export type CropKeyframe = z.infer<typeof CropKeyframe>;

/**
 * How the export frames the clip, computed by the exporter's own planner: `crop` shows the window
 * the keyframes describe (linear between keyframes, the last one holds), `blur_fit` the whole
 * frame over a blurred copy of itself (no keyframes).
 */
export const ClipFraming = z.object({
  layout: z.enum(['crop', 'blur_fit']),
  source: z.object({ width: z.number().int(), height: z.number().int() }),
  output: z.object({ width: z.number().int(), height: z.number().int() }),
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  keyframes: z.array(CropKeyframe),
});
export type ClipFraming = z.infer<typeof ClipFraming>;

export const CaptionTemplate = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type CaptionTemplate = z.infer<typeof CaptionTemplate>;

/** Subtitle files of a task (issue 13): GET /api/captions/subtitles. */
export const SUBTITLE_FORMATS = ['srt', 'vtt', 'ass'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];
/** Which language the file holds: the spoken one, the translation, or both (two lines a cue). */
export const SUBTITLE_LANGUAGES = ['source', 'target', 'both'] as const;
export type SubtitleLanguage = (typeof SUBTITLE_LANGUAGES)[number];

export const SubtitleQuery = z.object({
  task_id: z.string().max(100),
  format: z.enum(SUBTITLE_FORMATS).default('srt'),
  lang: z.enum(SUBTITLE_LANGUAGES).default('source'),
  /** Default: the task's target_lang. */
  target_lang: OptionalTargetLanguage,
  /** The edited transcript (as the result page holds it); touched words are re-timed. */
  transcript_text: z.string().max(200_000).optional(),
  remove_fillers: z.coerce.boolean().default(false),
});
export type SubtitleQuery = z.infer<typeof SubtitleQuery>;

/** Which translation pairs this install can do (GET /api/captions/languages). */
export const TranslationSupport = z.object({
  /** The engine that translates, or null when none is configured. */
  engine: z.string().nullable(),
  /** Target languages offered, each with whether it works here and, if not, why. */
  languages: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      available: z.boolean(),
      note: z.string().nullable(),
    }),
  ),
});
export type TranslationSupport = z.infer<typeof TranslationSupport>;
