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

/** A word ends a clause: a comma, a sentence end, a dash or a colon after it. */
const CLAUSE_END = /[,.!?;:…—–-]["'”’»)\]]*$/u;
/** Words that make "you know" a real verb phrase when they come before it ("do you know"). */
const KNOW_ASKED = new Set(['do', 'did', 'does', "don't", "didn't", 'if', 'as', 'would', 'will']);

/**
 * Whether the phrase of words `first..last` stands apart from its sentence, set off the way a
 * filler is: it opens the clip or follows a clause end (or another filler), and it ends with a
 * comma (or ends a sentence after a comma before it).
 */
function setOff(
  words: readonly TimedWord[],
  first: number,
  last: number,
  fillers: ReadonlySet<number>,
): boolean {
  const previous = words[first - 1];
  const opens = !previous || CLAUSE_END.test(previous.text.trim()) || fillers.has(first - 1);
  const tail = words[last]!.text.trim();
  const closes = /,["'”’»)\]]*$/u.test(tail) || (!!previous && /[.!?…]$/u.test(tail) && opens);
  return opens && closes;
}

/**
 * Indexes of the filler words: hesitation sounds ("um", "uh", "erm"), the first of a word said
 * twice in a row ("I I think" keeps the second "I", which carries the sentence on; a repeat
 * across a long pause is not a stutter and stays), and "you know", "I mean" and "like" only where
 * they are set off from the sentence by commas ("it was, you know, late"; "I mean, sure";
 * "and, like, everyone"), never as the verbs they also are ("you know what", "I mean it",
 * "I like it", "do you know, ...").
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
    const nextBare = next ? bareWord(next.text) : '';
    if (next && nextBare === bare && next.startMs - word.endMs <= maxRepeatGapMs) {
      // A repeat set off by a comma ("very, very") is emphasis, not a stutter.
      if (!/,$/u.test(word.text.trim())) fillers.add(index);
      return;
    }
    const previousBare = index > 0 ? bareWord(words[index - 1]!.text) : '';
    if (
      ((bare === 'you' && nextBare === 'know') || (bare === 'i' && nextBare === 'mean')) &&
      !KNOW_ASKED.has(previousBare) &&
      setOff(words, index, index + 1, fillers)
    ) {
      fillers.add(index);
      fillers.add(index + 1);
      return;
    }
    if (bare === 'like' && !fillers.has(index) && setOff(words, index, index, fillers)) {
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
  const textOf = (indexes: readonly number[]) =>
    indexes.map((i) => words[i]!.text.trim()).join(joiner);
  const groups: number[][] = [];
  let current: number[] = [];
  words.forEach((word, index) => {
    if (!word.text.trim()) return;
    if (current.length) {
      const first = words[current[0]!]!;
      const previous = words[current[current.length - 1]!]!;
      const text = textOf(current);
      const breaks =
        options.turnStarts?.has(index) ||
        word.startMs - previous.endMs >= pauseMs ||
        (SENTENCE_END.test(previous.text) && text.length >= maxChars / 3) ||
        text.length + joiner.length + word.text.trim().length > maxChars ||
        word.endMs - first.startMs > maxDurationMs;
      if (breaks) {
        groups.push(current);
        current = [];
      }
    }
    current.push(index);
  });
  if (current.length) groups.push(current);
  // A cue cut only for length carries on into the next: never leave its last word alone.
  const balanced = avoidLoneWords(groups, {
    continues: (previous, next) => {
      const last = words[previous[previous.length - 1]!]!;
      const first = words[next[0]!]!;
      return (
        !options.turnStarts?.has(next[0]!) &&
        first.startMs - last.endMs < pauseMs &&
        !SENTENCE_END.test(last.text)
      );
    },
    fits: (indexes) =>
      textOf(indexes).length <= maxChars &&
      words[indexes[indexes.length - 1]!]!.endMs - words[indexes[0]!]!.startMs <= maxDurationMs,
  });
  return balanced.map((indexes) => {
    const first = indexes[0]!;
    const last = indexes[indexes.length - 1]!;
    return {
      startMs: words[first]!.startMs,
      endMs: Math.max(words[last]!.endMs, words[first]!.startMs + 1),
      text: textOf(indexes),
      firstWord: first,
      lastWord: last,
    };
  });
}

/**
 * Splits a cue's text into at most two balanced lines for a subtitle file, never leaving one
 * word alone on a line when the cue has more than two.
 */
export function balanceLines(text: string, maxLineChars = 42): string {
  if (text.length <= maxLineChars || !text.includes(' ')) return text;
  const middle = text.length / 2;
  const spaces: number[] = [];
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) spaces.push(i);
  // The first and last space would leave a lone word on a line.
  const candidates = spaces.length > 2 ? spaces.slice(1, -1) : spaces;
  let best = candidates[0]!;
  for (const i of candidates) if (Math.abs(i - middle) < Math.abs(best - middle)) best = i;
  return `${text.slice(0, best)}\n${text.slice(best + 1)}`;
}

/**
 * No caption ends a run of speech on one lone word ("me / dead."): a group (a page of
 * animated captions, a subtitle cue) of a single word that carries on from the group before it
 * (no pause, turn or sentence end between them) takes that group's last word, when two or more
 * stay behind and both still fit; failing that it joins the group before when all of it fits.
 * `continues(previous, next)` says whether `next` carries on from `previous`; `fits` whether a
 * group of words fits one page or cue. The preview and the export (and the subtitle files) share
 * this rule.
 */
export function avoidLoneWords<T>(
  groups: readonly (readonly T[])[],
  options: {
    continues(previous: readonly T[], next: readonly T[]): boolean;
    fits(words: readonly T[]): boolean;
  },
): T[][] {
  const result = groups.map((group) => [...group]);
  for (let index = 1; index < result.length; index++) {
    const previous = result[index - 1]!;
    const current = result[index]!;
    if (current.length !== 1 || !options.continues(previous, current)) continue;
    const moved = [previous[previous.length - 1]!, ...current];
    const kept = previous.slice(0, -1);
    if (kept.length >= 2 && options.fits(kept) && options.fits(moved)) {
      result[index - 1] = kept;
      result[index] = moved;
    } else if (options.fits([...previous, ...current])) {
      result[index - 1] = [...previous, ...current];
      result.splice(index, 1);
      index--;
    }
  }
  return result;
}

/**
 * Among ways to break `words` into lines, whether one leaves a word alone on a line while the
 * others hold several (a widow): balanced line breaking avoids those when it can.
 */
export function hasLoneWordLine<T>(lines: readonly (readonly T[])[]): boolean {
  return (
    lines.length > 1 &&
    lines.some((line) => line.length === 1) &&
    lines.flat().length > lines.length
  );
}
