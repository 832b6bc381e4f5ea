import {
  transcriptWords as storedTranscriptWords,
  type StoredTranscript as DomainStoredTranscript,
} from '@moments/domain/transcript';
import { snapEdge } from '@moments/domain/trim';
import path from 'node:path';
import type {
  CaptionDisplay,
  CaptionPosition,
  CaptionSize,
  CaptionStyle,
  ExportAspect,
  ExportQuality,
  HookTitle,
  Platform,
} from '@moments/contract';
import { captionKeywords } from '@moments/ai/language';
import { safeRect } from '@moments/domain/platforms';
import { withoutFillers } from '@moments/domain/captions';
import { planCut, wordsKept, type CutPlan, type Span } from '@moments/domain/cuts';
import { ERROR_CODES } from '@moments/contract';
import type { Translator } from '@moments/ai/translate';
import {
  buildCaptionsAss,
  captionFontFiles,
  retimeWords,
  withBrandCards,
  type CaptionBacking,
  type CaptionRegion,
  type CaptionTemplateId,
  type CaptionWord,
} from '@moments/media/captions';
import {
  captionRegion,
  outputSize,
  type LayoutChoice,
  type ReframePlan,
  type Size,
} from '@moments/media/reframe';
import { AppError } from '../../http/errors.js';
import type { ResolvedBrandKit } from '../brand-kits/brand-kits.service.js';

/** A stored transcript as the task runner saved it (ms times): the shape in packages/domain. */
export type StoredTranscript = Pick<DomainStoredTranscript, 'language'> & {
  segments: { startMs: number; endMs: number; text: string; words: CaptionWord[] }[];
};

/** Export options after validation: the trim is final (snapped), defaults filled in. */
export interface ResolvedClipOptions {
  aspect: ExportAspect;
  quality: ExportQuality;
  template: CaptionTemplateId;
  captionDisplay: CaptionDisplay;
  sourceLang: string;
  targetLang: string | null;
  startMs: number;
  endMs: number;
  transcriptText: string | null;
  /** The framing asked for (`blur_fit`, its older name, is read as `fit`). */
  layout: LayoutChoice;
  /** Optional: jobs stored before caption placement existed lack it. */
  captionPosition?: CaptionPosition;
  captionSize?: CaptionSize;
  removeFillers?: boolean;
  /** Source spans the user deleted (checked to lie inside the clip, apart); absent: none. */
  cuts?: Span[];
  /** Pauses longer than this are shortened to it; absent: pauses stay. */
  minPauseMs?: number;
  /**
   * The caption style: the brand kit's, then the request's own fields over it (the caption
   * style's owner draws it); absent: the template's look.
   */
  style?: CaptionStyle;
  /** The platform whose safe zone the overlays keep to. */
  platform?: Platform;
  /** The brand kit applied: its logo, cards and style, as they were when the clip was asked for. */
  brandKit?: ResolvedBrandKit;
  hookTitle?: HookTitle;
}

/** Letter size per caption size; medium is the house size, readable on a 6-inch phone. */
const CAPTION_SIZE_SCALE: Record<CaptionSize, number> = {
  small: 0.85,
  medium: 1,
  large: 1.2,
};

export interface ClipCaptions {
  ass: string;
  width: number;
  height: number;
  /** Caption words in source time (re-timed when the transcript was edited). */
  words: CaptionWord[];
  /** Families the document names, with the file that holds each. */
  fonts: { family: string; file: string }[];
}

/** Where the caption font files are served (GET /api/captions/fonts/:file). */
export const CAPTION_FONTS_ROUTE = '/api/captions/fonts';

/**
 * The one way captions are made, for the editor's preview and for the exporter alike, so the
 * browser (JASSUB) draws exactly the document ffmpeg burns in (design.md: preview equals export).
 */
export async function buildClipCaptions(
  transcript: StoredTranscript,
  options: ResolvedClipOptions,
  source: Size,
  translator: Translator,
  signal?: AbortSignal,
  /** Help for the template on a light or busy background, and its place (`captionPlacement`). */
  placement: CaptionPlacement = { backing: 'none' },
): Promise<ClipCaptions> {
  const frame = exportFrameSize(options.aspect, options.quality, source);
  const { words, translationLines } = await captionText(transcript, options, translator, signal);

  const ass = buildCaptionsAss({
    words,
    translationLines,
    template: options.template,
    display: options.captionDisplay,
    width: frame.width,
    height: frame.height,
    language: transcript.language,
    translationLanguage: options.targetLang ?? undefined,
    offsetMs: options.startMs,
    turnStartsMs: transcript.segments.slice(1).map((segment) => segment.startMs),
    position: options.captionPosition,
    sizeScale: CAPTION_SIZE_SCALE[options.captionSize ?? 'medium'],
    backing: placement.backing,
    region: placement.region,
    style: options.style,
    hookTitle: options.hookTitle,
    safeArea: safeRect(options.platform ?? 'generic', frame),
    keywords: keywordsFor(words, transcript.language, options),
  });
  const kit = options.brandKit;
  const branded = kit
    ? withBrandCards(ass, {
        introText: kit.introText,
        outroText: kit.outroText,
        durationMs: options.endMs - options.startMs,
        ...frame,
        ...(options.style?.text_color && { textColor: options.style.text_color }),
      })
    : ass;
  return { ass: branded, ...frame, words, fonts: fontsUsedBy(branded) };
}

/**
 * The words emphasis picks out (numbers, names, keyphrases) when the style asks for it; undefined
 * leaves the choice to the caption builder (numbers and long words, any language).
 */
function keywordsFor(
  words: readonly CaptionWord[],
  language: string,
  options: ResolvedClipOptions,
): string[] | undefined {
  const emphasis =
    options.style?.emphasis ?? (options.template === 'keyword_color' ? 'keywords' : 'none');
  if (emphasis !== 'keywords' || words.length === 0) return undefined;
  return captionKeywords(words.map((word) => word.text).join(' '), language);
}

export interface CaptionPlacement {
  backing: CaptionBacking;
  region?: CaptionRegion;
}

/**
 * Where the framing lets the captions sit and what they need on the picture under them. Bottom
 * captions of stacked panes (two people, a slide over its speaker) move into the gap between the
 * faces, never across one. Then a box on a light picture (white letters on a white slide), a
 * heavy outline on a busy one, the template as it is otherwise.
 */
export function captionPlacement(
  plan: Pick<ReframePlan, 'captionBackground' | 'segments'> | undefined,
  position: CaptionPosition = 'bottom',
): CaptionPlacement {
  const verdict = plan?.captionBackground[position];
  const backing = verdict === 'light' ? 'box' : verdict === 'busy' ? 'outline' : 'none';
  const region = plan && position === 'bottom' ? captionRegion(plan) : null;
  return region ? { backing, region } : { backing };
}

/**
 * The caption words of the span (the edit re-timed, fillers dropped when asked) and, when the
 * display needs it, the translated lines, each timed to the transcript line it translates.
 */
export async function captionText(
  transcript: StoredTranscript,
  options: ResolvedClipOptions,
  translator: Translator,
  signal?: AbortSignal,
): Promise<{ words: CaptionWord[]; translationLines?: CaptionWord[] }> {
  const spanWords = wordsInSpan(transcript, options.startMs, options.endMs);
  const edited =
    options.transcriptText !== null
      ? retimeWords(spanWords, options.transcriptText, transcript.language)
      : spanWords;
  const withFillersCut = options.removeFillers ? withoutFillers(edited) : edited;
  // Deleted words have no caption (the cut is made at the same word boundaries).
  const words = options.cuts?.length
    ? wordsKept(
        withFillersCut,
        clipCutPlan(transcript, { ...options, minPauseMs: undefined }).removed,
      )
    : withFillersCut;
  if (!needsTranslation(options.captionDisplay)) return { words };
  const lines = translationSourceLines(words, transcript, options.startMs, options.endMs);
  const translated = await translateLines(
    translator,
    lines,
    transcript.language,
    requireTargetLang(options),
    signal,
  );
  return {
    words,
    translationLines: lines.map((line, index) => ({ ...line, text: translated[index] ?? '' })),
  };
}

/** The caption words of the span before fillers are dropped: the transcript's, or the edit re-timed. */
function clipWords(transcript: StoredTranscript, options: ResolvedClipOptions): CaptionWord[] {
  const spanWords = wordsInSpan(transcript, options.startMs, options.endMs);
  return options.transcriptText !== null
    ? retimeWords(spanWords, options.transcriptText, transcript.language)
    : spanWords;
}

/** Whether the export cuts anything out of its span (and so needs a cut plan). */
export const cutsClip = (options: ResolvedClipOptions) =>
  !!options.cuts?.length || !!options.removeFillers || options.minPauseMs !== undefined;

/**
 * The cut of a clip, the export's and the editor's player's: deleted words, fillers and the
 * long part of pauses (`silences`: the audio's silent stretches, when measured), in source ms.
 */
export function clipCutPlan(
  transcript: StoredTranscript,
  options: ResolvedClipOptions,
  silences?: readonly Span[],
): CutPlan {
  return planCut({
    clip: { startMs: options.startMs, endMs: options.endMs },
    words: clipWords(transcript, options),
    cuts: options.cuts,
    removeFillers: options.removeFillers,
    minPauseMs: options.minPauseMs,
    silences,
  });
}

const needsTranslation = (display: CaptionDisplay) => display === 'all' || display === 'translate';

function requireTargetLang(options: ResolvedClipOptions): string {
  if (!options.targetLang) {
    throw new AppError(
      ERROR_CODES.BAD_REQUEST,
      400,
      'Choose a language to translate the captions into (target_lang).',
    );
  }
  return options.targetLang;
}

/**
 * Refuses early, before any work, when translation is needed and no engine is configured: asking
 * the translator for zero lines costs nothing and fails exactly when a real request would.
 */
export async function assertTranslationAvailable(
  translator: Translator,
  options: ResolvedClipOptions,
  transcriptLanguage: string,
): Promise<void> {
  if (!needsTranslation(options.captionDisplay)) return;
  await translateLines(translator, [], transcriptLanguage, requireTargetLang(options));
}

/**
 * Translations are cached by their exact input: an LLM may word a line differently each time,
 * and the export must show what the preview showed.
 */
const translationCache = new Map<string, string[]>();
const TRANSLATION_CACHE_SIZE = 200;

async function translateLines(
  translator: Translator,
  lines: readonly { text: string }[],
  from: string,
  to: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const key = JSON.stringify([from, to, lines.map((line) => line.text)]);
  const cached = translationCache.get(key);
  if (cached) return cached;
  let translated: string[];
  try {
    translated = await translator.translateLines(lines, from, to, { signal });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'TRANSLATION_UNAVAILABLE') {
      throw new AppError(ERROR_CODES.TRANSLATION_UNAVAILABLE, 422, (error as Error).message);
    }
    if (code === 'TRANSLATION_FAILED') {
      throw new AppError(ERROR_CODES.TRANSLATION_FAILED, 502, (error as Error).message);
    }
    throw error;
  }
  if (lines.length) {
    translationCache.set(key, translated);
    if (translationCache.size > TRANSLATION_CACHE_SIZE) {
      translationCache.delete(translationCache.keys().next().value!);
    }
  }
  return translated;
}

/** Pixel size of the exported video; `original` keeps the source's shape at the chosen short side. */
export function exportFrameSize(aspect: ExportAspect, quality: ExportQuality, source: Size): Size {
  if (aspect !== 'original') return outputSize(aspect, quality);
  const shortSide = quality === '1080p' ? 1080 : 720;
  const scale = shortSide / Math.min(source.width, source.height);
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  return { width: even(source.width * scale), height: even(source.height * scale) };
}

/** Every transcript word, in time order. */
function transcriptWords(transcript: StoredTranscript): CaptionWord[] {
  return storedTranscriptWords(transcript.segments);
}

/** Words spoken inside the span (by their middle), so a word cut by the trim is kept whole or dropped. */
function wordsInSpan(transcript: StoredTranscript, startMs: number, endMs: number): CaptionWord[] {
  return transcriptWords(transcript).filter((word) => {
    const middle = (word.startMs + word.endMs) / 2;
    return middle >= startMs && middle <= endMs;
  });
}

/**
 * Moves a trim edge the user chose to a nearby word start (for the start) or word end (for the
 * end), by the rule the editor's handles use (packages/domain); an edge left undefined is kept.
 */
export function snapToWords(
  transcript: StoredTranscript,
  span: { startMs: number; endMs: number },
  chosen: { startMs?: number; endMs?: number },
): { startMs: number; endMs: number } {
  const words = transcriptWords(transcript);
  const snapped = (given: number | undefined, edge: number, key: 'startMs' | 'endMs') =>
    given === undefined
      ? edge
      : snapEdge(
          given,
          words.map((word) => word[key]),
        );
  const startMs = snapped(chosen.startMs, span.startMs, 'startMs');
  const endMs = snapped(chosen.endMs, span.endMs, 'endMs');
  // Snapping never turns a valid range into an empty one.
  if (endMs <= startMs) return span;
  return { startMs, endMs };
}

/**
 * Lines to translate: the span's words grouped by the transcript segment they were spoken in,
 * each line keeping the time of its speech.
 */
function translationSourceLines(
  words: readonly CaptionWord[],
  transcript: StoredTranscript,
  startMs: number,
  endMs: number,
): CaptionWord[] {
  const segments = transcript.segments.filter(
    (segment) => segment.endMs > startMs && segment.startMs < endMs,
  );
  const joiner = /^(zh|ja|th|lo|km|my)/.test(transcript.language) ? '' : ' ';
  const groups = new Map<number, CaptionWord[]>();
  for (const word of words) {
    const middle = (word.startMs + word.endMs) / 2;
    let index = segments.findIndex((segment) => middle < segment.endMs);
    if (index < 0) index = segments.length - 1;
    groups.set(index, [...(groups.get(index) ?? []), word]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, group]) => ({
      text: group.map((word) => word.text).join(joiner),
      startMs: group[0]!.startMs,
      endMs: group[group.length - 1]!.endMs,
    }));
}

/** The caption fonts an ASS document names (style lines and `\fn` overrides). */
function fontsUsedBy(ass: string): { family: string; file: string }[] {
  const families = new Set<string>();
  for (const match of ass.matchAll(/^Style:\s*[^,]*,([^,]+),/gm)) families.add(match[1]!.trim());
  for (const match of ass.matchAll(/\\fn([^\\}]+)/g)) families.add(match[1]!.trim());
  return captionFontFiles().filter((font) => families.has(font.family));
}

/** Public URL of a caption font file. */
export const captionFontUrl = (file: string) => `${CAPTION_FONTS_ROUTE}/${path.basename(file)}`;
