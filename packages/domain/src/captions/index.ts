/**
 * Pure caption rules shared by the result page and the server: which words are filler, how words
 * group into subtitle cues. Times are milliseconds in the source video.
 */

export interface TimedWord {
  text: string;
  startMs: number;
  endMs: number;
}

/** Hesitation sounds that carry no meaning in any of the transcripts we make (English-centred). */
const FILLERS = new Set([
  'um',
  'umm',
  'uh',
  'uhh',
  'uhm',
  'erm',
  'er',
  'ah',
  'eh',
  'hmm',
  'hm',
  'mm',
  'mhm',
]);

/** The word with case, punctuation and symbols stripped, for comparing. */
export function bareWord(text: string): string {
  return text
    .normalize('NFKC')
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, '');
}

export const isFillerWord = (text: string) => FILLERS.has(bareWord(text));

/**
 * Indexes of the filler words: hesitation sounds, and the first of a word said twice in a row
 * ("I I think" keeps the second "I", which carries the sentence on). A repeat across a long pause
 * is not a stutter and stays.
 */
export function fillerIndexes(words: readonly TimedWord[], maxRepeatGapMs = 600): Set<number> {
  const fillers = new Set<number>();
  words.forEach((word, index) => {
    const bare = bareWord(word.text);
    if (!bare) return;
    if (FILLERS.has(bare)) {
      fillers.add(index);
      return;
    }
    const next = words[index + 1];
    if (next && bareWord(next.text) === bare && next.startMs - word.endMs <= maxRepeatGapMs) {
      fillers.add(index);
    }
  });
  return fillers;
}

/** The words without their fillers. */
export function withoutFillers<T extends TimedWord>(words: readonly T[]): T[] {
  const fillers = fillerIndexes(words);
  return words.filter((_, index) => !fillers.has(index));
}

/**
 * The parts of [startMs, endMs] to keep when the filler words are cut out of the picture and the
 * sound: each filler's span is removed, widened to the silence around it (up to the neighbouring
 * words) so no half-syllable is left. Spans shorter than `minKeepMs` are dropped.
 */
export function keptSpans(
  words: readonly TimedWord[],
  startMs: number,
  endMs: number,
  minKeepMs = 80,
): { startMs: number; endMs: number }[] {
  const fillers = fillerIndexes(words);
  if (!fillers.size) return [{ startMs, endMs }];
  const cuts: { startMs: number; endMs: number }[] = [];
  words.forEach((word, index) => {
    if (!fillers.has(index)) return;
    const previous = words[index - 1];
    const next = words[index + 1];
    // Cut to the middle of the gaps on each side, so the kept words keep their breath.
    const cutStart = previous
      ? Math.max(previous.endMs, (previous.endMs + word.startMs) / 2)
      : word.startMs;
    const cutEnd = next ? Math.min(next.startMs, (word.endMs + next.startMs) / 2) : word.endMs;
    const last = cuts[cuts.length - 1];
    if (last && cutStart <= last.endMs) last.endMs = Math.max(last.endMs, cutEnd);
    else cuts.push({ startMs: cutStart, endMs: cutEnd });
  });
  const kept: { startMs: number; endMs: number }[] = [];
  let cursor = startMs;
  for (const cut of cuts) {
    const cutStart = Math.max(startMs, Math.round(cut.startMs));
    const cutEnd = Math.min(endMs, Math.round(cut.endMs));
    if (cutStart > cursor) kept.push({ startMs: cursor, endMs: cutStart });
    cursor = Math.max(cursor, cutEnd);
  }
  if (endMs > cursor) kept.push({ startMs: cursor, endMs });
  return kept.filter((span) => span.endMs - span.startMs >= minKeepMs);
}

/**
 * Maps a source time to the time in a cut made of `spans` played back to back (a time inside a
 * removed part maps to the next kept span's start).
 */
export function timeInCut(
  spans: readonly { startMs: number; endMs: number }[],
  ms: number,
): number {
  let elapsed = 0;
  for (const span of spans) {
    if (ms < span.startMs) return elapsed;
    if (ms <= span.endMs) return elapsed + (ms - span.startMs);
    elapsed += span.endMs - span.startMs;
  }
  return elapsed;
}

export interface CueOptions {
  /** Characters per cue line (42 is the broadcast norm); a cue has at most two lines. */
  maxLineChars?: number;
  maxDurationMs?: number;
  /** A silence this long ends a cue (a new thought or another speaker). */
  pauseMs?: number;
  /** Word indexes that start a new turn (a new transcript segment): always a new cue. */
  turnStarts?: ReadonlySet<number>;
  /** Languages written without spaces join their words directly. */
  joiner?: string;
}

export interface Cue {
  startMs: number;
  endMs: number;
  text: string;
  /** Indexes into the words the cue was made from. */
  firstWord: number;
  lastWord: number;
}

const SENTENCE_END = /[.!?…。！？؟]["'”’»)\]]*$/u;

/**
 * Groups timed words into subtitle cues: a cue starts at its first word's start and ends at its
 * last word's end (so cue times are the words' times), and breaks at turns, long pauses, sentence
 * ends once it has some length, or when it would grow past two lines or `maxDurationMs`.
 */
export function groupIntoCues(words: readonly TimedWord[], options: CueOptions = {}): Cue[] {
  const maxChars = (options.maxLineChars ?? 42) * 2;
  const maxDurationMs = options.maxDurationMs ?? 6000;
  const pauseMs = options.pauseMs ?? 1000;
  const joiner = options.joiner ?? ' ';
  const cues: Cue[] = [];
  let current: number[] = [];
  const flush = () => {
    if (!current.length) return;
    const first = current[0]!;
    const last = current[current.length - 1]!;
    cues.push({
      startMs: words[first]!.startMs,
      endMs: Math.max(words[last]!.endMs, words[first]!.startMs + 1),
      text: current.map((index) => words[index]!.text.trim()).join(joiner),
      firstWord: first,
      lastWord: last,
    });
    current = [];
  };
  words.forEach((word, index) => {
    if (!word.text.trim()) return;
    if (current.length) {
      const first = words[current[0]!]!;
      const previous = words[current[current.length - 1]!]!;
      const text = current.map((i) => words[i]!.text.trim()).join(joiner);
      const breaks =
        options.turnStarts?.has(index) ||
        word.startMs - previous.endMs >= pauseMs ||
        (SENTENCE_END.test(previous.text) && text.length >= maxChars / 3) ||
        text.length + joiner.length + word.text.trim().length > maxChars ||
        word.endMs - first.startMs > maxDurationMs;
      if (breaks) flush();
    }
    current.push(index);
  });
  flush();
  return cues;
}

/** Splits a cue's text into at most two balanced lines for a subtitle file. */
export function balanceLines(text: string, maxLineChars = 42): string {
  if (text.length <= maxLineChars || !text.includes(' ')) return text;
  const middle = text.length / 2;
  let best = -1;
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
    if (best < 0 || Math.abs(i - middle) < Math.abs(best - middle)) best = i;
  }
  return `${text.slice(0, best)}\n${text.slice(best + 1)}`;
}
