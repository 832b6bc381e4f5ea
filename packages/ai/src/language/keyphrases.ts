/**
 * Keyphrases: the noun phrases of a passage that best say what it is about, for hashtags
 * and chapter titles. Candidates come from the tagger (english.ts); they are ranked by MiniLM
 * similarity to the passage when an embedder is given (by how often and how distinctively the
 * passage uses them otherwise), and picked with maximal marginal relevance so that the second
 * phrase says something the first did not.
 */
import { cosine, type SentenceEmbedder } from '../search/embeddings';
import { stem, wordTokens } from '../search/text';
import { featuresLowConfidence } from './confidence';
import { pickDiverse } from './diversity';
import { nounPhrases, type NounPhrase } from './english';

export interface Keyphrase {
  text: string;
  head: string;
  /** Stems of the phrase's words: two phrases sharing them say the same thing. */
  stems: string[];
  /** How often the passage uses the phrase's head noun. */
  count: number;
  /** Each word's part of speech (NOUN, PROPN, ADJ, NUM, ADP for "of"). */
  tags: string[];
  score: number;
}

export interface KeyphraseOptions {
  /** Other passages of the same video: a phrase used everywhere says little about this one. */
  elsewhere?: readonly string[];
  /** Lower-cased forms of words the engine was unsure of; phrases holding them come last. */
  lowConfidence?: ReadonlySet<string>;
  /** "price of bread": allow one "of" inside a phrase (titles; hashtags stay short). */
  withOf?: boolean;
  maxWords?: number;
  limit?: number;
  /** MMR trade-off: 1 ranks by relevance only, lower values favour phrases unlike those chosen. */
  relevanceShare?: number;
}

/** The distinct noun-phrase candidates of the texts, each counted by its head noun. */
function candidates(texts: readonly string[], options: KeyphraseOptions): Keyphrase[] {
  const maxWords = options.maxWords ?? 4;
  const byText = new Map<string, Keyphrase>();
  const headCounts = new Map<string, number>();
  const phrases: NounPhrase[] = texts.flatMap((text) => nounPhrases(text, options));
  for (const phrase of phrases) headCounts.set(phrase.head, (headCounts.get(phrase.head) ?? 0) + 1);
  for (const phrase of phrases) {
    const words = wordTokens(phrase.text);
    if (words.length === 0 || words.length > maxWords) continue;
    const key = words.join(' ');
    if (byText.has(key)) continue;
    byText.set(key, {
      text: phrase.text,
      head: phrase.head,
      stems: words.map(stem),
      count: headCounts.get(phrase.head) ?? 1,
      tags: phrase.words.map((word) => word.pos),
      score: 0,
    });
  }
  return [...byText.values()];
}

/** Lexical relevance: heads used often here and rarely elsewhere, longer phrases slightly preferred. */
function lexicalScores(phrases: Keyphrase[], elsewhere: readonly string[]): number[] {
  const other = new Map<string, number>();
  for (const text of elsewhere)
    for (const token of new Set(wordTokens(text).map(stem)))
      other.set(token, (other.get(token) ?? 0) + 1);
  const documents = elsewhere.length + 1;
  return phrases.map((phrase) => {
    const head = stem(phrase.head);
    const idf = Math.log(1 + documents / (1 + (other.get(head) ?? 0)));
    // Two or three words name a topic better than one ("battery life", not "life").
    return Math.min(3, phrase.count) * idf * (1 + 0.3 * Math.min(2, phrase.stems.length - 1));
  });
}

const overlapOf = (a: Keyphrase, b: Keyphrase) =>
  a.stems.filter((s) => b.stems.includes(s)).length / Math.min(a.stems.length, b.stems.length);

/** Picks the best `limit` phrases, each unlike those before (maximal marginal relevance). */
function pickPhrases(
  phrases: Keyphrase[],
  options: KeyphraseOptions,
  similarity: (a: number, b: number) => number,
): Keyphrase[] {
  // Unsure words go last, used only when nothing clean is left.
  const low = options.lowConfidence ?? new Set<string>();
  for (const phrase of phrases) if (featuresLowConfidence(phrase.text, low)) phrase.score -= 2;
  return pickDiverse(
    phrases.map((_, i) => i),
    {
      count: options.limit ?? 4,
      relevance: (i) => phrases[i]!.score,
      similarity,
      relevanceShare: options.relevanceShare ?? 0.7,
      // A phrase repeating a picked one's words is the same tag twice ("sleep", "more sleep").
      excludes: (i, j) => overlapOf(phrases[i]!, phrases[j]!) > 0,
    },
  ).map((i) => phrases[i]!);
}

/** The passage's keyphrases by words alone (how often and distinctively it uses them), best first. */
export function lexicalKeyphrases(
  texts: readonly string[],
  options: KeyphraseOptions = {},
): Keyphrase[] {
  const phrases = candidates(texts, options);
  if (!phrases.length) return [];
  const lexical = lexicalScores(phrases, options.elsewhere ?? []);
  const topLexical = Math.max(...lexical) || 1;
  phrases.forEach((phrase, i) => (phrase.score = lexical[i]! / topLexical));
  return pickPhrases(phrases, options, (a, b) => overlapOf(phrases[a]!, phrases[b]!));
}

/**
 * The passage's keyphrases, best first. With an embedder, relevance is the phrase's similarity to
 * the passage's meaning (`centre`, or the texts embedded as one), mixed with its lexical weight.
 */
export async function keyphrases(
  texts: readonly string[],
  options: KeyphraseOptions & { embedder?: SentenceEmbedder | null; centre?: Float32Array } = {},
): Promise<Keyphrase[]> {
  if (!options.embedder) return lexicalKeyphrases(texts, options);
  const phrases = candidates(texts, options);
  if (!phrases.length) return [];
  const lexical = lexicalScores(phrases, options.elsewhere ?? []);
  const topLexical = Math.max(...lexical) || 1;
  const vectors = await options.embedder.embed(phrases.map((phrase) => phrase.text));
  const centre = options.centre ?? (await options.embedder.embed([texts.join(' ')]))[0]!;
  phrases.forEach((phrase, i) => {
    phrase.score = 0.6 * cosine(vectors[i]!, centre) + 0.4 * (lexical[i]! / topLexical);
  });
  return pickPhrases(phrases, options, (a, b) => cosine(vectors[a]!, vectors[b]!));
}

/** "#BatteryLife" from "battery life"; undefined when nothing of a tag is left. */
export function hashtagOf(phrase: string): string | undefined {
  const body = phrase
    .split(/[\s-]+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
  return body.length >= 3 && !/^\p{N}+$/u.test(body) ? `#${body}` : undefined;
}
