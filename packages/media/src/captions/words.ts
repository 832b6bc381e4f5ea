import { writtenWithoutSpaces } from './fonts';

export interface CaptionWord {
  text: string;
  startMs: number;
  endMs: number;
}

/**
 * Split free text into caption word units. Spaces separate words; runs in scripts written without
 * spaces (Chinese, Japanese, Thai...) are cut by ICU's dictionary word segmenter. Numbers and
 * symbols stay words of their own ("$5", "%", "&"), punctuation stays attached to its word.
 */
export function splitIntoWords(text: string, language?: string): string[] {
  const words: string[] = [];
  for (const chunk of text.trim().split(/\s+/u)) {
    if (!chunk) continue;
    if (!writtenWithoutSpaces(chunk)) {
      words.push(chunk);
      continue;
    }
    const segmenter = new Intl.Segmenter(language || undefined, { granularity: 'word' });
    for (const { segment, isWordLike } of segmenter.segment(chunk)) {
      const previous = words[words.length - 1];
      // Punctuation such as "。" or "，" belongs to the word before it, as whisper writes it.
      if (!isWordLike && previous !== undefined && /^[\p{P}\s]+$/u.test(segment)) {
        words[words.length - 1] = previous + segment;
      } else if (segment.trim()) {
        words.push(segment);
      }
    }
  }
  return words;
}

/** Number of user-perceived characters, the unit word durations are shared by. */
export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    count++;
  }
  return count;
}

/**
 * Give `texts` consecutive timings inside [startMs, endMs], each in proportion to its length, so
 * an edited span or a translated line keeps the time the original speech took.
 */
export function spreadOverSpan(texts: string[], startMs: number, endMs: number): CaptionWord[] {
  const weights = texts.map((text) => Math.max(1, graphemeCount(text)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const span = Math.max(0, endMs - startMs);
  let consumed = 0;
  return texts.map((text, index) => {
    const wordStart = startMs + (span * consumed) / total;
    consumed += weights[index]!;
    const wordEnd = startMs + (span * consumed) / total;
    return { text, startMs: Math.round(wordStart), endMs: Math.round(wordEnd) };
  });
}
