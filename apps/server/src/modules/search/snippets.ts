import { SEARCH_SNIPPET_MAX } from '@moments/contract';

/** Word-ish runs of letters and digits in any script. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Sentence ends, including the CJK full stops that have no space after them. */
const SENTENCE_END = /(?<=[.!?…])\s+|(?<=[。！？])/u;

const MAX_WORDS = 8;

/**
 * The words of a query that a hit should contain, for the substring fallback and for picking the
 * snippet: websearch syntax is dropped (`-word` excludes, `or` is an operator), single letters are
 * too weak to match on alone.
 */
export function queryWords(query: string): string[] {
  const words: string[] = [];
  for (const term of query.split(/\s+/)) {
    if (!term || term.startsWith('-') || term.toLowerCase() === 'or') continue;
    for (const [word] of term.toLowerCase().matchAll(WORD)) {
      if (word.length >= 2 && !words.includes(word)) words.push(word);
    }
  }
  return words.slice(0, MAX_WORDS);
}

export function splitSentences(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** How many of the words the sentence contains (substring, case-insensitive). */
export function matchCount(sentence: string, words: string[]): number {
  const lower = sentence.toLowerCase();
  return words.filter((word) => lower.includes(word)).length;
}

/** Cuts a sentence to the snippet length, keeping the first matching word in view. */
export function clipSnippet(sentence: string, words: string[], max = SEARCH_SNIPPET_MAX): string {
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
 * The sentence of the passages that contains the most query words (the earliest on a tie), with
 * where it starts; the first sentence when none matches (a hit on the title only).
 */
export function bestSnippet(passages: Passage[], words: string[]): Snippet {
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
      const count = matchCount(sentence, words);
      if (count > (best?.count ?? 0)) best = { sentence, startMs, count };
      wordsBefore += sentence.split(/\s+/).filter(Boolean).length;
    }
  }
  const chosen = best ?? first;
  if (!chosen) return { text: '', startMs: null, matched: false };
  return { text: clipSnippet(chosen.sentence, words), startMs: chosen.startMs, matched: !!best };
}
