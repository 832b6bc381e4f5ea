import { z } from 'zod';
import { CAPTION_DISPLAYS, EXPORT_LAYOUTS } from './constants.js';
import { CAPTION_POSITIONS, CAPTION_SIZES, EXPORT_ASPECTS, EXPORT_QUALITIES } from './exports.js';
import { Language, NonBlank } from './schemas.js';
import { CaptionStyle, CutSpan, HookTitle, PLATFORMS, RemoveSilences } from './style.js';

/**
 * The clip editor's settings of a moment: what its export would be made with. Saved as the user
 * edits (a draft), and kept with every export, so the editor opens a clip as it was left and an
 * export's "Edit again" opens exactly what that export was made with. Times are milliseconds in
 * the source video.
 */

/** The longest edited transcript a draft keeps: a long clip's words with room to spare. */
export const MAX_DRAFT_TEXT_CHARS = 60_000;
/** What one draft body may weigh on the wire (the text above, in any script, and the rest). */
export const MAX_DRAFT_BODY_BYTES = 256 * 1024;

export const ClipSettings = z.object({
  aspect: z.enum(EXPORT_ASPECTS),
  quality: z.enum(EXPORT_QUALITIES),
  /** A caption template id (GET /api/captions/templates); an unknown one is UNKNOWN_TEMPLATE. */
  template: NonBlank(60),
  layout: z.enum(EXPORT_LAYOUTS),
  caption_display: z.enum(CAPTION_DISPLAYS),
  /** The translation's language; null for none. */
  target_lang: Language.nullable(),
  /** The trim; the end after the start (INVALID_RANGE otherwise). */
  start_ms: z.number().int().min(0).max(86_400_000),
  end_ms: z.number().int().min(0).max(86_400_000),
  /** The edited transcript of the span; null while the words are the transcript's own. */
  transcript_text: z.string().max(MAX_DRAFT_TEXT_CHARS).nullable(),
  caption_position: z.enum(CAPTION_POSITIONS),
  caption_size: z.enum(CAPTION_SIZES),
  remove_fillers: z.boolean(),
  /** Source spans deleted in the transcript (edit by text); absent in drafts made before cuts. */
  cuts: z.array(CutSpan).max(200).optional(),
  /** Pauses shortened to min_ms; null or absent: pauses stay. */
  remove_silences: RemoveSilences.nullable().optional(),
  /** The caption style over the template (only the fields the user changed). */
  style: CaptionStyle.optional(),
  /** The title card over the first seconds; null for none. */
  hook_title: HookTitle.nullable().optional(),
  platform: z.enum(PLATFORMS).optional(),
  /**
   * The brand kit applied (its style under `style`, its logo and cards); null for none. Absent:
   * no choice made yet, and the editor opens the clip with the kit used last.
   */
  brand_kit_id: z.string().min(1).max(100).nullable().optional(),
});
export type ClipSettings = z.infer<typeof ClipSettings>;

/** PUT /api/highlight_moment/draft?id={momentId}. */
export const ClipDraftBody = z.object({ settings: ClipSettings });
export type ClipDraftBody = z.infer<typeof ClipDraftBody>;

/** A moment's saved editor settings; GET answers null while none was saved. */
export const ClipDraft = z.object({
  moment_id: z.string(),
  settings: ClipSettings,
  /** Milliseconds since the epoch. */
  updated_at: z.number().int(),
});
export type ClipDraft = z.infer<typeof ClipDraft>;
