/**
 * Word-by-word animated captions (design.md: preview equals export; right-to-left and complex
 * scripts render correctly; transcript corrections re-time captions).
 */
export {
  CAPTION_DISPLAY_MODES,
  CAPTION_TEMPLATES,
  isCaptionTemplateId,
  type CaptionDisplay,
  type CaptionTemplateId,
} from './templates';
export {
  buildCaptionsAss,
  captionBand,
  type BuildCaptionsInput,
  type CaptionBacking,
  type CaptionPosition,
  type CaptionRegion,
  type SafeArea,
} from './build';
export {
  effectiveCaptionStyle,
  mergeCaptionStyles,
  templateCaptionStyle,
  HOUSE_SIZE_1080,
} from './style';
export { EMOJI_WORDS, emojiForLine, emojiLayers, type EmojiWord } from './emoji';
export { burnCaptions, captionsFilter, escapeFilterValue, type BurnCaptionsOptions } from './burn';
export {
  captionFontFiles,
  captionFontsDir,
  fontForLanguage,
  installedCaptionFamilies,
  installedCaptionFont,
  type InstalledCaptionFamily,
  type CaptionFont,
  type CaptionFontFile,
} from './fonts';
export { measureTextWidth } from './measure';
export { retimeWords } from './retime';
export { splitIntoWords, spreadOverSpan, type CaptionWord } from './words';
export { BRAND_CARD_MS, withBrandCards, type BrandCards } from './cards';
