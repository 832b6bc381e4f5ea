import path from 'node:path';
import type { CaptionDisplay, ExportAspect, ExportQuality } from '@moments/contract';
import { ERROR_CODES } from '@moments/contract';
import type { Translator } from '@moments/ai/translate';
import {
  buildCaptionsAss,
  captionFontFiles,
  retimeWords,
  type CaptionTemplateId,
  type CaptionWord,
} from '@moments/media/captions';
import { outputSize, type Size } from '@moments/media/reframe';
import { AppError } from '../../http/errors.js';

/** A stored transcript as the task runner saved it (ms times). */
export interface StoredTranscript {
  language: string;
  segments: { startMs: number; endMs: number; text: string; words: CaptionWord[] }[];
}

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
  layout: 'auto' | 'blur_fit';
}

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
): Promise<ClipCaptions> {
  const frame = exportFrameSize(options.aspect, options.quality, source);
  const spanWords = wordsInSpan(transcript, options.startMs, options.endMs);
  const words =
    options.transcriptText !== null
      ? retimeWords(spanWords, options.transcriptText, transcript.language)
      : spanWords;

  let translationLines: CaptionWord[] | undefined;
  if (needsTranslation(options.captionDisplay)) {
    const lines = translationSourceLines(words, transcript, options.startMs, options.endMs);
    const translated = await translateLines(
      translator,
      lines,
      transcript.language,
      requireTargetLang(options),
      signal,
    );
    translationLines = lines.map((line, index) => ({ ...line, text: translated[index] ?? '' }));
  }

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
  });
  return { ass, ...frame, words, fonts: fontsUsedBy(ass) };
}

export const needsTranslation = (display: CaptionDisplay) =>
  display === 'all' || display === 'translate';

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
      throw new AppError(ERROR_CODES.TRANSLATION_UNAVAILABLE, 400, (error as Error).message);
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
export function transcriptWords(transcript: StoredTranscript): CaptionWord[] {
  return transcript.segments
    .flatMap((segment) => segment.words)
    .map((word) => ({ text: word.text, startMs: word.startMs, endMs: word.endMs }))
    .sort((a, b) => a.startMs - b.startMs);
}

/** Words spoken inside the span (by their middle), so a word cut by the trim is kept whole or dropped. */
export function wordsInSpan(
  transcript: StoredTranscript,
  startMs: number,
  endMs: number,
): CaptionWord[] {
  return transcriptWords(transcript).filter((word) => {
    const middle = (word.startMs + word.endMs) / 2;
    return middle >= startMs && middle <= endMs;
  });
}

/** A trim edge this close to a word boundary snaps to it (issue 5: trim handles snap to words). */
const SNAP_DISTANCE_MS = 500;

/**
 * Moves a trim edge the user chose to the nearest word start (for the start) or word end (for
 * the end) when one is near; an edge left undefined is kept as it is.
 */
export function snapToWords(
  transcript: StoredTranscript,
  span: { startMs: number; endMs: number },
  chosen: { startMs?: number; endMs?: number },
): { startMs: number; endMs: number } {
  const words = transcriptWords(transcript);
  const nearest = (target: number, values: number[]) => {
    let best: number | undefined;
    for (const value of values) {
      if (Math.abs(value - target) > SNAP_DISTANCE_MS) continue;
      if (best === undefined || Math.abs(value - target) < Math.abs(best - target)) best = value;
    }
    return best ?? target;
  };
  const startMs =
    chosen.startMs === undefined
      ? span.startMs
      : nearest(
          chosen.startMs,
          words.map((word) => word.startMs),
        );
  const endMs =
    chosen.endMs === undefined
      ? span.endMs
      : nearest(
          chosen.endMs,
          words.map((word) => word.endMs),
        );
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
