/**
 * The caption templates a user picks in the clip editor. Each is a look (ASS style) plus a way of
 * animating words as they are spoken (override tags per word).
 */
export const CAPTION_TEMPLATES = [
  { id: 'karaoke', name: 'Karaoke', description: 'Words fill with colour as they are spoken' },
  {
    id: 'highlight_box',
    name: 'Highlight box',
    description: 'A coloured box behind the spoken word',
  },
  { id: 'pop_in', name: 'Pop in', description: 'Words pop in one by one as they are spoken' },
  { id: 'one_word', name: 'One word', description: 'One big word at a time' },
  {
    id: 'classic',
    name: 'Classic',
    description: 'Two lines of subtitles; spoken words turn white',
  },
  { id: 'keyword_color', name: 'Keyword colour', description: 'Key words stand out in colour' },
] as const;

export type CaptionTemplateId = (typeof CAPTION_TEMPLATES)[number]['id'];

/** Caption display modes. */
export const CAPTION_DISPLAY_MODES = ['all', 'source', 'translate', 'none'] as const;
export type CaptionDisplay = (typeof CAPTION_DISPLAY_MODES)[number];

export function isCaptionTemplateId(value: string): value is CaptionTemplateId {
  return CAPTION_TEMPLATES.some((template) => template.id === value);
}

/** How a template looks and pages its words; the animation lives in build.ts. */
export interface TemplateLook {
  /** Font size relative to the house size (7% of the frame's short side). */
  sizeFactor: number;
  maxLines: number;
  maxWordsPerPage: number;
  uppercase: boolean;
  /** Text colour of words not (yet) spoken, and the spoken/active colour. */
  baseColor: string;
  activeColor: string;
  outlineColor: string;
  /** Outline and shadow thickness relative to the font size. */
  outline: number;
  shadow: number;
}

const WHITE = '#FFFFFF';
const BLACK = '#000000';

export const TEMPLATE_LOOKS: Record<CaptionTemplateId, TemplateLook> = {
  karaoke: {
    sizeFactor: 1,
    maxLines: 2,
    maxWordsPerPage: 8,
    uppercase: false,
    baseColor: WHITE,
    activeColor: '#FFD21F',
    outlineColor: BLACK,
    outline: 0.08,
    shadow: 0.03,
  },
  highlight_box: {
    sizeFactor: 1,
    maxLines: 2,
    maxWordsPerPage: 6,
    uppercase: false,
    baseColor: WHITE,
    activeColor: '#7C3AED',
    outlineColor: BLACK,
    outline: 0.07,
    shadow: 0.03,
  },
  pop_in: {
    sizeFactor: 1.05,
    maxLines: 2,
    maxWordsPerPage: 6,
    uppercase: true,
    baseColor: WHITE,
    activeColor: '#4ADE80',
    outlineColor: BLACK,
    outline: 0.09,
    shadow: 0.04,
  },
  one_word: {
    sizeFactor: 1.6,
    maxLines: 1,
    maxWordsPerPage: 1,
    uppercase: true,
    baseColor: WHITE,
    activeColor: WHITE,
    outlineColor: BLACK,
    outline: 0.08,
    shadow: 0.04,
  },
  classic: {
    sizeFactor: 0.8,
    maxLines: 2,
    maxWordsPerPage: 16,
    uppercase: false,
    baseColor: '#C8C8C8',
    activeColor: WHITE,
    outlineColor: BLACK,
    outline: 0.07,
    shadow: 0,
  },
  keyword_color: {
    sizeFactor: 1,
    maxLines: 2,
    maxWordsPerPage: 6,
    uppercase: false,
    baseColor: WHITE,
    activeColor: '#FFD21F',
    outlineColor: BLACK,
    outline: 0.08,
    shadow: 0.03,
  },
};

/** Keywords in `keyword_color` are drawn this much larger, in this colour. */
export const KEYWORD_SCALE = 1.15;
export const KEYWORD_COLOR = '#22E06B';
export const TRANSLATION_COLOR = '#FFF3B0';
