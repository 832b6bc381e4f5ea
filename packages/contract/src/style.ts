import { z } from 'zod';

/**
 * How a clip looks beyond its template: the caption style a creator tunes, a hook title over the
 * first seconds, the platform it is made for, and brand kits that keep all of it. Shared by the
 * export options, the caption preview and the brand kit calls, so that a kit applied in the
 * editor is exactly what the export burns in.
 */

/** `#RRGGBB` or `#RRGGBBAA` (alpha last, ff opaque). */
export const HexColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/, 'a colour written #RRGGBB or #RRGGBBAA');

export const EMPHASIS_MODES = ['none', 'keywords'] as const;
export type EmphasisMode = (typeof EMPHASIS_MODES)[number];

/**
 * A caption style over a template: each field left out keeps the template's own look. Sizes are
 * pixels on a 1080-pixel short side (scaled for 720p); `position_y` is the captions' centre, 0 the
 * top of the frame and 1 the bottom.
 */
export const CaptionStyle = z
  .object({
    /** An installed font family (GET /api/captions/fonts); another is UNKNOWN_FONT. */
    font_family: z.string().trim().min(1).max(80).optional(),
    font_size: z.number().int().min(16).max(200).optional(),
    text_color: HexColor.optional(),
    /** The spoken word's colour (and emphasised words' colour). */
    highlight_color: HexColor.optional(),
    outline_color: HexColor.optional(),
    outline_width: z.number().min(0).max(20).optional(),
    shadow: z.number().min(0).max(20).optional(),
    /** A box behind each line; null for none. */
    box_color: HexColor.nullable().optional(),
    position_y: z.number().min(0).max(1).optional(),
    uppercase: z.boolean().optional(),
    max_words_per_line: z.number().int().min(1).max(12).optional(),
    lines_per_caption: z.number().int().min(1).max(3).optional(),
    /** Key words (numbers, names, keyphrases) in the highlight colour. */
    emphasis: z.enum(EMPHASIS_MODES).optional(),
    /** At most one emoji per caption line, where the line's meaning matches one. */
    emoji: z.boolean().optional(),
  })
  .strict();
export type CaptionStyle = z.infer<typeof CaptionStyle>;

/** A title card over the first seconds of the clip; default text: the moment's title. */
export const HookTitle = z
  .object({
    text: z.string().trim().min(1).max(120),
    seconds: z.number().min(0.5).max(10).default(3),
  })
  .strict();
export type HookTitle = z.infer<typeof HookTitle>;

/** Where a clip will be posted: its shape, length warning and the safe zone its overlays keep to. */
export const PLATFORMS = ['tiktok', 'instagram_reels', 'youtube_shorts', 'generic'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const LOGO_POSITIONS = ['top_left', 'top_right', 'bottom_left', 'bottom_right'] as const;
export type LogoPosition = (typeof LOGO_POSITIONS)[number];

/** Intro or outro card text of a brand kit. */
const CardText = z.string().trim().min(1).max(120);

/** The fields of a brand kit besides its logo (the multipart body's text fields, parsed). */
export const BrandKitFields = z
  .object({
    name: z.string().trim().min(1).max(60),
    logo_position: z.enum(LOGO_POSITIONS).default('top_right'),
    /** 0 invisible, 1 opaque. */
    logo_opacity: z.number().min(0.05).max(1).default(0.9),
    /** The logo's width as a share of the frame's width. */
    logo_scale: z.number().min(0.05).max(0.5).default(0.18),
    style: CaptionStyle.default({}),
    intro_text: CardText.nullable().default(null),
    outro_text: CardText.nullable().default(null),
  })
  .strict();
export type BrandKitFields = z.infer<typeof BrandKitFields>;

export const BrandKit = z.object({
  id: z.string(),
  name: z.string(),
  /** A signed URL of the stored logo (PNG), or null for a kit without one. */
  logo_url: z.string().nullable(),
  logo_position: z.enum(LOGO_POSITIONS),
  logo_opacity: z.number(),
  logo_scale: z.number(),
  style: CaptionStyle,
  intro_text: z.string().nullable(),
  outro_text: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** When the user last previewed or exported with this kit; the studio's default is the latest. */
  last_used_at: z.string().nullable(),
});
export type BrandKit = z.infer<typeof BrandKit>;

/** The largest logo file taken, and its largest side in pixels. */
export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const MAX_LOGO_SIDE = 4096;

/**
 * A brand kit's logo as the export burns it in: its rectangle in output pixels (inside the
 * platform's safe zone) and opacity, so the editor draws it where the export puts it.
 */
export const PlacedLogo = z.object({
  /** A signed URL of the stored PNG. */
  url: z.string(),
  position: z.enum(LOGO_POSITIONS),
  opacity: z.number(),
  scale: z.number(),
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
});
export type PlacedLogo = z.infer<typeof PlacedLogo>;

/** A span of source time removed from a clip (edit by text, fillers, silences). */
export const CutSpan = z
  .object({ start_ms: z.number().int().min(0), end_ms: z.number().int().min(1) })
  .strict();
export type CutSpan = z.infer<typeof CutSpan>;

/** Every pause longer than `min_ms` is shortened to `min_ms`. */
export const RemoveSilences = z.object({ min_ms: z.number().int().min(1).max(5000) }).strict();
export type RemoveSilences = z.infer<typeof RemoveSilences>;
