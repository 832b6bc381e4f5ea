import { SEARCH_SNIPPET_MAX } from '@moments/contract';
import { contentTerms } from '@moments/ai/search';
import { queryWords as searchedWords } from '@moments/domain/search';

/** Sentence ends, including the CJK full stops that have no space after them. */
const SENTENCE_END = /(?<=[.!?…])\s+|(?<=[。！？])/u;

const MAX_WORDS = 8;

/** The query's words (the domain's rule, the web highlights the same), at most MAX_WORDS of them. */
export function queryWords(query: string): string[] {
  return searchedWords(query).slice(0, MAX_WORDS);
}

export function splitSentences(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/**
 * How many of the query's content terms (stems, function words left out) the sentence contains:
 * "the" and "is" never make a sentence the best one.
 */
function matchCount(sentence: string, terms: readonly string[]): number {
  if (!terms.length) return 0;
  // Stemming changes only a word's ending: a sentence without the first letters of any term
  // cannot contain it, and is not stemmed (most sentences of a long transcript).
  const lower = sentence.toLowerCase();
  if (!terms.some((term) => lower.includes(term.slice(0, 3)))) return 0;
  const own = new Set(contentTerms(sentence));
  return terms.filter((term) => own.has(term)).length;
}

/** Cuts a sentence to the snippet length, keeping the first matching word (or stem) in view. */
export function clipSnippet(
  sentence: string,
  words: readonly string[],
  max = SEARCH_SNIPPET_MAX,
): string {
  const text = sentence.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const lower = text.toLowerCase();
  const firstHit = Math.min(
    ...words.map((word) => lower.indexOf(word)).filter((index) => index >= 0),
    text.length,
  );
  const budget = max - 2; // room for an ellipsis on each side
  let start = firstHit >= text.length ? 0 : Math.max(0, firstHit - Math.floor(budget / 3));
  start = Math.min(start, text.length - budget);
  // Start and end on word boundaries where one is near.
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space - start < 20) start = space + 1;
  }
  let end = Math.min(text.length, start + budget);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start && end - space < 20) end = space;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}

export interface Passage {
  text: string;
  startMs: number | null;
  /** Word timings of the passage, to point at the sentence (not the passage) that matched. */
  words?: { text: string; startMs: number }[];
}

export interface Snippet {
  text: string;
  startMs: number | null;
  matched: boolean;
}

/**
 * The sentence of the passages that contains the most of the query's content terms (stems, see
 * `contentTerms`; the earliest on a tie), with where it starts; the first sentence when none
 * matches (a hit on the title only, or on meaning).
 */
export function bestSnippet(passages: Passage[], terms: readonly string[]): Snippet {
  let best: { sentence: string; startMs: number | null; count: number } | null = null;
  let first: { sentence: string; startMs: number | null } | null = null;
  for (const passage of passages) {
    let wordsBefore = 0;
    for (const sentence of splitSentences(passage.text)) {
      const startMs =
        wordsBefore === 0
          ? passage.startMs
          : (passage.words?.[wordsBefore]?.startMs ?? passage.startMs);
      first ??= { sentence, startMs };
      const count = matchCount(sentence, terms);
      if (count > (best?.count ?? 0)) best = { sentence, startMs, count };
      wordsBefore += sentence.split(/\s+/).filter(Boolean).length;
    }
  }
  const chosen = best ?? first;
  if (!chosen) return { text: '', startMs: null, matched: false };
  return { text: clipSnippet(chosen.sentence, terms), startMs: chosen.startMs, matched: !!best };
}
