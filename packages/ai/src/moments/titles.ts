import {
  endsOnFunctionWord,
  hashtagOf,
  isLowConfidence,
  keyphrases,
  lexicalKeyphrases,
  lowConfidenceForms,
  tagWords,
  type Keyphrase,
} from '../language/index';
import { cosine, type SentenceEmbedder } from '../search/embeddings';
import { meanVector } from '../topics/shifts';
import { contentTerms, wordTokens } from '../search/text';
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

/** Words that open a clause which cannot stand alone ("If you want to save,"). */
const SUBORDINATE_START =
  /^(?:if|when|whenever|while|because|since|although|though|unless|until|before|after|as|once|whether|so that|even if|even though)\b/i;
/** Words after a cut that would turn what the title says around ("…, but not for long"). */
const TURNS_IT_AROUND =
  /^(?:(?:and|or) )?(?:but|yet|although|though|except|unless|not|never|no|nor|only if|instead|rather|without)\b/i;
const NEGATION = /\b(?:not|never|no|nobody|nothing|none|neither|nor|without|cannot)\b|n['’]t\b/i;

/** The sentence's clauses: split after commas, semicolons, colons and dashes, with their text. */
function clauses(text: string): string[] {
  return text
    .split(/(?<=[,;:])\s+|\s+[–—-]\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Tags a clause cannot end on: it would run on into the words cut away ("the", "and", "if"). */
const LOOSE_ENDS = new Set(['DET', 'CCONJ', 'SCONJ']);

/**
 * Whether the words make a clause a reader takes as whole: three words or more, a verb, no loose
 * end. The clause ends where the speaker paused (a comma), so a particle may end it ("write it down").
 */
function standsAlone(text: string): boolean {
  if (wordTokens(text).length < 3) return false;
  const tagged = tagWords(text.charAt(0).toLowerCase() + text.slice(1)).filter((word) =>
    /[\p{L}\p{N}]/u.test(word.text),
  );
  const last = tagged.at(-1);
  if (!last || LOOSE_ENDS.has(last.pos)) return false;
  return tagged.some((word) => word.pos === 'VERB' || word.pos === 'AUX');
}

/**
 * A whole title from a sentence, at most `maxChars`: the sentence itself, or its leading run of
 * clauses that stands alone (never a dependent clause on its own, never a cut that drops the turn
 * or the negation of what is said: "More money" from "you do not need more money" would say the
 * opposite). Undefined when no part of the sentence makes one.
 */
export function wholeTitle(text: string, maxChars = TITLE_MAX_CHARS): string | undefined {
  const sentence = text.replace(/[\s.,;:…]+$/, '').trim();
  if (sentence.length <= maxChars) return wordTokens(sentence).length ? sentence : undefined;
  const parts = clauses(sentence);
  // Runs of clauses from the start, longest first; then a main clause after an opening one
  // ("If you only remember one thing, | write it down").
  const runs: { from: number; to: number }[] = [];
  for (let to = parts.length - 2; to >= 0; to--) runs.push({ from: 0, to });
  for (let from = 1; from < parts.length; from++)
    for (let to = parts.length - 1; to >= from; to--) runs.push({ from, to });
  for (const { from, to } of runs) {
    const title = parts
      .slice(from, to + 1)
      .join(' ')
      .replace(/[\s,;:]+$/, '');
    if (title.length > maxChars) continue;
    const dropped = parts.slice(to + 1).join(' ');
    const before = parts.slice(0, from).join(' ');
    if (TURNS_IT_AROUND.test(dropped)) continue;
    // The negation said before the clause belongs to it ("Not once, did I …").
    if (before && NEGATION.test(before) && !NEGATION.test(title)) continue;
    if (SUBORDINATE_START.test(title) && to === from) continue;
    if (from > 0 && !SUBORDINATE_START.test(before)) continue;
    if (!standsAlone(title)) continue;
    const cleaned = cleanSpokenText(title);
    return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
  }
  return undefined;
}

/**
 * A title cut to `maxChars`: a whole clause where the sentence has one (`wholeTitle`), otherwise
 * its words up to the last one that leaves no loose end ("Dress for the" is not a title), without
 * an ellipsis: a title reads as said, not as a sentence cut off.
 */
export function cutTitle(text: string, maxChars = TITLE_MAX_CHARS): string {
  const whole = wholeTitle(text, maxChars);
  if (whole) return whole;
  let cut = text.slice(0, maxChars + 1).replace(/\s+\S*$/, '');
  for (let guard = 0; guard < 8 && endsOnFunctionWord(cut); guard++) {
    const shorter = cut.replace(/[\s,;:]+\S*$/, '');
    if (shorter.length < maxChars / 3) break;
    cut = shorter;
  }
  return cut.replace(/[\s,;:.…]+$/, '');
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
  const shown = wordTokens(cutTitle(cleanSpokenText(sentence.text)));
  const first = shown[0];
  // Where the title starts in what was said: a title may be a later clause of its sentence.
  const tokens = sentence.words.map((word) => wordTokens(word.text)[0]);
  const at = tokens.findIndex(
    (token, k) =>
      token === first && shown.slice(1, 3).every((next, j) => tokens[k + j + 1] === next),
  );
  const from = at >= 0 ? at : Math.max(0, tokens.indexOf(first));
  return sentence.words.slice(from, from + shown.length);
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
  // A sentence that gives no whole title only titles a clip where no sentence does.
  if (!wholeTitle(cleaned)) score *= 0.3;
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
  if (spoken[0] && isLowConfidence(spoken[0])) return 2;
  return spoken.some(isLowConfidence) ? 1 : 0;
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
/** Greetings, thanks and replies: said to the room, never what a clip is about. */
const GREETINGS = new Set(
  `hello hi hey welcome thanks thank bye goodbye okay ok yes yeah yep no nope please sorry cheers
everyone everybody guys folks friends morning afternoon evening tonight show episode channel video
podcast today`.split(/\s+/),
);
/** Hashtags per clip at most (fewer where the clip names fewer topics). */
export const HASHTAGS_MAX = 5;
/** What a phrase of two or more words, or a name, gains over a single noun when tags are ranked. */
const PHRASE_BONUS = 0.2;

/**
 * Whether a keyphrase makes a tag a person would post: a phrase of two or more words, a name, or a
 * noun that names a topic; never a greeting, a word said as a verb in the clip ("judge" in "do not
 * judge it"), a function word, a number, or a word the engine was unsure of.
 */
function postable(phrase: Keyphrase, verbs: ReadonlySet<string>, unsure: ReadonlySet<string>) {
  const words = wordTokens(phrase.text);
  if (words.some((word) => unsure.has(word) || GREETINGS.has(word))) return false;
  if (words.length > 1) return contentTerms(phrase.text).length >= 1;
  const [word] = words;
  if (!word || phrase.tags.length !== 1) return false;
  if (contentTerms(word).length === 0 || NOT_TOPICS.has(word)) return false;
  if (CLAIM_WORDS.has(word) || INTENSIFIERS.has(word)) return false;
  return !verbs.has(word) && !verbs.has(phrase.head);
}

/** The lower-cased words (and lemmas) the tagger reads as verbs anywhere in the texts. */
function verbsIn(texts: readonly string[]): Set<string> {
  const verbs = new Set<string>();
  for (const text of texts)
    for (const word of tagWords(text))
      if (word.pos === 'VERB' || word.pos === 'AUX') {
        verbs.add(word.text.toLowerCase());
        verbs.add(word.lemma);
      }
  return verbs;
}

/** Ranked keyphrases as tags: postable ones only, phrases and names first, each tag once. */
function tagsFrom(
  phrases: readonly Keyphrase[],
  texts: readonly string[],
  unsure: ReadonlySet<string>,
  limit: number,
): string[] {
  const verbs = verbsIn(texts);
  const ranked = phrases
    .filter((phrase) => postable(phrase, verbs, unsure))
    .map((phrase) => ({
      phrase,
      rank:
        phrase.score + (phrase.tags.length > 1 || phrase.tags.includes('PROPN') ? PHRASE_BONUS : 0),
    }))
    .sort((a, b) => b.rank - a.rank);
  const tags: string[] = [];
  for (const { phrase } of ranked) {
    const tag = hashtagOf(phrase.text);
    if (tag && tag.length <= 30 && !tags.includes(tag)) tags.push(tag);
    if (tags.length >= limit) break;
  }
  return tags;
}

/**
 * Hashtags without the sentence model: the span's noun phrases ranked by how often and how
 * distinctively it uses them (its salient terms first), in their spoken form, CamelCase.
 */
export function hashtagsFor(
  sentences: readonly Sentence[],
  salientTerms: readonly string[],
  limit = HASHTAGS_MAX,
): string[] {
  const texts = sentences.map((sentence) => sentence.text);
  const unsure = lowConfidenceForms(sentences.flatMap((sentence) => sentence.words));
  const salient = new Set(salientTerms);
  const phrases = lexicalKeyphrases(texts, { maxWords: 3, limit: limit * 3 }).map((phrase) => ({
    ...phrase,
    // A phrase on the span's salient terms says what it is about.
    score:
      phrase.score +
      0.3 * (phrase.stems.filter((term) => salient.has(term)).length / phrase.stems.length),
  }));
  return tagsFrom(phrases, texts, unsure, limit);
}

/**
 * Hashtags as keyphrases: the clip's noun phrases most like its meaning (MiniLM, or how often and
 * distinctively it uses them without the model), each unlike the ones before, phrases and names
 * first; never a bare verb, a greeting, a function word, a number or a word the engine was unsure
 * of. At most HASHTAGS_MAX, fewer where the clip names fewer things.
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
  const texts = sentences.map((sentence) => sentence.text);
  const unsure = lowConfidenceForms(sentences.flatMap((sentence) => sentence.words));
  const limit = options.limit ?? HASHTAGS_MAX;
  const phrases = await keyphrases(texts, {
    embedder: options.embedder,
    centre: options.centre,
    elsewhere: options.elsewhere,
    lowConfidence: unsure,
    maxWords: 3,
    limit: limit * 3,
  });
  return tagsFrom(phrases, texts, unsure, limit);
}

/** Cleans a hashtag an LLM proposed; drops what is not a tag. */
export function normaliseHashtag(tag: string): string | undefined {
  const body = tag.replace(/^#+/, '').replace(/[^\p{L}\p{N}_]/gu, '');
  return body.length >= 2 && body.length <= 40 ? `#${body}` : undefined;
}
