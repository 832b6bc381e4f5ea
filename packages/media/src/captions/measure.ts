/**
 * Text measurement with HarfBuzz (the shaper libass itself uses) on the same font files, so a
 * line we measure as fitting also fits when libass draws it: Arabic joining, Devanagari conjuncts
 * and Thai marks change widths in ways per-character tables miss.
 */
import { readFileSync } from 'node:fs';
import * as hb from 'harfbuzzjs';
import { MediaError } from '../errors/index.js';
import { captionFontByFamily, fontFilePath, type CaptionFont } from './fonts';

interface LoadedFont {
  font: hb.Font;
  upem: number;
  /** usWinAscent + usWinDescent in font units: libass sizes fonts so that this equals `\fs`. */
  cellHeight: number;
}

const blobs = new Map<string, hb.Blob>();
const fonts = new Map<string, LoadedFont>();

function loadFont(captionFont: CaptionFont): LoadedFont {
  const key = `${captionFont.fileName}#${captionFont.faceIndex}`;
  const cached = fonts.get(key);
  if (cached) return cached;
  const path = fontFilePath(captionFont);
  if (!path) {
    throw new MediaError('FONTS_MISSING', `Font file ${captionFont.fileName} is not installed`);
  }
  let blob = blobs.get(path);
  if (!blob) {
    blob = new hb.Blob(readFileSync(path));
    blobs.set(path, blob);
  }
  const face = new hb.Face(blob, captionFont.faceIndex);
  const loaded = { font: new hb.Font(face), upem: face.upem, cellHeight: cellHeightOf(face) };
  fonts.set(key, loaded);
  return loaded;
}

// libass (ass_font.c, set_font_metrics) mimics GDI: the font size is the Windows ascent + descent
// from the OS/2 table, falling back to the hhea extents.
function cellHeightOf(face: hb.Face): number {
  const os2 = face.referenceTable('OS/2');
  if (os2 && os2.byteLength >= 78) {
    const view = new DataView(os2.buffer, os2.byteOffset, os2.byteLength);
    const sum = view.getInt16(74) + view.getInt16(76);
    if (sum > 0) return sum;
  }
  const extents = new hb.Font(face).hExtents();
  return extents.ascender - extents.descender || face.upem;
}

interface Shaped {
  advance: number;
  missingGlyphs: number;
}

function shape(text: string, captionFont: CaptionFont): Shaped & { loaded: LoadedFont } {
  const loaded = loadFont(captionFont);
  // harfbuzzjs frees the buffer's wasm memory through a FinalizationRegistry.
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(loaded.font, buffer);
  let advance = 0;
  let missingGlyphs = 0;
  const infos = buffer.getGlyphInfos();
  const positions = buffer.getGlyphPositions();
  for (let index = 0; index < infos.length; index++) {
    advance += positions[index]!.xAdvance;
    if (infos[index]!.codepoint === 0) missingGlyphs++;
  }
  return { advance, missingGlyphs, loaded };
}

/** Width in pixels of `text` drawn by libass in `captionFont` at ASS font size `sizePx`. */
export function measureWith(text: string, captionFont: CaptionFont, sizePx: number): number {
  if (!text) return 0;
  const { advance, loaded } = shape(text, captionFont);
  return (advance * sizePx) / loaded.cellHeight;
}

/**
 * Width in pixels of `text` in one of the caption families (see `captionFontFiles()`), at ASS font
 * size `sizePx` (libass semantics: the size is the font's full cell height, not its em).
 */
export function measureTextWidth(text: string, fontFamily: string, sizePx: number): number {
  const captionFont = captionFontByFamily(fontFamily);
  if (!captionFont) {
    throw new MediaError('UNKNOWN_FONT', `"${fontFamily}" is not a caption font family`);
  }
  return measureWith(text, captionFont, sizePx);
}

/** Whether the font has a glyph for every character of `text` (no tofu boxes). */
export function fontCovers(text: string, captionFont: CaptionFont): boolean {
  if (!fontFilePath(captionFont)) return false;
  return shape(text, captionFont).missingGlyphs === 0;
}

/** The font's cell height (what libass calls its size) in ems: 1.36 for Noto Sans, 2.11 for Arabic. */
export function cellHeightInEms(captionFont: CaptionFont): number {
  const loaded = loadFont(captionFont);
  return loaded.cellHeight / loaded.upem;
}
