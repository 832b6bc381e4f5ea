/**
 * Caption styles over templates. A template is a starting point; a style (a brand kit's, then the
 * export's own fields) changes what it names. The same resolution serves the export, the editor's
 * preview and the template list (each template's own values, for the editor's controls and its
 * "reset to template").
 */
import type { CaptionStyle } from '@moments/contract';
import { TEMPLATE_LOOKS, type CaptionTemplateId } from './templates';

/** Letter size of the house style on a 1080-pixel short side (7.5 % of it). */
export const HOUSE_SIZE_1080 = 81;

// One layering rule for the server, the web and the ASS builder (a brand kit, then the request).
import { mergeCaptionStyles } from '@moments/domain/brand-kits';
export { mergeCaptionStyles };

/**
 * Every field as the template draws it (sizes in pixels on a 1080-pixel short side): what the
 * style editor shows before anything is changed.
 */
export function templateCaptionStyle(template: CaptionTemplateId): Required<CaptionStyle> {
  const look = TEMPLATE_LOOKS[template];
  const size = HOUSE_SIZE_1080 * look.sizeFactor;
  return {
    font_family: 'Noto Sans',
    font_size: Math.round(size),
    text_color: look.baseColor,
    highlight_color: look.activeColor,
    outline_color: look.outlineColor,
    outline_width: Math.round(size * look.outline * 10) / 10,
    shadow: Math.round(size * look.shadow * 10) / 10,
    box_color: null,
    // The bottom placement's centre on a portrait frame (caption_position decides otherwise).
    position_y: 0.7,
    uppercase: look.uppercase,
    max_words_per_line: Math.ceil(look.maxWordsPerPage / look.maxLines),
    lines_per_caption: look.maxLines,
    emphasis: template === 'keyword_color' ? 'keywords' : 'none',
    emoji: false,
  };
}

/**
 * The style an export draws: the template's look, then each layer in turn (a brand kit's style,
 * then the export's `style`). Brand kits and the exporter resolve through this one function.
 */
export function effectiveCaptionStyle(
  template: CaptionTemplateId,
  ...layers: readonly (CaptionStyle | null | undefined)[]
): Required<CaptionStyle> {
  return mergeCaptionStyles(templateCaptionStyle(template), ...layers) as Required<CaptionStyle>;
}
