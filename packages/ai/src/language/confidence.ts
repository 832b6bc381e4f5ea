/**
 * How sure the speech engine was of a word (its per-word probability, `confidence`). What the
 * machine writes in the most visible places (titles, hashtags, chapter titles, key points) avoids
 * words below LOW_CONFIDENCE when a clean alternative exists: a misheard word there ("Hat is all
 * for today", "#Met") is worse than a slightly less central sentence.
 *
 * The threshold: on the 14 bench and dev transcripts (Whisper base, 3,422 words), words below 0.5
 * were misheard 57% of the time against 25% of all words (most of those were numbers written as
 * digits, which are not errors a reader sees); 0.5 flags 6% of words.
 */
import { contentTerms, wordTokens } from '../search/text';

export const LOW_CONFIDENCE = 0.5;

export interface ScoredWord {
  text: string;
  confidence: number;
}

export const isLowConfidence = (word: ScoredWord) => word.confidence < LOW_CONFIDENCE;

/**
 * A word a reader would see misheard: unsure and carrying content. Unsure function words ("and",
 * "a", "the": a third of the unsure words on the dev transcripts) are where the engine hesitated
 * over a small word, which a reader rarely notices; unsure content words are the "Hat", "Met".
 */
export const isUnsureContentWord = (word: ScoredWord) =>
  isLowConfidence(word) && contentTerms(word.text).length > 0;

/** The lower-cased spoken forms of the low-confidence words among `words`. */
export function lowConfidenceForms(words: readonly ScoredWord[]): Set<string> {
  return new Set(words.filter(isLowConfidence).flatMap((word) => wordTokens(word.text)));
}

/** True when any word of `text` is one of the low-confidence forms. */
export function featuresLowConfidence(text: string, lowForms: ReadonlySet<string>): boolean {
  return lowForms.size > 0 && wordTokens(text).some((token) => lowForms.has(token));
}
