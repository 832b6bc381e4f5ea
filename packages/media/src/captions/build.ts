/**
 * Word-by-word animated captions as one ASS document. The exporter burns it in with libass
 * (ffmpeg's `ass` filter) and the web preview draws the same file with libass in WebAssembly, so
 * the preview equals the export. Lines are broken here, by measured width (HarfBuzz on the same
 * fonts), and libass is told not to re-wrap (WrapStyle 2).
 */
import type { CaptionStyle, HookTitle } from '@moments/contract';
import { MediaError } from '../errors/index';
import { emojiDrawingTexts, emojiForLine } from './emoji';
import {
  fallbackFonts,
  installedCaptionFont,
  fontForLanguage,
  fontForScript,
  isRightToLeft,
  writtenWithoutSpaces,
  type CaptionFont,
} from './fonts';
import { cellHeightInEms, fontCovers, measureWith } from './measure';
import {
  KEYWORD_COLOR,
  KEYWORD_SCALE,
  TEMPLATE_LOOKS,
  TRANSLATION_COLOR,
  type CaptionDisplay,
  type CaptionTemplateId,
  type TemplateLook,
} from './templates';
import { graphemeCount, splitIntoWords, spreadOverSpan, type CaptionWord } from './words';
import { avoidLoneWords, hasLoneWordLine } from '@moments/domain/captions';

export interface BuildCaptionsInput {
  /** Source-language words with their spoken times (ms, in the source video's time line). */
  words: readonly CaptionWord[];
  /** Translated lines with the time span of the speech they translate. */
  translationLines?: readonly CaptionWord[];
  template: CaptionTemplateId;
  display: CaptionDisplay;
  /** Output frame size: the ASS canvas (PlayResX/PlayResY) is exactly the frame. */
  width: number;
  height: number;
  /** Source language (BCP 47, e.g. `ar`, `zh`, `ja`); picks fonts and casing rules. */
  language?: string;
  translationLanguage?: string;
  /** Clip start in the source video, so caption times come out clip-relative. */
  offsetMs?: number;
  /** Words `keyword_color` emphasises; by default numbers and long content words. */
  keywords?: readonly string[];
  /** Where the captions sit; `bottom` (default) stays above the platforms' bottom UI. */
  position?: CaptionPosition;
  /**
   * A stretch of the frame (pixels from the top) the captions are centred in instead of at
   * `position`: the gap between stacked panes, so that no caption runs across a face.
   */
  region?: CaptionRegion;
  /** Scale of the template's letter size (0.8 small, 1 medium, 1.2 large). */
  sizeScale?: number;
  /**
   * Source times where a new turn (a transcript line: another speaker or a new thought) starts: a
   * caption page never holds words of two turns.
   */
  turnStartsMs?: readonly number[];
  /**
   * Where the background under the captions is light or busy (measured from the frames), the
   * template's look gets help: `outline` draws a heavy outline and shadow, `box` a dark box behind
   * each line. Default `none`: the template as it is.
   */
  backing?: CaptionBacking;
  /**
   * The creator's style over the template (a brand kit's, then the export's: merge them with
   * `mergeCaptionStyles`); each field left out keeps the template's look.
   */
  style?: CaptionStyle;
  /** A title card over the clip's first seconds (clip time). */
  hookTitle?: HookTitle;
  /**
   * The part of the frame the platform's own buttons and text leave clear (pixels): captions and
   * the hook title stay inside it.
   */
  safeArea?: SafeArea;
}

export interface SafeArea {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type CaptionPosition = 'bottom' | 'middle' | 'top';
export interface CaptionRegion {
  top: number;
  bottom: number;
}
export type CaptionBacking = 'none' | 'outline' | 'box';

/**
 * The band of the frame the captions of one display occupy at `position` (two lines of the
 * medium size), in pixels from the top: what the background under the captions is judged on.
 */
export function captionBand(
  width: number,
  height: number,
  position: CaptionPosition = 'bottom',
  display: CaptionDisplay = 'source',
  region?: CaptionRegion,
): { top: number; bottom: number } {
  const geometry = frameGeometry(width, height, display, position, 1, region);
  const [above, below] = bandExtent(display);
  return {
    top: Math.max(0, Math.round(geometry.sourceBottomY - above * geometry.houseSize)),
    bottom: Math.min(height, Math.round(geometry.sourceBottomY + below * geometry.houseSize)),
  };
}

/** House sizes the band reaches above and below the source captions' bottom edge. */
const bandExtent = (display: CaptionDisplay): [number, number] =>
  display === 'all' ? [3.6, 1.6] : [2.6, 0.3];

/** A page leaves the screen at most this long after its last word when speech pauses. */
const HOLD_MS = 600;
/** A pause this long starts a new page even if the current one has room. */
const PAGE_BREAK_PAUSE_MS = 700;
const SENTENCE_END = /[.!?…。！？؟।]["'”’»)\]]*$/u;
const HOUSE_SIZE = 0.075;
/** A heavy outline (backing `outline`) is this many times the template's. */
const HEAVY_OUTLINE = 2;
/** Opacity of the line box (backing `box`): 0x30 of 0xFF transparent, so 81% opaque black. */
const BOX_ALPHA = 0x30;
const MAX_KEYWORDS_PER_PAGE = 2;

interface LaidWord {
  text: string;
  startMs: number;
  endMs: number;
  font: CaptionFont;
  /** Width at scale 1 in the template's font size, in pixels. */
  width: number;
  /** Scale (1 = style size): above 1 for keywords, below 1 for a word wider than a whole line. */
  scale: number;
  keyword: boolean;
  /** Joined to the previous word without a space (Chinese, Japanese, Thai...). */
  joined: boolean;
  /** The first word of a sentence (a capital there is no sign of a name). */
  sentenceStart: boolean;
}

interface Page {
  lines: LaidWord[][];
  words: LaidWord[];
  startMs: number;
  endMs: number;
}

interface Geometry {
  width: number;
  height: number;
  marginX: number;
  /** Wider than marginX on portrait frames: TikTok, Reels and Shorts stack buttons on the right. */
  marginRight: number;
  safeWidth: number;
  /** Bottom edge of the source captions and top edge of the translation below them. */
  sourceBottomY: number;
  translationTopY: number;
  houseSize: number;
}

interface Typesetting {
  template: CaptionTemplateId;
  look: TemplateLook;
  /** Key words drawn in `keywordColor`, a little larger. */
  emphasis: boolean;
  keywordColor: string;
  /** A box behind each line in this colour (`#RRGGBB[AA]`), or none. */
  boxColor: string | null;
  /** The family the style chose: it draws every word it has the letters for. */
  chosenFont?: CaptionFont;
  /** Override tags that make a hidden word visible again with the style's own opacities. */
  restoreAlpha: string;
  /** Size of an emoji after a line, or 0 for none. */
  emojiSize: number;
  /** At most this many words on one line (the style's), else only widths count. */
  maxWordsPerLine: number;
  styleFont: CaptionFont;
  language: string | undefined;
  /** ASS size of the style font; `sizeFor` gives other fonts' sizes. */
  size: number;
  sizeFor: (font: CaptionFont) => number;
  outlinePx: number;
  shadowPx: number;
  spaceWidth: number;
  safeWidth: number;
  maxLines: number;
  maxWordsPerPage: number;
}

interface AssEvent {
  layer: number;
  startMs: number;
  endMs: number;
  style: string;
  text: string;
}

/** A complete ASS document for the clip; an empty (but valid) one for display `none`. */
export function buildCaptionsAss(input: BuildCaptionsInput): string {
  const { width, height, template, display } = input;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    throw new MediaError('INVALID_FRAME_SIZE', `Invalid caption frame size ${width}x${height}`);
  }
  const templateLook = TEMPLATE_LOOKS[template];
  if (!templateLook) {
    throw new MediaError('UNKNOWN_TEMPLATE', `Unknown caption template "${template}"`);
  }
  const style = input.style ?? {};
  const look = styledLook(templateLook, style);
  const chosenFont = style.font_family ? installedCaptionFont(style.font_family) : undefined;
  if (style.font_family && !chosenFont) {
    throw new MediaError('UNKNOWN_FONT', `"${style.font_family}" is not an installed caption font`);
  }
  const needsTranslation = display === 'all' || display === 'translate';
  if (needsTranslation && !input.translationLines) {
    // Showing the source instead would be a silent wrong result.
    throw new MediaError('TRANSLATION_MISSING', `Caption display "${display}" needs a translation`);
  }

  const geometry = frameGeometry(
    width,
    height,
    display,
    input.position,
    input.sizeScale,
    input.region,
    input.safeArea,
    style.position_y,
  );
  const shortSide = Math.min(width, height);
  const px = (value: number | undefined) =>
    value === undefined ? undefined : (value * shortSide) / 1080;
  const sized: SizeChoice = {
    letterSize: px(style.font_size),
    outlinePx: px(style.outline_width),
    shadowPx: px(style.shadow),
  };
  const dress = (set: Typesetting): Typesetting => {
    set.template = template;
    set.emphasis =
      (style.emphasis ?? (template === 'keyword_color' ? 'keywords' : 'none')) === 'keywords';
    set.keywordColor =
      style.highlight_color ?? (template === 'keyword_color' ? KEYWORD_COLOR : look.activeColor);
    set.boxColor = style.box_color ?? null;
    // What `\alpha&H00&` would undo: a line box keeps its own (part) transparency.
    const lineBox =
      (input.backing === 'box' || set.boxColor !== null) && template !== 'highlight_box';
    const boxAlpha = lineBox ? (set.boxColor ? alphaOf(set.boxColor) : BOX_ALPHA) : 0;
    set.restoreAlpha = `\\1a&H00&\\2a&H00&\\3a&H${hexByte(boxAlpha)}&\\4a&H80&`;
    if (style.max_words_per_line !== undefined) set.maxWordsPerLine = style.max_words_per_line;
    if (style.emoji) {
      set.emojiSize = Math.round(set.size * 0.78);
      // The emoji sits after the line, and lines are centred: keep room for it on both sides.
      set.safeWidth -= 2 * (set.emojiSize + set.spaceWidth);
    }
    return set;
  };
  const offsetMs = input.offsetMs ?? 0;
  const animatedWords =
    display === 'translate'
      ? (input.translationLines ?? []).flatMap((line) =>
          spreadOverSpan(
            splitIntoWords(line.text, input.translationLanguage),
            line.startMs,
            line.endMs,
          ),
        )
      : input.words;
  const animatedLanguage = display === 'translate' ? input.translationLanguage : input.language;

  const main = dress(
    typesetting(look, geometry, animatedWords, animatedLanguage, look.sizeFactor, {
      ...sized,
      font: chosenFont,
    }),
  );
  keepInsideVertically(geometry, main, display, input.safeArea);
  const events: AssEvent[] = [];
  if (display !== 'none') {
    const laid = layWords(clipWords(animatedWords, offsetMs), main, input.keywords);
    const turns = (input.turnStartsMs ?? []).map((ms) => ms - offsetMs);
    for (const page of paginate(laid, main, turns)) {
      limitKeywords(page);
      events.push(...animatePage(template, page, main));
      if (main.emojiSize > 0) events.push(...emojiEvents(page, main, geometry));
    }
  }
  const title = input.hookTitle
    ? hookTitleEvents(input.hookTitle, look, geometry, sized, chosenFont, input)
    : undefined;
  if (title) {
    title.set.boxColor = style.box_color ?? null;
    events.push(...title.events);
  }
  let translation: Typesetting | undefined;
  if (display === 'all') {
    const lines = clipWords(input.translationLines ?? [], offsetMs);
    translation = dress(
      typesetting(
        { ...look, uppercase: false, maxLines: 2, maxWordsPerPage: Number.POSITIVE_INFINITY },
        geometry,
        lines,
        input.translationLanguage,
        0.72,
        { font: chosenFont },
      ),
    );
    translation.emphasis = false;
    translation.emojiSize = 0;
    events.push(...translationEvents(lines, translation, input.translationLanguage));
  }
  return assDocument(geometry, main, translation, events, input.backing ?? 'none', title?.set);
}

/** The template's look with the style's colours, casing and paging. */
function styledLook(look: TemplateLook, style: CaptionStyle): TemplateLook {
  const maxLines = style.lines_per_caption ?? look.maxLines;
  const perLine = style.max_words_per_line;
  return {
    ...look,
    baseColor: style.text_color ?? look.baseColor,
    activeColor: style.highlight_color ?? look.activeColor,
    outlineColor: style.outline_color ?? look.outlineColor,
    uppercase: style.uppercase ?? look.uppercase,
    maxLines,
    maxWordsPerPage:
      perLine !== undefined
        ? perLine * maxLines
        : style.lines_per_caption !== undefined
          ? Math.ceil((look.maxWordsPerPage / look.maxLines) * maxLines)
          : look.maxWordsPerPage,
  };
}

/** Sizes the style names, in this frame's pixels; undefined keeps the template's. */
interface SizeChoice {
  letterSize?: number;
  outlinePx?: number;
  shadowPx?: number;
}

/**
 * Moves the captions' bottom edge so that every line (and the translation under them) lies
 * inside the safe area, whatever the position, size or number of lines.
 */
function keepInsideVertically(
  geometry: Geometry,
  main: Typesetting,
  display: CaptionDisplay,
  safe: SafeArea | undefined,
): void {
  if (!safe) return;
  const ink = main.outlinePx + main.shadowPx;
  // Under the source lines: two translation lines at 0.72 of the size, and the gap.
  const below =
    display === 'all'
      ? geometry.translationTopY - geometry.sourceBottomY + 2 * 0.72 * main.size
      : 0;
  const lowest = safe.y + safe.h - ink - below;
  const highest = safe.y + main.maxLines * main.size + ink;
  const bottomY = Math.round(Math.max(Math.min(geometry.sourceBottomY, lowest), highest));
  const shift = bottomY - geometry.sourceBottomY;
  geometry.sourceBottomY += shift;
  geometry.translationTopY += shift;
}

function frameGeometry(
  width: number,
  height: number,
  display: CaptionDisplay,
  position: CaptionPosition = 'bottom',
  sizeScale = 1,
  region?: CaptionRegion,
  safe?: SafeArea,
  positionY?: number,
): Geometry {
  const portrait = height > width * 1.15;
  // 9:16 apps lay their buttons over the bottom fifth and the right edge: stay above and inside.
  const bottomAnchor = display === 'all' ? (portrait ? 0.66 : 0.76) : portrait ? 0.74 : 0.9;
  const anchor =
    position === 'middle'
      ? display === 'all'
        ? 0.52
        : 0.6
      : position === 'top'
        ? display === 'all'
          ? 0.24
          : 0.3
        : bottomAnchor;
  const safeRight = safe ? width - (safe.x + safe.w) : 0;
  const marginX = Math.max(Math.round(width * 0.08), safe?.x ?? 0);
  const marginRight = Math.max(portrait ? Math.round(width * 0.15) : marginX, safeRight);
  const houseSize = Math.min(width, height) * HOUSE_SIZE * Math.min(1.5, Math.max(0.5, sizeScale));
  const [above, below] = bandExtent(display);
  // Centred in the region: the band's middle is (above - below) / 2 house sizes over its edge.
  const centredAt = (centre: number) => Math.round(centre + ((above - below) / 2) * houseSize);
  // A chosen vertical position is where the captions' middle goes, over any placement rule.
  const sourceBottomY =
    positionY !== undefined
      ? centredAt(height * positionY)
      : region
        ? centredAt((region.top + region.bottom) / 2)
        : Math.round(height * anchor);
  return {
    width,
    height,
    marginX,
    marginRight,
    safeWidth: width - marginX - marginRight,
    sourceBottomY,
    translationTopY: sourceBottomY + Math.round(height * 0.015),
    houseSize,
  };
}

function typesetting(
  look: TemplateLook,
  geometry: Geometry,
  words: readonly CaptionWord[],
  language: string | undefined,
  sizeFactor: number,
  chosen: SizeChoice & { font?: CaptionFont } = {},
): Typesetting {
  // A chosen family draws the words it covers; others keep their script's font (fontForWord).
  const styleFont = chosen.font ?? primaryFont(words, language);
  // A chosen size replaces the template's (and the small/medium/large scale); the translation
  // line keeps its share of it.
  const letterSize =
    chosen.letterSize !== undefined
      ? chosen.letterSize * (sizeFactor === look.sizeFactor ? 1 : sizeFactor)
      : geometry.houseSize * sizeFactor;
  const sizeFor = fontSizer(letterSize);
  const size = sizeFor(styleFont);
  const tenth = (value: number) => Math.round(value * 10) / 10;
  return {
    template: 'karaoke',
    chosenFont: chosen.font,
    look,
    emphasis: false,
    keywordColor: KEYWORD_COLOR,
    boxColor: null,
    emojiSize: 0,
    restoreAlpha: '\\alpha&H00&',
    maxWordsPerLine: Number.POSITIVE_INFINITY,
    styleFont,
    language,
    size,
    sizeFor,
    // Outline thickness follows the letter size, not the (script-dependent) cell size.
    outlinePx: tenth(chosen.outlinePx ?? letterSize * look.outline),
    shadowPx: tenth(chosen.shadowPx ?? letterSize * look.shadow),
    spaceWidth: measureWith(' ', styleFont, size),
    // Ink may overhang a glyph's advance (side bearings, antialiasing): keep a little slack.
    safeWidth: geometry.safeWidth * 0.97,
    maxLines: look.maxLines,
    maxWordsPerPage: look.maxWordsPerPage,
  };
}

/**
 * libass sizes a font by its whole cell (ascent + descent), and Noto Sans Arabic's cell is 1.55
 * times Noto Sans's for the same letter size: scale each font so scripts look equally large,
 * capped so tall-cell fonts do not push lines far apart.
 */
function fontSizer(latinSize: number): (font: CaptionFont) => number {
  const latinCell = cellHeightInEms(fontForLanguage('en'));
  const sizes = new Map<CaptionFont, number>();
  return (font) => {
    let size = sizes.get(font);
    if (size === undefined) {
      const ratio = Math.min(1.4, Math.max(0.9, cellHeightInEms(font) / latinCell));
      size = Math.max(8, Math.round(latinSize * ratio));
      sizes.set(font, size);
    }
    return size;
  };
}

/** The language's font, or else the font most words need. */
function primaryFont(words: readonly CaptionWord[], language: string | undefined): CaptionFont {
  if (language) return fontForLanguage(language);
  const counts = new Map<CaptionFont, number>();
  for (const word of words) {
    const scriptFont = fontForScript(word.text);
    if (scriptFont) counts.set(scriptFont, (counts.get(scriptFont) ?? 0) + 1);
  }
  let best: CaptionFont | undefined;
  for (const [candidate, count] of counts) {
    if (!best || count > (counts.get(best) ?? 0)) best = candidate;
  }
  return best ?? fontForLanguage('en');
}

/** The font that draws every character of the word: its script's, the line's, then fallbacks. */
function fontForWord(
  text: string,
  styleFont: CaptionFont,
  language: string | undefined,
  chosen?: CaptionFont,
): CaptionFont {
  const scriptFont = fontForScript(text, language);
  const ownScript = chosen && fontCovers(text, chosen) ? chosen : undefined;
  const candidates = [ownScript, scriptFont, styleFont, ...fallbackFonts(language)].filter(
    (candidate): candidate is CaptionFont => candidate !== undefined,
  );
  return candidates.find((candidate) => fontCovers(text, candidate)) ?? scriptFont ?? styleFont;
}

/** Shift to clip time, drop words outside the clip, repair empty or reversed spans. */
function clipWords(words: readonly CaptionWord[], offsetMs: number): CaptionWord[] {
  return words
    .map((word) => ({
      text: word.text.replace(/\s+/gu, ' ').trim(),
      startMs: Math.max(0, word.startMs - offsetMs),
      endMs: Math.max(word.endMs, word.startMs + 1) - offsetMs,
    }))
    .filter((word) => word.text !== '' && word.endMs > 0)
    .sort((a, b) => a.startMs - b.startMs);
}

const STOPWORDS = new Set(
  'the a an and or but so to of in on at for with from by is are was were be been this that these those it its you your we our they their he she his her i me my not no yes do does did have has had will would can could should just very really about into over than then there here what when where which who how'.split(
    ' ',
  ),
);

function looksLikeKeyword(text: string): boolean {
  const bare = text.replace(/[\p{P}]/gu, '');
  if (/\p{N}/u.test(bare)) return true;
  if (STOPWORDS.has(bare.toLowerCase())) return false;
  return graphemeCount(bare) >= (writtenWithoutSpaces(bare) ? 3 : 6);
}

function layWords(
  words: CaptionWord[],
  set: Typesetting,
  keywords: readonly string[] | undefined,
): LaidWord[] {
  const keyOf = (text: string) => text.toLocaleLowerCase().replace(/[\p{P}]/gu, '');
  const chosen = keywords ? new Set(keywords.map(keyOf)) : undefined;
  const widest = set.safeWidth - 2 * set.outlinePx - set.shadowPx;
  let previous: string | undefined;
  return words.map((word) => {
    const text = set.look.uppercase ? word.text.toLocaleUpperCase(set.language) : word.text;
    const font = fontForWord(text, set.styleFont, set.language, set.chosenFont);
    const width = measureWith(text, font, set.sizeFor(font));
    const keyword =
      set.emphasis && (chosen ? chosen.has(keyOf(word.text)) : looksLikeKeyword(word.text));
    const emphasis = keyword ? KEYWORD_SCALE : 1;
    // A word wider than a whole line is squeezed to fit rather than cut by the frame edge.
    const scale = width * emphasis > widest ? widest / width : emphasis;
    const joined =
      previous !== undefined &&
      writtenWithoutSpaces(previous.slice(-1)) &&
      writtenWithoutSpaces(text[0] ?? '');
    const sentenceStart = previous === undefined || SENTENCE_END.test(previous);
    previous = text;
    return { ...word, text, font, width, scale, keyword, joined, sentenceStart };
  });
}

/** Emphasis works when it is rare: at most two keywords a page, the longest ones. */
function limitKeywords(page: Page): void {
  const keywords = page.words.filter((word) => word.keyword);
  if (keywords.length <= MAX_KEYWORDS_PER_PAGE) return;
  const kept = new Set(
    [...keywords]
      .sort(
        (a, b) =>
          Number(/\p{N}/u.test(b.text)) - Number(/\p{N}/u.test(a.text)) || b.width - a.width,
      )
      .slice(0, MAX_KEYWORDS_PER_PAGE),
  );
  for (const word of keywords) {
    if (kept.has(word)) continue;
    // Un-emphasised words only get narrower, so the page's line breaks still fit.
    word.keyword = false;
    word.scale /= KEYWORD_SCALE;
  }
}

function lineWidth(words: readonly LaidWord[], set: Typesetting): number {
  let total = 2 * set.outlinePx + set.shadowPx;
  words.forEach((word, index) => {
    if (index > 0 && !word.joined) total += set.spaceWidth;
    total += word.width * word.scale;
  });
  return total;
}

/**
 * Break words into at most `maxLines` lines that fit, as even as possible and, where any break
 * allows it, with no word alone on a line; undefined if none fits.
 */
function breakLines(
  words: LaidWord[],
  set: Typesetting,
  maxLines: number,
): LaidWord[][] | undefined {
  if (lineWidth(words, set) <= set.safeWidth && words.length <= set.maxWordsPerLine) return [words];
  if (maxLines <= 1 || words.length < 2) return undefined;
  let best: LaidWord[][] | undefined;
  // Compared as (leaves a lone word, widest line): balance only among breaks without widows.
  let bestKey: [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let split = 1; split < words.length; split++) {
    const first = words.slice(0, split);
    const firstWidth = lineWidth(first, set);
    if (firstWidth > set.safeWidth || first.length > set.maxWordsPerLine) break;
    const rest = breakLines(words.slice(split), set, maxLines - 1);
    if (!rest) continue;
    const lines = [first, ...rest];
    const widest = Math.max(firstWidth, ...rest.map((line) => lineWidth(line, set)));
    const key: [number, number] = [hasLoneWordLine(lines) ? 1 : 0, widest];
    if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = lines;
      bestKey = key;
    }
  }
  return best;
}

function paginate(words: LaidWord[], set: Typesetting, turnStarts: readonly number[] = []): Page[] {
  const groups: { words: LaidWord[]; lines: LaidWord[][] }[] = [];
  let current: { words: LaidWord[]; lines: LaidWord[][] } | undefined;
  const breaksBetween = (last: LaidWord, word: LaidWord) =>
    word.startMs - last.endMs >= PAGE_BREAK_PAUSE_MS ||
    SENTENCE_END.test(last.text) ||
    turnStarts.some((turn) => last.startMs < turn && turn <= word.startMs);
  for (const word of words) {
    const last = current?.words[current.words.length - 1];
    const breakHere = last !== undefined && breaksBetween(last, word);
    if (current && !breakHere && current.words.length < set.maxWordsPerPage) {
      const candidate = [...current.words, word];
      const lines = breakLines(candidate, set, set.maxLines);
      if (lines) {
        current = { words: candidate, lines };
        groups[groups.length - 1] = current;
        continue;
      }
    }
    current = { words: [word], lines: [[word]] };
    groups.push(current);
  }
  // A page cut only because it was full carries on into the next: no page of one lone word.
  const pages = avoidLoneWords(
    groups.map((group) => group.words),
    {
      continues: (previous, next) => !breaksBetween(previous[previous.length - 1]!, next[0]!),
      fits: (candidate) =>
        candidate.length <= set.maxWordsPerPage &&
        breakLines([...candidate], set, set.maxLines) !== undefined,
    },
  ).map((pageWords) => ({
    words: pageWords,
    lines: breakLines(pageWords, set, set.maxLines) ?? pageWords.map((word) => [word]),
  }));
  return pages.map((group, index) => {
    const first = group.words[0]!;
    const last = group.words[group.words.length - 1]!;
    const next = pages[index + 1]?.words[0];
    const endMs = Math.max(
      last.endMs,
      Math.min(last.endMs + HOLD_MS, next ? next.startMs : Number.POSITIVE_INFINITY),
    );
    return { lines: group.lines, words: group.words, startMs: first.startMs, endMs };
  });
}

// ---------------------------------------------------------------------------------------------
// Animation: each template turns a page into events with per-word override tags.

interface WordTags {
  open: string;
  close: string;
  /** The template draws this word its own way (a key word's colour would hide it). */
  noEmphasis?: boolean;
}

type Decorate = (word: LaidWord, index: number, scalePercent: number) => WordTags | undefined;

function animatePage(template: CaptionTemplateId, page: Page, set: Typesetting): AssEvent[] {
  const { look } = set;
  const active = assColor(look.activeColor);
  const base = assColor(look.baseColor);
  switch (template) {
    case 'karaoke':
      return [karaokeEvent(page, set)];
    case 'highlight_box':
      return perSpokenWord(page, (activeIndex, startMs, endMs) => [
        // Layer 0 draws only the box (BorderStyle 3) behind the active word; layer 1 the text.
        {
          layer: 0,
          startMs,
          endMs,
          style: 'Box',
          text:
            '{\\1a&HFF&\\3a&HFF&}' +
            renderText(page, set, (_word, index) =>
              index === activeIndex ? { open: '\\3a&H00&', close: '\\3a&HFF&' } : undefined,
            ),
        },
        {
          layer: 1,
          startMs,
          endMs,
          style: 'Main',
          // A key word on the box (both in the highlight colour) keeps the text colour.
          text: renderText(page, set, (_word, index) =>
            index === activeIndex ? { open: '', close: '', noEmphasis: true } : undefined,
          ),
        },
      ]);
    case 'pop_in':
      return perSpokenWord(page, (activeIndex, startMs, endMs) => [
        {
          layer: 0,
          startMs,
          endMs,
          style: 'Main',
          text: renderText(page, set, (_word, index, scale) => {
            // Unspoken words stay in the line, invisible, so spoken words never shift.
            if (index > activeIndex) return { open: '\\alpha&HFF&', close: set.restoreAlpha };
            if (index < activeIndex) return undefined;
            return {
              open: `\\1c${active}\\fscx${pct(scale * 0.7)}\\fscy${pct(scale * 0.7)}\\t(0,90,\\fscx${pct(scale * 1.08)}\\fscy${pct(scale * 1.08)})\\t(90,160,\\fscx${pct(scale)}\\fscy${pct(scale)})`,
              close: `\\1c${base}`,
            };
          }),
        },
      ]);
    case 'one_word':
      return [
        {
          layer: 0,
          startMs: page.startMs,
          endMs: page.endMs,
          style: 'Main',
          text: renderText(page, set, (_word, _index, scale) => ({
            open: `\\fscx${pct(scale * 0.8)}\\fscy${pct(scale * 0.8)}\\t(0,80,\\fscx${pct(scale)}\\fscy${pct(scale)})`,
            close: '',
          })),
        },
      ];
    case 'classic':
      return perSpokenWord(page, (activeIndex, startMs, endMs) => [
        {
          layer: 0,
          startMs,
          endMs,
          style: 'Main',
          text: renderText(page, set, (_word, index) =>
            index <= activeIndex ? { open: `\\1c${active}`, close: `\\1c${base}` } : undefined,
          ),
        },
      ]);
    case 'keyword_color':
      return perSpokenWord(page, (activeIndex, startMs, endMs) => [
        {
          layer: 0,
          startMs,
          endMs,
          style: 'Main',
          text: renderText(page, set, (word, index) => {
            if (word.keyword)
              return {
                open: `\\1c${assColor(set.keywordColor)}`,
                close: `\\1c${base}`,
                noEmphasis: true,
              };
            if (index === activeIndex) return { open: `\\1c${active}`, close: `\\1c${base}` };
            return undefined;
          }),
        },
      ]);
  }
}

/** One state per word: from its start until the next word starts (the page's end for the last). */
function perSpokenWord(
  page: Page,
  eventsFor: (activeIndex: number, startMs: number, endMs: number) => AssEvent[],
): AssEvent[] {
  return page.words.flatMap((word, index) => {
    const startMs = index === 0 ? page.startMs : word.startMs;
    const endMs = page.words[index + 1]?.startMs ?? page.endMs;
    return centis(endMs) > centis(startMs) ? eventsFor(index, startMs, endMs) : [];
  });
}

function karaokeEvent(page: Page, set: Typesetting): AssEvent {
  // \kf sweeps left to right inside a word, wrong for right-to-left words: those switch at once.
  const fill = page.words.some((word) => isRightToLeft(word.text)) ? '\\k' : '\\kf';
  let cursor = centis(page.startMs);
  const tags = new Map<LaidWord, string>();
  for (const word of page.words) {
    const start = Math.max(centis(word.startMs), cursor);
    const gap = start - cursor;
    const duration = Math.max(1, centis(word.endMs) - start);
    tags.set(word, `${gap > 0 ? `\\k${gap}` : ''}${fill}${duration}`);
    cursor = start + duration;
  }
  return {
    layer: 0,
    startMs: page.startMs,
    endMs: page.endMs,
    style: 'Main',
    text: renderText(page, set, (word) => ({ open: tags.get(word)!, close: '' })),
  };
}

/** The page's text: words in their fonts and scales, decorated, lines joined by hard breaks. */
function renderText(page: Page, set: Typesetting, decorate: Decorate): string {
  let wordIndex = 0;
  return page.lines
    .map((line) =>
      line
        .map((word, indexInLine) => {
          const index = wordIndex++;
          const scale = word.scale;
          const decoration = decorate(word, index, scale);
          let open = '';
          let close = '';
          if (word.font !== set.styleFont) {
            open += `\\fn${word.font.family}\\fs${set.sizeFor(word.font)}`;
            close += `\\fn${set.styleFont.family}\\fs${set.size}`;
          }
          if (Math.abs(scale - 1) > 0.005) {
            open += `\\fscx${pct(scale)}\\fscy${pct(scale)}`;
            close += '\\fscx100\\fscy100';
          }
          open += decoration?.open ?? '';
          close += decoration?.close ?? '';
          if (word.keyword && set.emphasis && !decoration?.noEmphasis) {
            // Last, so it wins over the template's colour; both fills, so karaoke keeps it too.
            const key = assColor(set.keywordColor);
            open += `\\1c${key}\\2c${key}`;
            close = `\\1c${assColor(primaryColorOf(set))}\\2c${assColor(secondaryColorOf(set))}${close}`;
          }
          const separator = indexInLine === 0 || word.joined ? '' : ' ';
          return `${separator}${open ? `{${open}}` : ''}${escapeAssText(word.text)}${close ? `{${close}}` : ''}`;
        })
        .join(''),
    )
    .join('\\N');
}

/** The style's fill colours: karaoke fills words from the secondary colour to the primary. */
const primaryColorOf = (set: Typesetting) =>
  set.template === 'karaoke' ? set.look.activeColor : set.look.baseColor;
const secondaryColorOf = (set: Typesetting) =>
  set.template === 'karaoke' ? set.look.baseColor : set.look.activeColor;

/**
 * One emoji after each line whose words call for one, from the moment its word is spoken to the
 * page's end: drawn (in colour) beside the line's end, vertically on the line's middle.
 */
function emojiEvents(page: Page, set: Typesetting, geometry: Geometry): AssEvent[] {
  const events: AssEvent[] = [];
  const centreX = (geometry.marginX + (geometry.width - geometry.marginRight)) / 2;
  const lineHeight = set.size;
  page.lines.forEach((line, lineIndex) => {
    const found = emojiForLine(line);
    if (!found) return;
    const width = lineWidth(line, set);
    const rightToLeft = line.some((word) => isRightToLeft(word.text));
    const gap = set.spaceWidth;
    const x = rightToLeft ? centreX - width / 2 - gap - set.emojiSize : centreX + width / 2 + gap;
    const lineBottom = geometry.sourceBottomY - (page.lines.length - 1 - lineIndex) * lineHeight;
    const y = lineBottom - lineHeight * 0.55 - set.emojiSize / 2;
    const startMs = Math.max(page.startMs, line[found.index]!.startMs);
    for (const text of emojiDrawingTexts(found.emoji, x, y, set.emojiSize)) {
      events.push({ layer: 3, startMs, endMs: page.endMs, style: 'Emoji', text });
    }
  });
  return events;
}

const TITLE_FADE_MS = 200;

/**
 * The hook title: the text in lines that fit the safe area, centred at its top, in a box, over
 * the first seconds; it fades out by the end of them.
 */
function hookTitleEvents(
  hook: HookTitle,
  look: TemplateLook,
  geometry: Geometry,
  sized: SizeChoice,
  font: CaptionFont | undefined,
  input: BuildCaptionsInput,
): { events: AssEvent[]; set: Typesetting } {
  const safe = input.safeArea ?? {
    x: geometry.marginX,
    y: Math.round(geometry.height * 0.06),
    w: geometry.width - geometry.marginX - geometry.marginRight,
    h: Math.round(geometry.height * 0.88),
  };
  const words = splitIntoWords(hook.text, input.language).map((word, index) => ({
    text: word,
    startMs: index,
    endMs: index + 1,
  }));
  let set: Typesetting | undefined;
  let lines: LaidWord[][] | undefined;
  // The largest size (up to the captions' own) at which the title fits in three lines.
  for (const factor of [1, 0.85, 0.7, 0.55, 0.45]) {
    set = typesetting(
      { ...look, uppercase: false, maxLines: 3, maxWordsPerPage: Number.POSITIVE_INFINITY },
      { ...geometry, safeWidth: safe.w * 0.92 },
      words,
      input.language,
      factor,
      { font, letterSize: sized.letterSize === undefined ? undefined : sized.letterSize * factor },
    );
    lines = breakLines(layWords(words, set, undefined), set, 3);
    if (lines) break;
  }
  set = set!;
  lines ??= layWords(words, set, undefined).map((word) => [word]);
  const page: Page = { lines, words: lines.flat(), startMs: 0, endMs: hook.seconds * 1000 };
  const pad = Math.round(set.size * 0.2);
  const x = Math.round(safe.x + safe.w / 2);
  const y = Math.round(safe.y + pad);
  const endMs = Math.round(hook.seconds * 1000);
  const events: AssEvent[] = [
    {
      layer: 4,
      startMs: 0,
      endMs,
      style: 'Title',
      text: `{\\an8\\pos(${x},${y})\\fad(0,${TITLE_FADE_MS})}${renderText(page, set, () => undefined)}`,
    },
  ];
  return { events, set };
}

function translationEvents(
  lines: CaptionWord[],
  set: Typesetting,
  language: string | undefined,
): AssEvent[] {
  const events: AssEvent[] = [];
  for (const line of lines) {
    const words = spreadOverSpan(splitIntoWords(line.text, language), line.startMs, line.endMs);
    const laid = layWords(words, set, undefined);
    for (const page of paginate(laid, set)) {
      events.push({
        layer: 2,
        startMs: page.startMs,
        endMs: Math.max(page.words[page.words.length - 1]!.endMs, page.startMs + 10),
        style: 'Translation',
        text: renderText(page, set, () => undefined),
      });
    }
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// ASS serialisation.

function assDocument(
  geometry: Geometry,
  main: Typesetting,
  translation: Typesetting | undefined,
  events: AssEvent[],
  backing: CaptionBacking,
  title?: Typesetting,
): string {
  const eventRows = events
    .filter((event) => centis(event.endMs) > centis(event.startMs))
    .sort((a, b) => a.startMs - b.startMs || a.layer - b.layer)
    .map(
      (event) =>
        `Dialogue: ${event.layer},${assTime(event.startMs)},${assTime(event.endMs)},${event.style},,0,0,0,,${event.text}`,
    );
  return [
    '[Script Info]',
    '; Made by Moments: word-by-word captions',
    'ScriptType: v4.00+',
    `PlayResX: ${geometry.width}`,
    `PlayResY: ${geometry.height}`,
    `LayoutResX: ${geometry.width}`,
    `LayoutResY: ${geometry.height}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: None',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    ...assStyles(geometry, main, translation, backing, title),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...eventRows,
    '',
  ].join('\n');
}

/** The `Style:` rows: Main (line box or outline), Box (highlight box) and Translation. */
function assStyles(
  geometry: Geometry,
  main: Typesetting,
  translation: Typesetting | undefined,
  backing: CaptionBacking,
  title?: Typesetting,
): string[] {
  const { look } = main;
  const karaoke = main.template === 'karaoke';
  const mainColors = {
    primary: styleColor(karaoke ? look.activeColor : look.baseColor),
    secondary: styleColor(karaoke ? look.baseColor : look.activeColor),
    outline: styleColor(look.outlineColor),
    back: styleColor('#000000', 0x80),
  };
  const bottomMargin = geometry.height - geometry.sourceBottomY;
  // The highlight box template draws its own box per word on layer 0: a line box would cover it.
  const lineBox =
    (backing === 'box' || main.boxColor !== null) && main.template !== 'highlight_box';
  const boxColor = main.boxColor ? styleColor(main.boxColor) : styleColor('#000000', BOX_ALPHA);
  const heavy = backing !== 'none' && !lineBox;
  const bottom = { alignment: 2, marginV: bottomMargin };
  const styles = [
    lineBox
      ? // libass draws BorderStyle 3 as an opaque box around each line, in the outline colour.
        styleRow(geometry, 'Main', main, {
          colors: { ...mainColors, outline: boxColor },
          borderStyle: 3,
          outline: Math.round(main.size * 0.14),
          shadow: 0,
          ...bottom,
        })
      : styleRow(geometry, 'Main', main, {
          colors: mainColors,
          borderStyle: 1,
          outline: heavy ? Math.round(main.outlinePx * HEAVY_OUTLINE * 10) / 10 : main.outlinePx,
          shadow: heavy ? Math.max(main.shadowPx * 2, main.outlinePx) : main.shadowPx,
          ...bottom,
        }),
    // The highlight box: libass draws BorderStyle 3 as a box per glyph, in the outline colour.
    styleRow(geometry, 'Box', main, {
      colors: {
        ...mainColors,
        outline: styleColor(look.activeColor),
        back: styleColor('#000000', 0xff),
      },
      borderStyle: 3,
      outline: Math.round(main.size * 0.16),
      shadow: 0,
      ...bottom,
    }),
  ];
  // Emoji drawings carry their own colour and place: a plain style, no box or outline.
  styles.push(
    styleRow(geometry, 'Emoji', main, {
      colors: mainColors,
      borderStyle: 1,
      outline: 0,
      shadow: 0,
      alignment: 7,
      marginV: 0,
    }),
  );
  if (title) {
    const titleColors = {
      ...mainColors,
      primary: styleColor(look.baseColor),
      outline: title.boxColor ? styleColor(title.boxColor) : styleColor('#000000', BOX_ALPHA),
    };
    styles.push(
      styleRow(geometry, 'Title', title, {
        colors: titleColors,
        borderStyle: 3,
        outline: Math.round(title.size * 0.2),
        shadow: 0,
        alignment: 8,
        marginV: 0,
      }),
    );
  }
  if (translation) {
    styles.push(
      styleRow(geometry, 'Translation', translation, {
        colors: { ...mainColors, primary: styleColor(TRANSLATION_COLOR) },
        borderStyle: 1,
        outline: backing === 'none' ? translation.outlinePx : translation.outlinePx * HEAVY_OUTLINE,
        shadow: backing === 'none' ? translation.shadowPx : translation.outlinePx,
        alignment: 8,
        marginV: geometry.translationTopY,
      }),
    );
  }
  return styles;
}

interface StyleLook {
  colors: { primary: string; secondary: string; outline: string; back: string };
  borderStyle: number;
  outline: number;
  shadow: number;
  alignment: number;
  marginV: number;
}

/** One `Style:` row in the order of the Format line. */
function styleRow(geometry: Geometry, name: string, set: Typesetting, style: StyleLook): string {
  const { colors } = style;
  return [
    `Style: ${name}`,
    set.styleFont.family,
    set.size,
    colors.primary,
    colors.secondary,
    colors.outline,
    colors.back,
    -1, // bold: captions use the bold faces
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    style.borderStyle,
    style.outline,
    style.shadow,
    style.alignment,
    geometry.marginX,
    geometry.marginRight,
    style.marginV,
    // Encoding -1 lets libass pick the base direction from the text, so an Arabic line ending
    // in "?" or a number keeps them on the left.
    -1,
  ].join(',');
}

/** Text can never open an override block or form an escape such as `\N`. */
function escapeAssText(text: string): string {
  return text.replace(/\\/g, '\\\u2060').replace(/\{/g, '(').replace(/\}/g, ')');
}

function centis(ms: number): number {
  return Math.round(ms / 10);
}

function assTime(ms: number): string {
  const total = centis(ms);
  const cs = total % 100;
  const seconds = Math.floor(total / 100) % 60;
  const minutes = Math.floor(total / 6000) % 60;
  const hours = Math.floor(total / 360000);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${hours}:${two(minutes)}:${two(seconds)}.${two(cs)}`;
}

function pct(scale: number): number {
  return Math.round(scale * 100);
}

/** `#RRGGBB` → override colour `&HBBGGRR&`. */
function assColor(hex: string): string {
  const [r, g, b] = rgb(hex);
  return `&H${b}${g}${r}&`;
}

/**
 * `#RRGGBB` + alpha (0 opaque … 255 transparent) → style colour `&HAABBGGRR`; a `#RRGGBBAA`
 * colour brings its own opacity (ff opaque).
 */
function styleColor(hex: string, alpha = alphaOf(hex)): string {
  const [r, g, b] = rgb(hex);
  return `&H${hexByte(alpha)}${b}${g}${r}`;
}

/** ASS transparency (0 opaque … 255 invisible) of `#RRGGBBAA` (ff opaque); 0 for `#RRGGBB`. */
function alphaOf(hex: string): number {
  return hex.length === 9 ? 255 - Number.parseInt(hex.slice(7, 9), 16) : 0;
}

const hexByte = (value: number) => value.toString(16).padStart(2, '0').toUpperCase();

function rgb(hex: string): [string, string, string] {
  const value = hex.replace('#', '').toUpperCase();
  return [value.slice(0, 2), value.slice(2, 4), value.slice(4, 6)];
}
