/**
 * What the quality bench measures on a marked talk, each rule as a reader would judge
 * the output. Definitions:
 * - a moment finds a highlight when it holds 60% of the paragraph and is at least half that
 *   paragraph (a 90 s clip that wraps a highlight in filler does not count);
 * - recall@3 is the highlights found in the top 3 over min(3, highlights) per talk (a talk with
 *   four highlights can show only three in a top 3);
 * - a moment is filler when it spends more than a third of its length on a filler paragraph;
 * - a main point is stated when a key point lies in its paragraph (key points are tied to their
 *   time) or the overview states one of its sentences (quotes it, or holds 70% of its content words);
 * - a chapter start is on a shift when a marked shift starts within 5 s of it;
 * - an answer is good when it covers at least half of the marked answer and lasts no longer than
 *   the answer plus 15 s.
 */
import type { Moment } from '../../packages/ai/src/moments/index';
import type { VideoSummary } from '../../packages/ai/src/summary/index';
import {
  endsOnFunctionWord,
  nounPhrases,
  tagWords,
  isUnsureContentWord,
  LOW_CONFIDENCE,
} from '../../packages/ai/src/language/index';
import { contentTerms, wordTokens } from '../../packages/ai/src/search/text';
import { paragraphSpan, spanOf, type Span, type SpokenMarkedTalk } from './talks';

function overlapMs(a: Span, b: Span): number {
  return Math.max(0, Math.min(a.endMs, b.endMs) - Math.max(a.startMs, b.startMs));
}

function coversParagraph(moment: Span, paragraph: Span): boolean {
  const overlap = overlapMs(moment, paragraph);
  return (
    overlap >= 0.6 * (paragraph.endMs - paragraph.startMs) &&
    overlap >= 0.5 * (moment.endMs - moment.startMs)
  );
}

const indices = (
  talk: SpokenMarkedTalk,
  keep: (p: SpokenMarkedTalk['paragraphs'][number]) => boolean,
) => talk.paragraphs.flatMap((p, i) => (keep(p) ? [i] : []));

export interface MomentFigures {
  highlights: number;
  /** min(3, highlights): the most a top 3 can find. */
  reachable3: number;
  found3: number;
  found5: number;
  filler3: number;
  takeawayTop3: boolean;
  takeawayRank: number;
}

export function momentFigures(talk: SpokenMarkedTalk, moments: readonly Moment[]): MomentFigures {
  const highlights = indices(talk, (p) => p.highlight);
  const rankOf = (paragraph: number) =>
    moments.findIndex((m) => coversParagraph(m, paragraphSpan(talk, paragraph)));
  const ranks = highlights.map(rankOf);
  const fillers = indices(talk, (p) => p.filler).map((i) => paragraphSpan(talk, i));
  const top3 = moments.slice(0, 3);
  const takeaway = indices(talk, (p) => p.takeaway)[0];
  const takeawayRank = takeaway === undefined ? -1 : rankOf(takeaway);
  return {
    highlights: highlights.length,
    reachable3: Math.min(3, highlights.length),
    found3: ranks.filter((rank) => rank >= 0 && rank < 3).length,
    found5: ranks.filter((rank) => rank >= 0 && rank < 5).length,
    filler3: top3.filter((m) =>
      fillers.some((span) => overlapMs(m, span) > (m.endMs - m.startMs) / 3),
    ).length,
    takeawayTop3: takeawayRank >= 0 && takeawayRank < 3,
    takeawayRank,
  };
}

const normalised = (text: string) => wordTokens(text).join(' ');

/** Whether a written text states the sentence: it quotes it, or holds most of its content words. */
function states(written: string, sentence: string): boolean {
  if (normalised(written).includes(normalised(sentence))) return true;
  const terms = new Set(contentTerms(sentence));
  if (terms.size < 3) return false;
  const writtenTerms = new Set(contentTerms(written));
  return [...terms].filter((term) => writtenTerms.has(term)).length >= 0.7 * terms.size;
}

export interface SummaryFigures {
  mainPoints: number;
  mainStated: number;
  chapterStarts: number;
  startsOnShift: number;
  shifts: number;
  shiftsFound: number;
  chapterTitles: number;
  goodTitles: number;
  badTitles: string[];
  /** Key points said in a marked filler paragraph (a sponsor read, a sign-off): half or more of it. */
  fillerKeyPoints: number;
}

const SHIFT_TOLERANCE_MS = 5000;

export function summaryFigures(talk: SpokenMarkedTalk, summary: VideoSummary): SummaryFigures {
  const main = indices(talk, (p) => p.main);
  // A key point is tied to its time: it states the paragraph it lies in. The overview has no
  // times, so its text must state one of the paragraph's sentences.
  const mainStated = main.filter((paragraph) => {
    const span = paragraphSpan(talk, paragraph);
    const inKeyPoints = summary.keyPoints.some(
      (point) => overlapMs(point, span) >= 0.5 * (point.endMs - point.startMs),
    );
    return (
      inKeyPoints ||
      talk.paragraphs[paragraph]!.sentences.some((s) =>
        states(summary.overview, talk.sentences[s]!.text),
      )
    );
  }).length;
  const shiftTimes = indices(talk, (p) => p.shift).map((i) => paragraphSpan(talk, i).startMs);
  const starts = summary.chapters.slice(1).map((chapter) => chapter.startMs);
  const near = (a: number, b: number) => Math.abs(a - b) <= SHIFT_TOLERANCE_MS;
  const badTitles = summary.chapters
    .map((chapter) => chapter.title)
    .filter((title) => nounPhrases(title).length === 0 || endsOnFunctionWord(title));
  return {
    mainPoints: main.length,
    mainStated,
    chapterStarts: starts.length,
    startsOnShift: starts.filter((start) => shiftTimes.some((shift) => near(start, shift))).length,
    shifts: shiftTimes.length,
    shiftsFound: shiftTimes.filter((shift) => starts.some((start) => near(start, shift))).length,
    chapterTitles: summary.chapters.length,
    goodTitles: summary.chapters.length - badTitles.length,
    badTitles,
    fillerKeyPoints: summary.keyPoints.filter((point) =>
      indices(talk, (p) => p.filler).some(
        (i) => overlapMs(point, paragraphSpan(talk, i)) >= 0.5 * (point.endMs - point.startMs),
      ),
    ).length,
  };
}

export interface AnswerFigures {
  questions: number;
  good: number;
  covering: number;
  /** Seconds the top answer runs past the marked answer's length (median over questions). */
  paddingSeconds: number[];
}

export function answerFigures(
  talk: SpokenMarkedTalk,
  answers: readonly (readonly Moment[])[],
): AnswerFigures {
  let good = 0;
  let covering = 0;
  const paddingSeconds: number[] = [];
  talk.questions.forEach((question, k) => {
    const marked = spanOf(talk, question.sentences);
    const top = answers[k]?.[0];
    if (!top) return;
    const covers = overlapMs(top, marked) >= 0.5 * (marked.endMs - marked.startMs);
    const extraMs = top.endMs - top.startMs - (marked.endMs - marked.startMs);
    paddingSeconds.push(extraMs / 1000);
    if (covers) covering++;
    if (covers && extraMs <= 15_000) good++;
  });
  return { questions: talk.questions.length, good, covering, paddingSeconds };
}

/** "ill -disposed", "cold- hearted": a compound split by a space in anything written. */
export function splitHyphenations(texts: readonly string[]): string[] {
  return texts.filter((text) => /[\p{L}\p{N}] -[\p{L}]|[\p{L}]- [\p{L}\p{N}]/u.test(text));
}

/**
 * Titles that start on a word the engine was unsure of, although the clip has a sentence whose
 * first word it was sure of (a clean alternative).
 */
export function titlesOnLowConfidence(
  talk: SpokenMarkedTalk,
  moments: readonly Moment[],
): string[] {
  const words = talk.transcript.segments.flatMap((segment) => segment.words);
  return moments
    .filter((moment) => {
      const inside = words.filter((w) => w.startMs >= moment.startMs && w.endMs <= moment.endMs);
      // The title's first word where the title was said: the first place its opening words run.
      const opening = wordTokens(moment.title.replace(/…$/, '')).slice(0, 3);
      const tokens = inside.map((w) => wordTokens(w.text)[0]);
      const at = tokens.findIndex((_, k) => opening.every((token, j) => tokens[k + j] === token));
      const spoken = inside[at >= 0 ? at : tokens.indexOf(opening[0])];
      if (!spoken || spoken.confidence >= LOW_CONFIDENCE) return false;
      // A clean alternative: a sentence of the clip that can title it (three words or more, as
      // titles need) whose first word the engine was sure of.
      const sentenceEnd = (k: number) => /[.!?]["')]*$/.test(inside[k]?.text ?? '');
      return inside.some(
        (w, k) =>
          k > 0 &&
          sentenceEnd(k - 1) &&
          w.confidence >= LOW_CONFIDENCE &&
          !sentenceEnd(k) &&
          !sentenceEnd(k + 1) &&
          k + 2 < inside.length,
      );
    })
    .map((moment) => moment.title);
}

/** Key points that show a content word the engine was unsure of (`isUnsureContentWord`). */
export function keyPointsOnLowConfidence(talk: SpokenMarkedTalk, summary: VideoSummary): string[] {
  const words = talk.transcript.segments.flatMap((segment) => segment.words);
  return summary.keyPoints
    .filter((point) =>
      words.some(
        (w) => w.startMs >= point.startMs && w.endMs <= point.endMs && isUnsureContentWord(w),
      ),
    )
    .map((point) => point.text);
}

/** "#BatteryLife" → ["battery", "life"]: a CamelCase tag's words. */
export const hashtagWords = (tag: string): string[] =>
  tag
    .replace(/^#/, '')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);

const NOUN_PHRASE_TAGS = new Set(['ADJ', 'NOUN', 'PROPN', 'NUM']);

/**
 * Whether a hashtag is a noun phrase as the clip says it: its words, found in the clip's text and
 * tagged there (a word is a noun or a verb by its sentence: "judge" in "do not judge it"), are
 * adjectives, nouns, names or numbers ending on a noun or name ("of" may join two). A tag whose
 * words the clip never says in a row is tagged on its own.
 */
export function isNounPhraseTag(tag: string, clipText: string): boolean {
  const words = hashtagWords(tag);
  if (words.length === 0) return false;
  const tagged = tagWords(clipText);
  const lower = tagged.map((word) => word.text.toLowerCase());
  let at = -1;
  for (let k = 0; k + words.length <= lower.length && at < 0; k++)
    if (words.every((word, j) => lower[k + j] === word)) at = k;
  const tags = (at >= 0 ? tagged.slice(at, at + words.length) : tagWords(words.join(' '))).map(
    (word) => (word.text.toLowerCase() === 'of' ? 'of' : word.pos),
  );
  const last = tags.at(-1);
  return (
    (last === 'NOUN' || last === 'PROPN') &&
    tags.every((t) => NOUN_PHRASE_TAGS.has(t) || t === 'of') &&
    tags[0] !== 'of'
  );
}

/** Filler words the titles drop from what was said ("um", "you know"). */
const TITLE_FILLERS = new Set(['um', 'umm', 'uh', 'uhh', 'erm', 'hmm']);

/**
 * Whether a title is whole: at most 60 characters, no ellipsis, and its words are said in the clip
 * in a row ending where the speaker's words end (a full stop, a comma, a question mark), so it is
 * a sentence or a clause, not a sentence cut off.
 */
export function isWholeTitle(title: string, clipText: string): boolean {
  if (title.length > 60 || /…|\.\.\./.test(title)) return false;
  const words = wordTokens(title);
  if (words.length === 0) return false;
  const raw = clipText.split(/\s+/).filter(Boolean);
  const said = raw.map((token) => wordTokens(token).join(' '));
  for (let k = 0; k < said.length; k++) {
    let i = k;
    let j = 0;
    while (i < said.length && j < words.length) {
      if (said[i] === '' || TITLE_FILLERS.has(said[i]!)) i++;
      else if (said[i] === words[j]) {
        i++;
        j++;
      } else if (said[i]!.includes(' ') && said[i]!.split(' ')[0] === words[j]) {
        // "don't" is one written token and two title words in some spellings.
        const parts = said[i]!.split(' ');
        if (parts.every((part, p) => words[j + p] === part)) {
          j += parts.length;
          i++;
        } else break;
      } else break;
    }
    if (j === words.length)
      return /[.,;:!?…"'”’)\]—–-]$/.test(raw[i - 1] ?? '') || i === raw.length;
  }
  return false;
}

/** Whether the top answer holds every marked answer sentence whole (a quarter second's leeway). */
export function holdsAnswerSentences(
  talk: SpokenMarkedTalk,
  question: SpokenMarkedTalk['questions'][number],
  top: Span | undefined,
): boolean {
  if (!top) return false;
  return question.sentences.every((i) => {
    const span = talk.sentenceSpans[i]!;
    return top.startMs <= span.startMs + 250 && top.endMs >= span.endMs - 250;
  });
}

export interface ReadingFigures {
  hashtags: number;
  nounPhraseTags: number;
  titles: number;
  wholeTitles: number;
  answers: number;
  answersHolding: number;
  /** Moments (and top answers) whose score is not the sum of the points their reasons show. */
  scoresOffPoints: number;
  chapters: number;
  /** Marked topics: the shifts plus the talk's opening topic. */
  topics: number;
}

/** What a person reads: hashtags, titles, answers and chapters, by the rules above. */
export function readingFigures(
  talk: SpokenMarkedTalk,
  moments: readonly Moment[],
  answers: readonly (readonly Moment[])[],
  summary: VideoSummary,
): ReadingFigures {
  const shown = [...moments, ...answers.flatMap((list) => list.slice(0, 1))];
  const tags = shown.flatMap((m) => m.hashtags.map((tag) => ({ tag, text: m.text })));
  return {
    hashtags: tags.length,
    nounPhraseTags: tags.filter(({ tag, text }) => isNounPhraseTag(tag, text)).length,
    titles: shown.length,
    wholeTitles: shown.filter((m) => isWholeTitle(m.title, m.text)).length,
    answers: talk.questions.length,
    answersHolding: talk.questions.filter((q, k) => holdsAnswerSentences(talk, q, answers[k]?.[0]))
      .length,
    scoresOffPoints: shown.filter(
      (m) => m.reasons.reduce((sum, reason) => sum + reason.weight, 0) !== m.score,
    ).length,
    chapters: summary.chapters.length,
    topics: 1 + talk.paragraphs.filter((p) => p.shift).length,
  };
}
