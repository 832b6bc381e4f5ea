/**
 * Caption fonts: which Noto family draws which script, where its file is, and one folder holding
 * exactly those files for libass. The exporter (ffmpeg `ass` filter, `fontsdir`) and the browser
 * preview (JASSUB, fed by `captionFontFiles()`) load the same files, so preview equals export.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { MediaError } from '../errors/index.js';
import { captionFontDirs, onMediaToolsConfigured } from '../tools/index.js';

export interface CaptionFont {
  /** Family name inside the font file; the ASS `Fontname` and JASSUB's font key. */
  family: string;
  /** File name of the bold face (captions are always bold). */
  fileName: string;
  /** Face index inside a font collection (.ttc), 0 for plain font files. */
  faceIndex: number;
}

export interface CaptionFontFile {
  family: string;
  /** Absolute path of the font file on this machine. */
  file: string;
}

const font = (family: string, fileName: string, faceIndex = 0): CaptionFont => ({
  family,
  fileName,
  faceIndex,
});

// The face order inside NotoSansCJK-Bold.ttc is JP, KR, SC, TC, HK (checked with harfbuzz).
const CJK_FILE = 'NotoSansCJK-Bold.ttc';
const FONTS = {
  latin: font('Noto Sans', 'NotoSans-Bold.ttf'),
  // Other looks for Latin, Greek and Cyrillic words a creator may pick in the style editor.
  serif: font('Noto Serif', 'NotoSerif-Bold.ttf'),
  display: font('Noto Sans Display', 'NotoSansDisplay-Bold.ttf'),
  serifDisplay: font('Noto Serif Display', 'NotoSerifDisplay-Bold.ttf'),
  arabic: font('Noto Sans Arabic', 'NotoSansArabic-Bold.ttf'),
  hebrew: font('Noto Sans Hebrew', 'NotoSansHebrew-Bold.ttf'),
  devanagari: font('Noto Sans Devanagari', 'NotoSansDevanagari-Bold.ttf'),
  thai: font('Noto Sans Thai', 'NotoSansThai-Bold.ttf'),
  bengali: font('Noto Sans Bengali', 'NotoSansBengali-Bold.ttf'),
  tamil: font('Noto Sans Tamil', 'NotoSansTamil-Bold.ttf'),
  telugu: font('Noto Sans Telugu', 'NotoSansTelugu-Bold.ttf'),
  kannada: font('Noto Sans Kannada', 'NotoSansKannada-Bold.ttf'),
  malayalam: font('Noto Sans Malayalam', 'NotoSansMalayalam-Bold.ttf'),
  gujarati: font('Noto Sans Gujarati', 'NotoSansGujarati-Bold.ttf'),
  gurmukhi: font('Noto Sans Gurmukhi', 'NotoSansGurmukhi-Bold.ttf'),
  oriya: font('Noto Sans Oriya', 'NotoSansOriya-Bold.ttf'),
  sinhala: font('Noto Sans Sinhala', 'NotoSansSinhala-Bold.ttf'),
  khmer: font('Noto Sans Khmer', 'NotoSansKhmer-Bold.ttf'),
  lao: font('Noto Sans Lao', 'NotoSansLao-Bold.ttf'),
  myanmar: font('Noto Sans Myanmar', 'NotoSansMyanmar-Bold.ttf'),
  georgian: font('Noto Sans Georgian', 'NotoSansGeorgian-Bold.ttf'),
  armenian: font('Noto Sans Armenian', 'NotoSansArmenian-Bold.ttf'),
  ethiopic: font('Noto Sans Ethiopic', 'NotoSansEthiopic-Bold.ttf'),
  japanese: font('Noto Sans CJK JP', CJK_FILE, 0),
  korean: font('Noto Sans CJK KR', CJK_FILE, 1),
  chineseSimplified: font('Noto Sans CJK SC', CJK_FILE, 2),
  chineseTraditional: font('Noto Sans CJK TC', CJK_FILE, 3),
} as const satisfies Record<string, CaptionFont>;

const LATIN_SCRIPTS = ['Latin', 'Greek', 'Cyrillic'];
const CJK_SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Hangul', 'Latin'];

/** The scripts each family draws, as the style editor lists them (Unicode script names). */
const FAMILY_SCRIPTS: Record<keyof typeof FONTS, string[]> = {
  latin: LATIN_SCRIPTS,
  serif: LATIN_SCRIPTS,
  display: LATIN_SCRIPTS,
  serifDisplay: LATIN_SCRIPTS,
  arabic: ['Arabic'],
  hebrew: ['Hebrew'],
  devanagari: ['Devanagari', 'Latin'],
  thai: ['Thai'],
  bengali: ['Bengali'],
  tamil: ['Tamil'],
  telugu: ['Telugu'],
  kannada: ['Kannada'],
  malayalam: ['Malayalam'],
  gujarati: ['Gujarati'],
  gurmukhi: ['Gurmukhi'],
  oriya: ['Oriya'],
  sinhala: ['Sinhala'],
  khmer: ['Khmer'],
  lao: ['Lao'],
  myanmar: ['Myanmar'],
  georgian: ['Georgian'],
  armenian: ['Armenian'],
  ethiopic: ['Ethiopic'],
  japanese: CJK_SCRIPTS,
  korean: CJK_SCRIPTS,
  chineseSimplified: CJK_SCRIPTS,
  chineseTraditional: CJK_SCRIPTS,
};

export interface InstalledCaptionFamily {
  family: string;
  /** Unicode scripts the family draws (`Latin`, `Arabic`, `Han`...). */
  scripts: string[];
}

/**
 * The caption families installed on this machine, with the scripts each draws: what a style's
 * `font_family` may name. Words in a script the chosen family lacks keep their script's font.
 */
export function installedCaptionFamilies(): InstalledCaptionFamily[] {
  return (Object.keys(FONTS) as (keyof typeof FONTS)[])
    .filter((key) => fontFilePath(FONTS[key]) !== undefined)
    .map((key) => ({ family: FONTS[key].family, scripts: FAMILY_SCRIPTS[key] }));
}

/** The installed caption font of this family (exact name), or undefined. */
export function installedCaptionFont(family: string): CaptionFont | undefined {
  const found = captionFontByFamily(family);
  return found && fontFilePath(found) ? found : undefined;
}

/** Unicode script → font, tried in order on a word's first strongly-scripted character. */
const SCRIPT_FONTS: [RegExp, CaptionFont][] = [
  [/\p{Script=Arabic}/u, FONTS.arabic],
  [/\p{Script=Hebrew}/u, FONTS.hebrew],
  [/\p{Script=Devanagari}/u, FONTS.devanagari],
  [/\p{Script=Thai}/u, FONTS.thai],
  [/\p{Script=Bengali}/u, FONTS.bengali],
  [/\p{Script=Tamil}/u, FONTS.tamil],
  [/\p{Script=Telugu}/u, FONTS.telugu],
  [/\p{Script=Kannada}/u, FONTS.kannada],
  [/\p{Script=Malayalam}/u, FONTS.malayalam],
  [/\p{Script=Gujarati}/u, FONTS.gujarati],
  [/\p{Script=Gurmukhi}/u, FONTS.gurmukhi],
  [/\p{Script=Oriya}/u, FONTS.oriya],
  [/\p{Script=Sinhala}/u, FONTS.sinhala],
  [/\p{Script=Khmer}/u, FONTS.khmer],
  [/\p{Script=Lao}/u, FONTS.lao],
  [/\p{Script=Myanmar}/u, FONTS.myanmar],
  [/\p{Script=Georgian}/u, FONTS.georgian],
  [/\p{Script=Armenian}/u, FONTS.armenian],
  [/\p{Script=Ethiopic}/u, FONTS.ethiopic],
  [/\p{Script=Hangul}/u, FONTS.korean],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, FONTS.japanese],
  [/\p{Script=Han}/u, FONTS.chineseSimplified],
];

/** Language (BCP 47 primary subtag, as whisper reports it) → font. */
const LANGUAGE_FONTS: Record<string, CaptionFont> = {
  ar: FONTS.arabic,
  fa: FONTS.arabic,
  ur: FONTS.arabic,
  ps: FONTS.arabic,
  ug: FONTS.arabic,
  he: FONTS.hebrew,
  yi: FONTS.hebrew,
  hi: FONTS.devanagari,
  mr: FONTS.devanagari,
  ne: FONTS.devanagari,
  sa: FONTS.devanagari,
  th: FONTS.thai,
  bn: FONTS.bengali,
  as: FONTS.bengali,
  ta: FONTS.tamil,
  te: FONTS.telugu,
  kn: FONTS.kannada,
  ml: FONTS.malayalam,
  gu: FONTS.gujarati,
  pa: FONTS.gurmukhi,
  or: FONTS.oriya,
  si: FONTS.sinhala,
  km: FONTS.khmer,
  lo: FONTS.lao,
  my: FONTS.myanmar,
  ka: FONTS.georgian,
  hy: FONTS.armenian,
  am: FONTS.ethiopic,
  ti: FONTS.ethiopic,
  ja: FONTS.japanese,
  ko: FONTS.korean,
  zh: FONTS.chineseSimplified,
  yue: FONTS.chineseTraditional,
};

/** Scripts written without spaces between words: words from the transcript are joined directly. */
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const RTL_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

export function writtenWithoutSpaces(text: string): boolean {
  return NO_SPACE_SCRIPT.test(text);
}

export function isRightToLeft(text: string): boolean {
  return RTL_SCRIPT.test(text);
}

/**
 * The font for a language code (`ar`, `zh-TW`, `ja`...) or, when given text, for the script the
 * text is written in. Text wins over the code when both are meaningful: a Latin brand name in an
 * Arabic transcript keeps Noto Sans.
 */
export function fontForLanguage(langOrText: string): CaptionFont {
  const code = langOrText.trim().toLowerCase();
  if (/^[a-z]{2,3}([-_][a-z0-9]{2,8})*$/.test(code)) {
    const [primary, region] = code.split(/[-_]/);
    if (primary === 'zh' && region && /^(tw|hk|mo|hant)$/.test(region)) {
      return FONTS.chineseTraditional;
    }
    return LANGUAGE_FONTS[primary!] ?? FONTS.latin;
  }
  return fontForScript(langOrText) ?? FONTS.latin;
}

/** Font for the first character of `text` whose script has a dedicated font, if any. */
export function fontForScript(text: string, language?: string): CaptionFont | undefined {
  for (const char of text) {
    for (const [pattern, scriptFont] of SCRIPT_FONTS) {
      if (!pattern.test(char)) continue;
      // Han characters are shared by Chinese and Japanese; the language picks the glyph style.
      const langFont = language ? fontForLanguage(language) : undefined;
      if (scriptFont.fileName === CJK_FILE && langFont?.fileName === CJK_FILE) return langFont;
      return scriptFont;
    }
  }
  return undefined;
}

/** The caption font with this family name, if it is one of ours. */
export function captionFontByFamily(family: string): CaptionFont | undefined {
  return Object.values(FONTS).find((entry) => entry.family === family);
}

/** Families tried, in order, when a word's own font lacks some of its characters. */
export function fallbackFonts(language?: string): CaptionFont[] {
  const cjk = language ? fontForLanguage(language) : undefined;
  return [FONTS.latin, cjk?.fileName === CJK_FILE ? cjk : FONTS.chineseSimplified];
}

const fontRoots = captionFontDirs;

const pathCache = new Map<string, string | null>();
onMediaToolsConfigured(() => pathCache.clear());

/** Absolute path of a caption font file, or undefined when it is not installed. */
export function fontFilePath(captionFont: CaptionFont): string | undefined {
  let path = pathCache.get(captionFont.fileName);
  if (path === undefined) {
    path =
      fontRoots()
        .map((root) => join(root, captionFont.fileName))
        .find((candidate) => existsSync(candidate)) ?? null;
    pathCache.set(captionFont.fileName, path);
  }
  return path ?? undefined;
}

/**
 * Every caption family with its file, for the web server to serve to JASSUB. A collection file
 * (.ttc) appears once per family; libass finds the right face inside it by name.
 */
export function captionFontFiles(): CaptionFontFile[] {
  return Object.values(FONTS).flatMap((captionFont) => {
    const file = fontFilePath(captionFont);
    return file ? [{ family: captionFont.family, file }] : [];
  });
}

/**
 * A folder holding only the caption fonts (symlinks), for the `ass` filter's `fontsdir`. Pointing
 * libass at the whole Noto folder would make it read hundreds of files for every render.
 */
export function captionFontsDir(): string {
  const files = [...new Set(captionFontFiles().map((entry) => entry.file))].sort();
  if (!files.some((file) => basename(file) === FONTS.latin.fileName)) {
    throw new MediaError(
      'FONTS_MISSING',
      `Caption fonts not found in ${fontRoots().join(', ')} (install fonts-noto-core and fonts-noto-cjk)`,
    );
  }
  const digest = createHash('sha1').update(files.join('\n')).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `moments-caption-fonts-${digest}`);
  mkdirSync(dir, { recursive: true });
  const present = new Set(readdirSync(dir));
  for (const file of files) {
    if (present.has(basename(file))) continue;
    try {
      symlinkSync(file, join(dir, basename(file)));
    } catch (error) {
      // Another render may have linked it a moment ago.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return dir;
}
