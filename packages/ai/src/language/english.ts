/**
 * English part-of-speech tagging (wink-nlp with its light English model, MIT, ~95% tagging
 * accuracy on its benchmarks) for what the machine writes: noun phrases for hashtags and
 * chapter titles, and whether a title ends on a function word ("Flight, airport and asked").
 */
import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

export interface TaggedWord {
  /** The word as written; a hyphenated compound is one word ("ill-disposed"). */
  text: string;
  /** Universal Dependencies tag: NOUN, PROPN, ADJ, VERB, DET, ADP, PRON, AUX, PUNCT... */
  pos: string;
  lemma: string;
}

let nlp: WinkMethods | undefined;
function tagger(): WinkMethods {
  nlp ??= winkNLP(model);
  return nlp;
}

/** Words that carry grammar rather than a topic: a title never ends on one. */
export const FUNCTION_TAGS = new Set(['DET', 'ADP', 'CCONJ', 'SCONJ', 'PRON', 'AUX', 'PART']);
const NOMINAL = new Set(['NOUN', 'PROPN']);
const MODIFIER = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);

/** Nouns that name no topic of their own ("thing", "way", "lot"), never a hashtag or a title. */
const EMPTY_NOUNS = new Set(
  `thing things stuff lot lots bit way ways kind sort part parts time times day days year years one ones
something everything anything nothing someone everyone anyone somebody everybody anybody nobody
end start beginning point fact case question answer example idea today yesterday tomorrow minute
minutes second seconds hour hours week weeks month months moment first second third last next`.split(
    /\s+/,
  ),
);

/** Lower-case abbreviations whose period belongs to them. */
const LOWERCASE_ABBREVIATIONS = new Set(['etc', 'vs', 'approx', 'incl', 'cf']);

/**
 * The tokenizer (wink's light English model) keeps a sentence's full stop on some short words as
 * if they were abbreviations ("in." for inches, "no." for number), and tags them nouns: "…direct
 * experience in." would name a topic "direct experience in.". A full stop after a lower-case word
 * is its own token here.
 */
const detachFullStops = (text: string) =>
  text.replace(/(?<![\p{L}.])(\p{Ll}+)\.(?=\s|$)/gu, (whole, word: string) =>
    LOWERCASE_ABBREVIATIONS.has(word) ? whole : `${word} .`,
  );

/** It also keeps "I'm" whole and calls it a name: a chapter was titled "I'm". */
const splitIAm = (text: string) => text.replace(/\bI(['’])m\b/g, 'I $1m');

/** The text's words with their tags; compounds written with a hyphen stay one word. */
export function tagWords(text: string): TaggedWord[] {
  const nlpTool = tagger();
  const its = nlpTool.its;
  const tokens = nlpTool.readDoc(splitIAm(detachFullStops(text))).tokens();
  const values = tokens.out(its.value) as string[];
  const tags = tokens.out(its.pos) as string[];
  // The light model's lemma addon is typed for the full model; it works on this one.
  const lemmas = tokens.out(its.lemma as Parameters<typeof tokens.out>[0]) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const words: TaggedWord[] = [];
  values.forEach((value, i) => {
    const previous = words[words.length - 1];
    const glued = i > 0 && spaces[i] === '';
    // "ill" "-" "disposed" (no spaces between) is one written word, tagged by its last part.
    if (previous && glued && (value === '-' || previous.text.endsWith('-'))) {
      previous.text += value;
      if (value !== '-') {
        previous.pos = tags[i]!;
        previous.lemma = `${previous.lemma}${lemmas[i]}`;
      } else previous.lemma += '-';
      return;
    }
    words.push({ text: value, pos: tags[i]!, lemma: (lemmas[i] ?? value).toLowerCase() });
  });
  return words;
}

const isWord = (word: TaggedWord) => /[\p{L}\p{N}]/u.test(word.text) && word.pos !== 'PUNCT';

/** True when the text's last word is a function word (article, preposition, pronoun, "and"...). */
export function endsOnFunctionWord(text: string): boolean {
  const words = tagWords(text).filter(isWord);
  const last = words[words.length - 1];
  return last !== undefined && FUNCTION_TAGS.has(last.pos);
}

export interface NounPhrase {
  /** The phrase as spoken, without a leading article or possessive ("first camera"). */
  text: string;
  words: TaggedWord[];
  /** Lemma of the phrase's last noun: phrases about the same thing share it. */
  head: string;
}

/**
 * Noun phrases: runs of adjectives, nouns and numbers that end on a noun ("battery life",
 * "first camera", "Mount Pinatubo"), optionally joined by "of" ("the price of bread" gives
 * "price of bread"). Articles and possessives in front are left out; phrases made only of nouns
 * that name no topic ("thing", "way") or of numbers are not returned.
 */
export function nounPhrases(text: string, options: { withOf?: boolean } = {}): NounPhrase[] {
  const words = tagWords(text);
  const phrases: NounPhrase[] = [];
  let i = 0;
  while (i < words.length) {
    if (!MODIFIER.has(words[i]!.pos) || !isWord(words[i]!)) {
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < words.length && MODIFIER.has(words[end + 1]!.pos) && isWord(words[end + 1]!))
      end++;
    // Back off to the last noun: "first camera" from "first camera"; "cold" alone is no phrase.
    let last = end;
    while (last >= i && !NOMINAL.has(words[last]!.pos)) last--;
    if (last < i) {
      i = end + 1;
      continue;
    }
    let phraseWords = words.slice(i, last + 1);
    // "price of bread": one more noun phrase after "of", when asked for (chapter titles).
    if (options.withOf && words[last + 1]?.lemma === 'of') {
      let k = last + 2;
      while (k < words.length && FUNCTION_TAGS.has(words[k]!.pos) && words[k]!.pos !== 'ADP') k++;
      let tail = k;
      while (tail < words.length && MODIFIER.has(words[tail]!.pos) && isWord(words[tail]!)) tail++;
      while (tail > k && !NOMINAL.has(words[tail - 1]!.pos)) tail--;
      if (tail > k) {
        phraseWords = [...phraseWords, words[last + 1]!, ...words.slice(k, tail)];
        end = tail - 1;
      }
    }
    // Numbers lead nothing on their own: "2 cameras" names cameras.
    while (phraseWords.length > 1 && phraseWords[0]!.pos === 'NUM') phraseWords.shift();
    const nouns = phraseWords.filter((word) => NOMINAL.has(word.pos));
    const head = nouns[nouns.length - 1]!;
    const named = nouns.some(
      (word) => !EMPTY_NOUNS.has(word.lemma) && !EMPTY_NOUNS.has(word.text.toLowerCase()),
    );
    if (named && !phraseWords.every((word) => word.pos === 'NUM'))
      phrases.push({
        text: phraseWords.map((word) => word.text).join(' '),
        words: phraseWords,
        head: head.lemma,
      });
    i = end + 1;
  }
  return phrases;
}

export interface GrammarCues {
  /** The sentence tells the listener to do something ("Keep a spare shirt at work."). */
  imperative: boolean;
  /** "should", "must", "ought to": a rule or advice in any person. */
  obligation: boolean;
  /** A superlative ("the most useful", "the biggest", "the best"): a strong claim. */
  superlative: boolean;
  /** A superlative about a lesson, rule, way or mistake: "the most useful thing you can do is...". */
  takeawayClaim: boolean;
}

/** Adverbs and interjections that may come before an imperative's verb ("So just keep..."). */
const BEFORE_IMPERATIVE = new Set([
  'so',
  'now',
  'just',
  'then',
  'also',
  'never',
  'always',
  'please',
  'first',
  'simply',
  'really',
  'only',
  'do',
  "don't",
  'dont',
]);
/** Nouns a takeaway is said with: "the best way", "the biggest mistake", "the one rule". */
const TAKEAWAY_NOUNS = new Set([
  'thing',
  'way',
  'rule',
  'lesson',
  'mistake',
  'reason',
  'secret',
  'trick',
  'advice',
  'tip',
  'step',
  'habit',
  'question',
  'problem',
  'part',
  'change',
  'difference',
  'decision',
]);

/** Words that open a clause before a command, whatever the tagger calls them ("when" is often ADV). */
const SUBORDINATORS = new Set(['when', 'whenever', 'while', 'once', 'if', 'unless', 'until']);

/** A base-form verb at `at` ("keep", "never shop"), but not "be", "have", "do" or "let" (openers). */
function isCommand(words: readonly TaggedWord[], lower: readonly string[], at: number): boolean {
  const head = words[at];
  return (
    head !== undefined &&
    head.pos === 'VERB' &&
    head.lemma === lower[at] &&
    !['be', 'have', 'do', 'let'].includes(head.lemma)
  );
}

/**
 * A command after an opening phrase or clause: "In every meeting, speak less.", "When the light
 * goes off, stay seated." The opening, up to the first comma, starts with a preposition or a
 * subordinating word (never "I know, …"); the command follows it.
 */
function commandAfterOpening(tagged: readonly TaggedWord[]): boolean {
  const comma = tagged.findIndex((word) => word.text === ',');
  const opening = tagged[0];
  if (!opening) return false;
  const opens = ['ADP', 'SCONJ'].includes(opening.pos) || SUBORDINATORS.has(opening.lemma);
  if (comma < 1 || comma > 12 || !opens) return false;
  const rest = tagged.slice(comma + 1).filter(isWord);
  const lower = rest.map((word) => word.text.toLowerCase().replace(/’/g, "'"));
  let first = 0;
  while (first < rest.length - 1 && BEFORE_IMPERATIVE.has(lower[first]!)) first++;
  return isCommand(rest, lower, first);
}

/**
 * Grammatical cues of advice and strong claims, from the tagger rather than phrase lists, so they
 * hold for wording no list foresaw. The first letter is lowered before tagging: a capitalised
 * sentence-initial verb ("Dress for...") is otherwise often taken for a name.
 */
export function grammarCues(sentence: string): GrammarCues {
  const text = sentence.trim();
  const tagged = tagWords(text.charAt(0).toLowerCase() + text.slice(1));
  const words = tagged.filter(isWord);
  const lower = words.map((word) => word.text.toLowerCase().replace(/’/g, "'"));
  let first = 0;
  while (first < words.length - 1 && BEFORE_IMPERATIVE.has(lower[first]!)) first++;
  // A base-form verb first ("keep", "never shop"), or after an opening phrase.
  // A command may end by quoting a question: "Before you advise, ask: do you want help?"
  const imperative =
    (!text.endsWith('?') && isCommand(words, lower, first)) || commandAfterOpening(tagged);
  const obligation = lower.some((word) =>
    ['should', 'must', 'ought', "shouldn't", "mustn't"].includes(word),
  );
  const superlativeAt = words.findIndex((word, i) => {
    const form = lower[i]!;
    if (['best', 'worst', 'most', 'least'].includes(form)) return true;
    return (
      (word.pos === 'ADJ' || word.pos === 'ADV') && form.endsWith('est') && word.lemma !== form
    );
  });
  const superlative = superlativeAt >= 0;
  const takeawayClaim =
    superlative &&
    words
      .slice(superlativeAt + 1, superlativeAt + 4)
      .some((word) => TAKEAWAY_NOUNS.has(word.lemma));
  return { imperative, obligation, superlative, takeawayClaim };
}
