import { contentTerms, contentTermsWithSurface, wordTokens } from '../search/text';
import { CLAIM_WORDS, INTENSIFIERS } from './lexicon';
import type { ScoringContext } from './scoring';
import type { Sentence } from './sentences';

const FILLERS = /\b(um+|uh+|erm|hmm|you know|i mean|sort of|kind of)\b,?\s*/gi;
const LEADING_CONNECTIVES =
  /^(?:(?:so|and|but|well|okay|ok|anyway|now|yeah|like|right|oh|also)\b[,\s]*)+/i;
const TITLE_MAX_CHARS = 70;
/** One line under the title (issue 12): about what fits a card's single line on a phone. */
const DESCRIPTION_MAX_CHARS = 140;

function truncateAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const atClause = cut.lastIndexOf(', ');
  const base = atClause > maxChars * 0.5 ? cut.slice(0, atClause) : cut.replace(/\s+\S*$/, '');
  return `${base}…`;
}

/** Spoken text made readable: fillers and leading connectives dropped, first letter capitalised. */
export function cleanSpokenText(text: string): string {
  const cleaned = text
    .replace(FILLERS, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(LEADING_CONNECTIVES, '')
    .trim();
  return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
}

/** Title from the span's own words: its most salient short sentence, cleaned (no LLM needed). */
export function extractiveTitle(context: ScoringContext, sentences: readonly Sentence[]): string {
  let best: Sentence | undefined;
  let bestScore = -Infinity;
  for (const sentence of sentences) {
    const words = wordTokens(cleanSpokenText(sentence.text)).length;
    if (words < 3) continue;
    const terms = contentTerms(sentence.text);
    const idfSum = terms.reduce((sum, term) => sum + context.index.idf(term), 0);
    const signals = context.signals[sentence.index];
    let score = idfSum / Math.sqrt(words);
    if (words > 14) score *= 14 / words;
    // A title that must be cut short reads worse than a shorter whole sentence.
    if (cleanSpokenText(sentence.text).length > TITLE_MAX_CHARS) score *= 0.6;
    score *= 1 + (signals?.hook ?? 0) * 0.5 + (signals?.quote ?? 0) * 0.5;
    if (score > bestScore) {
      bestScore = score;
      best = sentence;
    }
  }
  const source = best ?? sentences[0];
  if (!source) return '';
  const title = cleanSpokenText(source.text).replace(/[.,;:…]+$/, '');
  return truncateAtWord(title, TITLE_MAX_CHARS);
}

/**
 * A one-line description in the speaker's own words: the span's opening sentences, as many whole ones
 * as fit; only a single over-long sentence is shortened (at a clause or word, never mid-word).
 */
export function extractiveDescription(sentences: readonly Sentence[]): string {
  let text = '';
  for (const sentence of sentences) {
    const next = cleanSpokenText(text ? `${text} ${sentence.text}` : sentence.text);
    if (text && next.length > DESCRIPTION_MAX_CHARS) break;
    text = next;
  }
  return truncateAtWord(text, DESCRIPTION_MAX_CHARS);
}

/** Words that are salient by rarity but name no topic, so they make poor hashtags. */
const NOT_TOPICS = new Set(
  `told tell telling said anyone someone something anything every single whole thing day days time times year years
way part start started tried try felt feel looked look put took turned gave give kept keep called call stopped
ever once twice since still almost`.split(/\s+/),
);

/** Hashtags from the span's salient terms, in their spoken form (#Sourdough, not #sourdough's). */
export function hashtagsFor(
  sentences: readonly Sentence[],
  salientTerms: readonly string[],
  limit = 4,
): string[] {
  const surfaceByTerm = new Map<string, string>();
  for (const sentence of sentences) {
    for (const { term, surface } of contentTermsWithSurface(sentence.text)) {
      if (!surfaceByTerm.has(term)) surfaceByTerm.set(term, surface);
    }
  }
  const tags: string[] = [];
  for (const term of salientTerms) {
    const surface = surfaceByTerm.get(term);
    if (
      !surface ||
      NOT_TOPICS.has(surface) ||
      CLAIM_WORDS.has(surface) ||
      INTENSIFIERS.has(surface)
    )
      continue;
    const tag = `#${surface.charAt(0).toUpperCase()}${surface.slice(1)}`.replace(
      /[^#\p{L}\p{N}]/gu,
      '',
    );
    if (tag.length > 2 && !tags.includes(tag)) tags.push(tag);
    if (tags.length >= limit) break;
  }
  return tags;
}

/** Cleans a hashtag an LLM proposed; drops what is not a tag. */
export function normaliseHashtag(tag: string): string | undefined {
  const body = tag.replace(/^#+/, '').replace(/[^\p{L}\p{N}_]/gu, '');
  return body.length >= 2 && body.length <= 40 ? `#${body}` : undefined;
}
