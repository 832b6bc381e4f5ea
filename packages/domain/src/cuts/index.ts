/**
 * Cutting a clip: the spans of source time an export removes (words deleted in the editor, filler
 * words, the long part of pauses) and how a source time maps onto the cut clip. The server plans
 * the export's render with these rules and the editor's player skips the same spans, so the
 * preview plays what the export holds. Times are milliseconds in the source video.
 */
import { fillerIndexes, timeInCut, type TimedWord } from '../captions/index.js';

export interface Span {
  startMs: number;
  endMs: number;
}

/** Kept stretches shorter than this between two removed spans are removed too (a blip). */
export const MIN_KEPT_MS = 80;
/** A cut clip shorter than this has nothing left to watch. */
export const MIN_CUT_CLIP_MS = 500;
/** The audio crossfade at each join of the cut (short enough to pass unheard, long enough to never click). */
export const CUT_CROSSFADE_MS = 20;

export type CutProblemCode = 'CUT_OUT_OF_RANGE' | 'CUTS_OVERLAP' | 'CUTS_REMOVE_EVERYTHING';

export interface CutProblem {
  code: CutProblemCode;
  message: string;
}

/**
 * What is wrong with the cuts a user asked for, or null: each inside the clip and not empty, none
 * overlapping another (touching is fine), and something left of the clip once they are made.
 */
export function cutsProblem(cuts: readonly Span[], clip: Span): CutProblem | null {
  for (const cut of cuts) {
    if (cut.endMs <= cut.startMs || cut.startMs < clip.startMs || cut.endMs > clip.endMs) {
      return {
        code: 'CUT_OUT_OF_RANGE',
        message:
          `The cut ${cut.startMs}-${cut.endMs} ms must end after it starts and lie inside ` +
          `the clip (${clip.startMs} to ${clip.endMs} ms).`,
      };
    }
  }
  const sorted = [...cuts].sort((a, b) => a.startMs - b.startMs);
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1]!;
    const cut = sorted[i]!;
    if (cut.startMs < previous.endMs) {
      return {
        code: 'CUTS_OVERLAP',
        message:
          `The cuts ${previous.startMs}-${previous.endMs} ms and ${cut.startMs}-${cut.endMs} ms ` +
          'overlap; send each removed stretch once.',
      };
    }
  }
  const kept = keptOf(mergeSpans(sorted), clip);
  if (spansLength(kept) < MIN_CUT_CLIP_MS) {
    return {
      code: 'CUTS_REMOVE_EVERYTHING',
      message: 'These cuts remove (nearly) the whole clip; keep at least half a second of it.',
    };
  }
  return null;
}

/** Sorted spans with the overlapping or touching ones joined. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans
    .filter((span) => span.endMs > span.startMs)
    .map((span) => ({ startMs: span.startMs, endMs: span.endMs }))
    .sort((a, b) => a.startMs - b.startMs);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.startMs <= last.endMs) last.endMs = Math.max(last.endMs, span.endMs);
    else merged.push(span);
  }
  return merged;
}

export const spansLength = (spans: readonly Span[]) =>
  spans.reduce((sum, span) => sum + span.endMs - span.startMs, 0);

/** The parts of the clip that `removed` (sorted, merged) leaves. */
export function keptOf(removed: readonly Span[], clip: Span): Span[] {
  const kept: Span[] = [];
  let cursor = clip.startMs;
  for (const cut of removed) {
    const start = Math.max(clip.startMs, cut.startMs);
    const end = Math.min(clip.endMs, cut.endMs);
    if (end <= start) continue;
    if (start > cursor) kept.push({ startMs: cursor, endMs: start });
    cursor = Math.max(cursor, end);
  }
  if (clip.endMs > cursor) kept.push({ startMs: cursor, endMs: clip.endMs });
  return kept;
}

const middle = (word: Span) => (word.startMs + word.endMs) / 2;

/**
 * Moves a cut to word boundaries: it removes the words whose middle it covers, whole, and its
 * edges go to the middle of the pause between a removed word and the kept one beside it, so the
 * kept words keep their breath and no half-syllable is left. A cut that covers no word's middle
 * only takes the pause it lies in (never part of a word).
 */
export function snapCutToWords(cut: Span, words: readonly Span[], clip: Span): Span | null {
  const inside = words.flatMap((word, index) =>
    middle(word) >= cut.startMs && middle(word) <= cut.endMs ? [index] : [],
  );
  let startMs: number;
  let endMs: number;
  if (inside.length) {
    const first = inside[0]!;
    const last = inside[inside.length - 1]!;
    const previous = words[first - 1];
    const next = words[last + 1];
    startMs = previous
      ? Math.max(previous.endMs, (previous.endMs + words[first]!.startMs) / 2)
      : Math.min(cut.startMs, words[first]!.startMs);
    endMs = next
      ? Math.min(next.startMs, (words[last]!.endMs + next.startMs) / 2)
      : Math.max(cut.endMs, words[last]!.endMs);
  } else {
    const before = words.filter((word) => middle(word) < cut.startMs).at(-1);
    const after = words.find((word) => middle(word) > cut.endMs);
    startMs = Math.max(cut.startMs, before?.endMs ?? clip.startMs);
    endMs = Math.min(cut.endMs, after?.startMs ?? clip.endMs);
  }
  startMs = Math.max(clip.startMs, Math.round(startMs));
  endMs = Math.min(clip.endMs, Math.round(endMs));
  return endMs > startMs ? { startMs, endMs } : null;
}

/** The spans the filler words take, widened to the middle of the pauses beside them. */
export function fillerCutSpans(words: readonly TimedWord[], clip: Span): Span[] {
  const fillers = fillerIndexes(words);
  const spans: Span[] = [];
  for (const index of [...fillers].sort((a, b) => a - b)) {
    const cut = snapCutToWords(
      { startMs: middle(words[index]!), endMs: middle(words[index]!) },
      words,
      clip,
    );
    if (cut) spans.push(cut);
  }
  return mergeSpans(spans);
}

/**
 * The pauses of a clip's speech. With the audio's silences (from its energy: silencedetect), a
 * pause is where the audio is silent, except where a word starts inside it (speech quieter than
 * the threshold: that word's span stays speech); a word whose end runs into a silence is trusted
 * less than the audio (transcribers stretch the last word before a pause). Without an audio
 * measure (no audio track analysed), the gaps between the words.
 */
export function speechPauses(
  words: readonly Span[],
  clip: Span,
  silences: readonly Span[] | undefined,
): Span[] {
  if (!silences) {
    const gaps: Span[] = [];
    let cursor = clip.startMs;
    for (const word of words) {
      if (word.startMs > cursor) gaps.push({ startMs: cursor, endMs: word.startMs });
      cursor = Math.max(cursor, word.endMs);
    }
    if (clip.endMs > cursor) gaps.push({ startMs: cursor, endMs: clip.endMs });
    return gaps;
  }
  const pauses: Span[] = [];
  for (const silence of mergeSpans(silences)) {
    let pieces: Span[] = [
      {
        startMs: Math.max(clip.startMs, silence.startMs),
        endMs: Math.min(clip.endMs, silence.endMs),
      },
    ];
    for (const word of words) {
      if (word.startMs <= silence.startMs || word.startMs >= silence.endMs) continue;
      pieces = pieces.flatMap((piece) =>
        [
          { startMs: piece.startMs, endMs: Math.min(piece.endMs, word.startMs) },
          { startMs: Math.max(piece.startMs, word.endMs), endMs: piece.endMs },
        ].filter((part) => part.endMs > part.startMs),
      );
    }
    pauses.push(...pieces);
  }
  return pauses.filter((pause) => pause.endMs > pause.startMs);
}

/**
 * What shortening the pauses to `minMs` removes: the middle of every longer pause, so each keeps
 * `minMs` with half of it on either side (the breath after a word and before the next).
 */
export function pauseCutSpans(pauses: readonly Span[], minMs: number): Span[] {
  return pauses
    .filter((pause) => pause.endMs - pause.startMs > minMs)
    .map((pause) => ({
      startMs: Math.round(pause.startMs + minMs / 2),
      endMs: Math.round(pause.endMs - minMs / 2),
    }))
    .filter((span) => span.endMs > span.startMs);
}

export interface CutRequest {
  clip: Span;
  /** The clip's words (re-timed when the transcript was edited), in time order. */
  words: readonly TimedWord[];
  /** Source spans the user removed (edit by text); each is moved to word boundaries. */
  cuts?: readonly Span[];
  removeFillers?: boolean;
  /** Shorten every pause longer than this to this; absent: pauses stay. */
  minPauseMs?: number;
  /** Silent stretches of the clip's audio (its energy); absent: pauses from the word gaps. */
  silences?: readonly Span[];
}

export interface CutPlan {
  /** Source spans removed, sorted and apart. */
  removed: Span[];
  /** Source spans kept, played back to back; the whole clip when nothing is removed. */
  kept: Span[];
  /** The cut clip's length. */
  durationMs: number;
}

/**
 * The one plan of a cut clip, for the export's render and the editor's player: the user's cuts at
 * word boundaries, the fillers and the long part of each pause, joined; kept blips shorter than
 * MIN_KEPT_MS go too.
 */
export function planCut(request: CutRequest): CutPlan {
  const { clip, words } = request;
  const spans: Span[] = [];
  for (const cut of request.cuts ?? []) {
    const snapped = snapCutToWords(cut, words, clip);
    if (snapped) spans.push(snapped);
  }
  if (request.removeFillers) spans.push(...fillerCutSpans(words, clip));
  if (request.minPauseMs !== undefined) {
    // Pauses are measured on what is left: a deleted sentence's two half-pauses make one pause.
    const left = wordsKept(words, mergeSpans(spans));
    const pauses = speechPauses(left, clip, request.silences);
    const removedSoFar = mergeSpans(spans);
    for (const pause of pauses) {
      spans.push(...shortenPause(withoutSpans([pause], removedSoFar), request.minPauseMs));
    }
  }
  let removed = mergeSpans(spans);
  const kept = keptOf(removed, clip).filter((span) => span.endMs - span.startMs >= MIN_KEPT_MS);
  removed = keptOf(kept, clip);
  return { removed, kept, durationMs: spansLength(kept) };
}

/**
 * What to remove of one pause, given as the pieces other cuts left of it (played back to back
 * they are one pause): all but `minMs` of it, half kept at each end.
 */
function shortenPause(pieces: readonly Span[], minMs: number): Span[] {
  if (spansLength(pieces) <= minMs) return [];
  let front = minMs / 2;
  let back = minMs / 2;
  const trimmed = pieces.map((piece) => ({ ...piece }));
  for (const piece of trimmed) {
    const take = Math.min(front, piece.endMs - piece.startMs);
    piece.startMs += take;
    front -= take;
  }
  for (const piece of [...trimmed].reverse()) {
    const take = Math.min(back, piece.endMs - piece.startMs);
    piece.endMs -= take;
    back -= take;
  }
  return trimmed
    .map((piece) => ({ startMs: Math.round(piece.startMs), endMs: Math.round(piece.endMs) }))
    .filter((piece) => piece.endMs > piece.startMs);
}

/** `spans` with the parts inside `removed` taken out. */
function withoutSpans(spans: readonly Span[], removed: readonly Span[]): Span[] {
  return spans.flatMap((span) => keptOf(removed, span));
}

/** The words the cut keeps (by their middle). */
export function wordsKept<T extends Span>(words: readonly T[], removed: readonly Span[]): T[] {
  return words.filter(
    (word) => !removed.some((cut) => middle(word) >= cut.startMs && middle(word) <= cut.endMs),
  );
}

/** A source time as a time of the cut clip (from its start); inside a removed span: the join. */
export function cutTimeOf(kept: readonly Span[], sourceMs: number): number {
  return timeInCut(kept, sourceMs);
}

/**
 * Where a player at `sourceMs` should be: past the removed span it is in (to the next kept
 * stretch's start), or where it is.
 */
export function skipRemoved(removed: readonly Span[], sourceMs: number): number {
  for (const span of removed) {
    if (sourceMs >= span.startMs && sourceMs < span.endMs) return span.endMs;
  }
  return sourceMs;
}

/**
 * The cuts of the words deleted in the editor (indexes into `words`, in time order): one span per
 * run of deleted neighbours, from the first one's start to the last one's end (the server moves
 * them to the pauses around).
 */
export function cutsOfDeleted(words: readonly Span[], deleted: ReadonlySet<number>): Span[] {
  const cuts: Span[] = [];
  let run: Span | null = null;
  words.forEach((word, index) => {
    if (!deleted.has(index)) {
      run = null;
      return;
    }
    if (run) run.endMs = word.endMs;
    else {
      run = { startMs: word.startMs, endMs: word.endMs };
      cuts.push(run);
    }
  });
  return cuts;
}

/** Which of `words` the cuts delete (by their middle): the editor's struck-through words. */
export function deletedIndexes(words: readonly Span[], cuts: readonly Span[]): Set<number> {
  const deleted = new Set<number>();
  words.forEach((word, index) => {
    if (cuts.some((cut) => middle(word) >= cut.startMs && middle(word) <= cut.endMs)) {
      deleted.add(index);
    }
  });
  return deleted;
}

/** The indexes of the sentence word `index` is in (from after a sentence end to the next one). */
export function sentenceAround(words: readonly { text: string }[], index: number): number[] {
  const ends = (i: number) => /[.!?…。！？]["'”’»)\]]*$/u.test(words[i]?.text.trim() ?? '');
  let first = index;
  while (first > 0 && !ends(first - 1)) first--;
  let last = index;
  while (last < words.length - 1 && !ends(last)) last++;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
