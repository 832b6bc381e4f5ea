import type { SubtitleLanguage } from '@moments/contract';
import { balanceLines, groupIntoCues, type Cue, type TimedWord } from '@moments/domain/captions';
import { splitIntoWords, spreadOverSpan } from '@moments/media/captions';
import { stringifySync, type NodeList } from 'subtitle';

/** Scripts written without spaces join their words directly in a cue. */
const joinerFor = (language: string | undefined) =>
  /^(zh|ja|th|lo|km|my)/.test(language ?? '') ? '' : ' ';

/**
 * Cues of the spoken words: each cue starts at its first word and ends at its last (the file's
 * times are the words' times), never across a transcript line (a turn) or a long pause.
 */
export function sourceCues(
  words: readonly TimedWord[],
  lines: readonly { startMs: number; endMs: number }[],
  language: string,
): Cue[] {
  const turnStarts = new Set<number>();
  let line = 0;
  words.forEach((word, index) => {
    const middle = (word.startMs + word.endMs) / 2;
    let next = line;
    while (next < lines.length - 1 && middle >= lines[next]!.endMs) next++;
    if (next !== line && index > 0) turnStarts.add(index);
    line = next;
  });
  return groupIntoCues(words, { turnStarts, joiner: joinerFor(language) });
}

/**
 * Cues of the translation: a translated line covers exactly the span of the source line it
 * translates (no drift over a long video); a long line is split into cue-sized parts that share
 * its span in proportion to their length.
 */
export function translationCues(lines: readonly TimedWord[], language: string): Cue[] {
  const joiner = joinerFor(language);
  return lines.flatMap((line) => {
    const words = spreadOverSpan(splitIntoWords(line.text, language), line.startMs, line.endMs);
    const parts = groupIntoCues(words, { joiner, pauseMs: Number.POSITIVE_INFINITY });
    // The first part starts and the last ends with the source line, whatever rounding did.
    if (parts.length) {
      parts[0]!.startMs = line.startMs;
      parts[parts.length - 1]!.endMs = line.endMs;
    }
    return parts;
  });
}

/** Source and translation in one cue per translated line: the line's words, then its translation. */
export function bilingualCues(
  words: readonly TimedWord[],
  lines: readonly TimedWord[],
  language: string,
): Cue[] {
  const joiner = joinerFor(language);
  return lines.map((line, index) => {
    const spoken = words
      .filter((word) => word.startMs >= line.startMs && word.endMs <= line.endMs)
      .map((word) => word.text)
      .join(joiner);
    return {
      startMs: line.startMs,
      endMs: line.endMs,
      text: `${spoken}\n${line.text}`,
      firstWord: index,
      lastWord: index,
    };
  });
}

/** An SRT or WebVTT file of the cues, written by the `subtitle` library. */
export function formatSubtitles(cues: readonly Cue[], format: 'srt' | 'vtt'): string {
  const nodes: NodeList = cues.map((cue) => ({
    type: 'cue',
    data: {
      start: Math.round(cue.startMs),
      end: Math.round(cue.endMs),
      text: cue.text.includes('\n') ? cue.text : balanceLines(cue.text),
    },
  }));
  return stringifySync(nodes, { format: format === 'srt' ? 'SRT' : 'WebVTT' });
}

/** The caption display an ASS download of `lang` is drawn with. */
export const displayForLanguage = (lang: SubtitleLanguage) =>
  lang === 'source' ? 'source' : lang === 'target' ? 'translate' : 'all';
