import { z } from 'zod';
import {
  CAPTION_DISPLAYS,
  EXPORT_LAYOUTS,
  JOB_TYPES,
  type JobType,
  type MomentListType,
} from './constants.js';
import { NonBlank, OptionalTargetLanguage } from './schemas.js';
import {
  CaptionStyle,
  CutSpan,
  HookTitle,
  PlacedLogo,
  PLATFORMS,
  RemoveSilences,
} from './style.js';

/**
 * Export jobs and the clip editor's caption preview (the spec names the job
 * calls but not their bodies, so these are ours). Times are milliseconds in the source video.
 */

/** Frame shapes; `original` keeps the source's shape (caption exports of a whole video). */
export const EXPORT_ASPECTS = ['9:16', '1:1', '4:5', '16:9', 'original'] as const;
export type ExportAspect = (typeof EXPORT_ASPECTS)[number];
/** The short side of the output: 720 or 1080 pixels. */
export const EXPORT_QUALITIES = ['720p', '1080p'] as const;
export type ExportQuality = (typeof EXPORT_QUALITIES)[number];
export { EXPORT_LAYOUTS, type ExportLayout } from './constants.js';

/** Caption placement; `bottom` stays above the platforms' own bottom UI. */
export const CAPTION_POSITIONS = ['bottom', 'middle', 'top'] as const;
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number];
export const CAPTION_SIZES = ['small', 'medium', 'large'] as const;
export type CaptionSize = (typeof CAPTION_SIZES)[number];

/**
 * Export options. Strict: an option this server does not know (a typo, or one of a newer version)
 * is refused with UNKNOWN_OPTION and its name, never silently ignored.
 */
export const ExportOptions = z.strictObject({
  aspect: z.enum(EXPORT_ASPECTS).default('9:16'),
  quality: z.enum(EXPORT_QUALITIES).default('1080p'),
  /** A caption template id (GET /api/captions/templates); an unknown one is UNKNOWN_TEMPLATE. */
  template: NonBlank(60).default('karaoke'),
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
  /** Where the captions sit and how big they are (readable on a phone). */
  caption_position: z.enum(CAPTION_POSITIONS).default('bottom'),
  caption_size: z.enum(CAPTION_SIZES).default('medium'),
  /** Drops filler words ("um", "uh", a word said twice) from the captions and, in exports, the cut. */
  remove_fillers: z.boolean().default(false),
  /** The caption style over the template (a brand kit's style first, then these fields). */
  style: CaptionStyle.optional(),
  /** A brand kit of the user's (GET /api/brand_kit/list): logo, style, intro and outro. */
  brand_kit_id: z.string().min(1).max(100).optional(),
  hook_title: HookTitle.optional(),
  /** The platform the clip is made for; its safe zone keeps captions, title and logo clear. */
  platform: z.enum(PLATFORMS).default('generic'),
  /**
   * Source spans removed from the clip (edit by text); at most 200, inside the clip, none
   * overlapping (CUT_OUT_OF_RANGE, CUTS_OVERLAP), not all of it (CUTS_REMOVE_EVERYTHING). Each
   * is moved to word boundaries.
   */
  cuts: z.array(CutSpan).max(200).optional(),
  /** Shortens every pause (from the words and the audio's energy) longer than min_ms to min_ms. */
  remove_silences: RemoveSilences.optional(),
});
export type ExportOptions = z.infer<typeof ExportOptions>;

/** The id of a moment, task or job in a request. */
const Id = z.string().min(1).max(100);
const exportOptions = ExportOptions.default(ExportOptions.parse({}));

/** POST /api/job: moment_id for the moment types, task_id for ANIMATED_CAPTION_EXPORT. */
export const JobCreateBody = z.discriminatedUnion('type', [
  z.object({ type: z.literal('VIRAL_MOMENT_EXPORT'), moment_id: Id, options: exportOptions }),
  z.object({ type: z.literal('VIRAL_FIND_MOMENT_EXPORT'), moment_id: Id, options: exportOptions }),
  z.object({ type: z.literal('ANIMATED_CAPTION_EXPORT'), task_id: Id, options: exportOptions }),
]);
export type JobCreateBody = z.infer<typeof JobCreateBody>;

/** A moment's list type decides its export type. */
export function exportTypeOf(
  listType: MomentListType,
): Exclude<JobType, 'ANIMATED_CAPTION_EXPORT'> {
  return listType === 'search_snippet' ? 'VIRAL_FIND_MOMENT_EXPORT' : 'VIRAL_MOMENT_EXPORT';
}

export const JobListQuery = z.object({
  page_num: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  type: z.enum(JOB_TYPES).optional(),
});

/** POST /api/captions/preview: what the export of the same body would burn in (a moment, or a task's whole video). */
export const CaptionPreviewBody = z.union([
  z.object({ moment_id: Id, task_id: Id.optional(), options: exportOptions }),
  z.object({ task_id: Id, options: exportOptions }),
]);
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
  /**
   * Source spans the export removes (cuts at word boundaries, fillers, the long part of pauses),
   * sorted: the player skips them, so it plays what the export holds. Empty when nothing is cut.
   */
  removed: z.array(CutSpan),
  /** The exported clip's length once `removed` is cut out. */
  duration_ms: z.number().int(),
  /** The caption words (after re-timing an edited transcript), in source time. */
  words: z.array(z.object({ text: z.string(), start: z.number(), end: z.number() })),
  /** Fonts the document uses, for JASSUB's availableFonts. */
  fonts: z.array(CaptionFontRef),
  /** The brand kit's logo where the export puts it; null without a kit or a logo. */
  logo: PlacedLogo.nullable().default(null),
});
export type CaptionPreview = z.infer<typeof CaptionPreview>;

/** POST /api/captions/framing: same body as the caption preview. */
export const ClipFramingBody = CaptionPreviewBody;
export type ClipFramingBody = CaptionPreviewBody;

/** POST /api/highlight_moment/layout: the framing kept with a clip (the studio's choice). */
export const MomentLayoutBody = z.object({ layout: z.enum(EXPORT_LAYOUTS) });
export type MomentLayoutBody = z.infer<typeof MomentLayoutBody>;

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

/** How a stretch of a clip is framed (the layouts a segment can have). */
export const FRAMING_LAYOUTS = ['speaker', 'split', 'fit', 'slide_speaker'] as const;
export type FramingLayout = (typeof FRAMING_LAYOUTS)[number];

/** A rectangle of the output frame showing a moving window of the source. */
export const FramingPane = z.object({
  /** Where the pane sits in the output, in output pixels. */
  x: z.number().int(),
  y: z.number().int(),
  w: z.number().int(),
  h: z.number().int(),
  /** The window of the source it shows (the pane's shape), linear between keyframes. */
  keyframes: z.array(CropKeyframe),
});
export type FramingPane = z.infer<typeof FramingPane>;

export const FramingSegment = z.object({
  /** ms from `start_ms`; the segments tile the clip. */
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  layout: z.enum(FRAMING_LAYOUTS),
  /** A blurred copy of the whole frame fills the output behind the panes. */
  backdrop: z.boolean(),
  panes: z.array(FramingPane),
});
export type FramingSegment = z.infer<typeof FramingSegment>;

/** The picture under the captions: `light` gets them a box, `busy` a heavy outline. */
export const CAPTION_BACKGROUNDS = ['plain', 'light', 'busy'] as const;

/**
 * How the export frames the clip, computed by the exporter's own planner: a list of segments,
 * each a layout with its panes over time. `layout` sums it up: `crop` (one close-up all along,
 * whose path is also in `keyframes`), `blur_fit` (the whole frame all along), `split`,
 * `slide_speaker`, or `mixed`.
 */
export const ClipFraming = z.object({
  layout: z.enum(['crop', 'blur_fit', 'split', 'slide_speaker', 'mixed']),
  source: z.object({ width: z.number().int(), height: z.number().int() }),
  output: z.object({ width: z.number().int(), height: z.number().int() }),
  start_ms: z.number().int(),
  end_ms: z.number().int(),
  keyframes: z.array(CropKeyframe),
  segments: z.array(FramingSegment),
  /** The picture under the captions at each position (the captions' backing follows it). */
  caption_background: z.object({
    bottom: z.enum(CAPTION_BACKGROUNDS),
    middle: z.enum(CAPTION_BACKGROUNDS),
    top: z.enum(CAPTION_BACKGROUNDS),
  }),
  /** Layout changes not at a cut of the source, per minute. */
  switches_per_minute: z.number(),
});
export type ClipFraming = z.infer<typeof ClipFraming>;

export const CaptionTemplate = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Every style field as the template draws it: the style editor's starting values. */
  style: CaptionStyle.required(),
});

/** GET /api/captions/fonts: a caption font family installed here and the scripts it draws. */
export const CaptionFontFamily = z.object({
  family: z.string(),
  /** Unicode script names (`Latin`, `Arabic`, `Han`...). */
  scripts: z.array(z.string()),
});
export type CaptionFontFamily = z.infer<typeof CaptionFontFamily>;
export type CaptionTemplate = z.infer<typeof CaptionTemplate>;

/** Subtitle files of a task: GET /api/captions/subtitles. */
export const SUBTITLE_FORMATS = ['srt', 'vtt', 'ass'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];
/** Which language the file holds: the spoken one, the translation, or both (two lines a cue). */
export const SUBTITLE_LANGUAGES = ['source', 'target', 'both'] as const;
export type SubtitleLanguage = (typeof SUBTITLE_LANGUAGES)[number];

export const SubtitleQuery = z.object({
  task_id: Id,
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
