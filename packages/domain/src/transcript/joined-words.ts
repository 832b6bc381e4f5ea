/**
 * Whole written words from a speech engine's word tokens. Whisper cuts its words at the
 * spaces of its sub-word tokens, so a hyphenated compound comes back as two words ("ill",
 * "-disposed") and a contraction sometimes does too ("did", "n't"; "I", "'m"). Every reader of a
 * transcript (the editor, SRT, VTT, ASS, burnt-in captions, titles) joins words with spaces, and
 * then shows "ill -disposed". Numbers too: "10" ",000" is "10,000", "4" ".5%" is "4.5%", "40" "%" is
 * "40%" (the transcript's text writes it so; the captions showed "40 %"). Joining
 * them here keeps one word with the span of both parts.
 */

export interface JoinableWord {
  text: string;
  startMs: number;
  endMs: number;
  confidence: number;
}

/** A part this far after the previous word is a new word, not the rest of it (a pause between). */
const MAX_JOIN_GAP_MS = 400;

/** "-disposed", "-5": the second half of a hyphenated compound (a lone dash is punctuation). */
const CONTINUES_AFTER_HYPHEN = /^[-‐‑][\p{L}\p{N}]/u;
/** "cold-", "well-": the first half, written with its hyphen. */
const ENDS_ON_HYPHEN = /[\p{L}\p{N}][-‐‑]$/u;
/** "'t", "n't", "'m", "'s", "'re", "'ve", "'ll", "'d": the clitic of a contraction split off. */
const CONTRACTION_TAIL = /^(?:n['’]t|['’](?:s|t|m|d|re|ve|ll))\b/iu;
/** ",000", ".5", ".45": the rest of a number whose first digits came as a word of their own. */
const NUMBER_TAIL = /^[.,]\d/u;
/** "%", "%.", "‰,": a percent sign heard as a word of its own after its number. */
const PERCENT_TAIL = /^[%‰][^\p{L}\p{N}]*$/u;
/** The word before ends in a letter or digit (not "Yes." or "well,", which end a clause). */
const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;

function joinsPrevious(previous: JoinableWord, word: JoinableWord): boolean {
  if (word.startMs - previous.endMs > MAX_JOIN_GAP_MS) return false;
  if (ENDS_ON_HYPHEN.test(previous.text) && /^[\p{L}\p{N}]/u.test(word.text)) return true;
  if (/\d$/u.test(previous.text) && NUMBER_TAIL.test(word.text)) return true;
  if (/\d$/u.test(previous.text) && PERCENT_TAIL.test(word.text)) return true;
  if (!ENDS_IN_WORD.test(previous.text)) return false;
  return CONTINUES_AFTER_HYPHEN.test(word.text) || CONTRACTION_TAIL.test(word.text);
}

/**
 * The words with split compounds and contractions joined: the joined word spans from the first
 * part's start to the last part's end, and is as sure as its least sure part. Other words are
 * returned as they are (the same objects), in the same order.
 */
export function joinSplitWords<T extends JoinableWord>(words: readonly T[]): T[] {
  const joined: T[] = [];
  for (const word of words) {
    const previous = joined[joined.length - 1];
    if (previous && joinsPrevious(previous, word)) {
      joined[joined.length - 1] = {
        ...previous,
        text: previous.text + word.text,
        endMs: Math.max(previous.endMs, word.endMs),
        confidence: Math.min(previous.confidence, word.confidence),
      };
    } else {
      joined.push(word);
    }
  }
  return joined;
}
