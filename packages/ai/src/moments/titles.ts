import {
  endsOnFunctionWord,
  hashtagOf,
  isLowConfidence,
  keyphrases,
  lowConfidenceForms,
} from '../language/index';
import { cosine, type SentenceEmbedder } from '../search/embeddings';
import { meanVector } from '../topics/shifts';
import { contentTerms, contentTermsWithSurface, wordTokens } from '../search/text';
import { interest, sentenceCues } from './clip-judge';
import { CLAIM_WORDS, INTENSIFIERS } from './lexicon';
import type { ScoringContext } from './scoring';
import type { Sentence } from './sentences';
import type { TranscriptWord } from './types';

const FILLERS = /\b(um+|uh+|erm|hmm|you know|i mean|sort of|kind of)\b,?\s*/gi;
const LEADING_CONNECTIVES =
  /^(?:(?:so|and|but|well|okay|ok|anyway|now|yeah|like|right|oh|also)\b[,\s]*)+/i;
/** A title fits a card's line on a phone. */
const TITLE_MAX_CHARS = 60;
/** One line under the title: about what fits a card's single line on a phone. */
const DESCRIPTION_MAX_CHARS = 140;

function truncateAtWord(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars - 1);
  const atClause = cut.lastIndexOf(', ');
  const base = atClause > maxChars * 0.5 ? cut.slice(0, atClause) : cut.replace(/\s+\S*$/, '');
  return `${base}…`;
}

/**
 * A title cut to `maxChars` where a reader would cut it: at the end of a clause when one ends past
 * the first third, otherwise after the last whole word, never on a dangling "and", "of" or "the".
 */
export function cutTitle(text: string, maxChars = TITLE_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  const room = text.slice(0, maxChars - 1);
  const clause = Math.max(room.lastIndexOf(', '), room.lastIndexOf('; '), room.lastIndexOf(': '));
  let cut = clause >= maxChars / 2 ? room.slice(0, clause) : room.replace(/\s+\S*$/, '');
  // Never end on a word that needs the next one ("Dress for the…").
  for (let guard = 0; guard < 6 && endsOnFunctionWord(cut); guard++) {
    const shorter = cut.replace(/[\s,;:]+\S*$/, '');
    if (shorter.length < maxChars / 3) break;
    cut = shorter;
  }
  return `${cut.replace(/[\s,;:.…]+$/, '')}…`;
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

/** The sentence's words after the leading fillers and connectives that its title drops. */
function titleWords(sentence: Sentence): TranscriptWord[] {
  const spoken = wordTokens(cleanSpokenText(sentence.text));
  const first = spoken[0];
  const at = sentence.words.findIndex((word) => wordTokens(word.text)[0] === first);
  return at >= 0 ? sentence.words.slice(at) : sentence.words;
}

/**
 * How strong a title the sentence makes: what the clip judge finds striking in it (a number,
 * advice, a contrast, a story), how specific its words are, a length that needs no cut; a title
 * that starts on, or holds, a word the engine was unsure of comes last when a clean one exists.
 */
function titleStrength(
  context: ScoringContext,
  sentence: Sentence,
  centre: Float32Array | undefined,
): number {
  const cleaned = cleanSpokenText(sentence.text);
  const words = wordTokens(cleaned).length;
  if (words < 3) return -Infinity;
  const terms = contentTerms(sentence.text);
  const specificity =
    terms.reduce((sum, term) => sum + context.index.idf(term), 0) / Math.sqrt(words);
  const strikes = interest(sentenceCues(sentence.text));
  let score = (0.5 + strikes) * (1 + specificity / 4);
  // A long sentence is cut for its title, which costs it a little, not its strength.
  if (words > 14) score *= Math.sqrt(14 / words);
  if (cleaned.length > TITLE_MAX_CHARS) score *= 0.85;
  if (/\?["')]*$/.test(sentence.text.trim())) score *= 0.8;
  // What the clip is about, not an aside in it ("Please take a seat").
  const vector = context.vectors?.[sentence.index];
  if (centre && vector) score *= 0.25 + Math.max(0, cosine(vector, centre));
  if (sentenceCues(sentence.text).housekeeping > 0) score *= 0.2;
  return score;
}

/**
 * 0: the title the sentence makes holds no word the engine was unsure of; 1: it holds one;
 * 2: it starts on one. A title comes from the cleanest tier that has a sentence to offer.
 */
function unsureTier(sentence: Sentence): number {
  const spoken = titleWords(sentence);
  const shown = wordTokens(cutTitle(cleanSpokenText(sentence.text))).length;
  if (spoken[0] && isLowConfidence(spoken[0])) return 2;
  return spoken.slice(0, shown).some(isLowConfidence) ? 1 : 0;
}

/**
 * Title from the clip's own strongest sentence, from its sentence start (less a leading
 * "so" or "and"), whole words, at most TITLE_MAX_CHARS with a sensible cut. No LLM needed.
 */
export function extractiveTitle(context: ScoringContext, sentences: readonly Sentence[]): string {
  const vectors = sentences.flatMap((sentence) => context.vectors?.[sentence.index] ?? []);
  const centre = vectors.length === sentences.length ? meanVector(vectors) : undefined;
  const scored = sentences.map((sentence) => ({
    sentence,
    score: titleStrength(context, sentence, centre),
    tier: unsureTier(sentence),
  }));
  // Never a title that starts on, or shows, a word the engine was unsure of when a cleaner
  // sentence can title the clip.
  const titled = scored.filter((s) => s.score > -Infinity);
  const cleanest = Math.min(...titled.map((s) => s.tier));
  const pool = titled.length ? titled.filter((s) => s.tier === cleanest) : scored;
  const best = pool.reduce<(typeof pool)[number] | undefined>(
    (top, s) => (!top || s.score > top.score ? s : top),
    undefined,
  );
  const source = best?.score === -Infinity ? sentences[0] : (best?.sentence ?? sentences[0]);
  if (!source) return '';
  return cutTitle(cleanSpokenText(source.text).replace(/[.,;:…]+$/, ''));
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

/**
 * Hashtags as keyphrases: the clip's noun phrases most like its meaning (MiniLM, or
 * how often and distinctively it uses them without the model), each unlike the ones before; never
 * a stopword, a bare number, or (when others exist) a word the engine was unsure of.
 */
export async function keyphraseHashtags(
  sentences: readonly Sentence[],
  options: {
    embedder: SentenceEmbedder | null;
    centre?: Float32Array;
    elsewhere?: readonly string[];
    limit?: number;
  },
): Promise<string[]> {
  const phrases = await keyphrases(
    sentences.map((sentence) => sentence.text),
    {
      embedder: options.embedder,
      centre: options.centre,
      elsewhere: options.elsewhere,
      lowConfidence: lowConfidenceForms(sentences.flatMap((sentence) => sentence.words)),
      maxWords: 3,
      limit: (options.limit ?? 4) + 2,
    },
  );
  const tags: string[] = [];
  for (const phrase of phrases) {
    const tag = hashtagOf(phrase.text);
    if (tag && tag.length <= 30 && !tags.includes(tag)) tags.push(tag);
  }
  return tags.slice(0, options.limit ?? 4);
}

/** Cleans a hashtag an LLM proposed; drops what is not a tag. */
export function normaliseHashtag(tag: string): string | undefined {
  const body = tag.replace(/^#+/, '').replace(/[^\p{L}\p{N}_]/gu, '');
  return body.length >= 2 && body.length <= 40 ? `#${body}` : undefined;
}
