import { LexicalIndex } from '../search/bm25';
import { contentTerms, contentTermsWithSurface, wordTokens } from '../search/text';
import {
  CLAIM_WORDS,
  CONTRAST_PATTERNS,
  EMOTION_WORDS,
  HOOK_PHRASES,
  INTENSIFIERS,
  NUMBER_WORDS,
  PERSONA_VOCABULARY,
  RESOLUTION_MARKERS,
  STORY_MARKERS,
} from './lexicon';
import type { Sentence } from './sentences';
import type { MomentReason, MomentReasonKind } from './types';

/** Per-sentence signals, computed once per transcript so thousands of candidate spans score cheaply. */
interface SentenceSignals {
  wordCount: number;
  terms: string[];
  hook: number;
  hookDetail: string;
  story: string | undefined;
  resolution: string | undefined;
  emotionHits: string[];
  exclamation: boolean;
  quote: number;
  audience: number;
}

export interface ScoringContext {
  sentences: Sentence[];
  signals: SentenceSignals[];
  index: LexicalIndex;
  totalTermCounts: Map<string, number>;
  totalTerms: number;
  medianWordsPerSecond: number;
  persona: string | undefined;
  /** 0..1 strength of the break after each sentence (long pause, topic change): where thoughts end. */
  breakAfter: number[];
  /** Each sentence's meaning (MiniLM or bag of stems), when the finder computed it. */
  vectors?: readonly Float32Array[];
}

export interface SpanScore {
  /** 0..1 weighted sum of the signals, before the length preference. */
  raw: number;
  score: number;
  reasons: MomentReason[];
  salientTerms: string[];
}

/** Signal weights: points out of 100 when a signal is at its maximum. */
const WEIGHTS: Record<
  Exclude<MomentReasonKind, 'relevance' | 'judge' | 'story' | 'whole' | 'penalty'>,
  number
> = {
  hook: 22,
  payoff: 22,
  emotion: 18,
  quotability: 12,
  salience: 16,
  pace: 10,
  audience: 0,
};
/** With a persona, its relevance takes this share of the score. */
const AUDIENCE_SHARE = 0.25;

function containsPhrase(text: string, phrases: readonly string[]): string | undefined {
  return phrases.find((phrase) =>
    new RegExp(`(^|[^\\p{L}])${phrase.replace(/'/g, "['’]")}([^\\p{L}]|$)`, 'u').test(text),
  );
}

function hookOf(sentence: Sentence, tokens: string[]): { hook: number; detail: string } {
  const lower = sentence.text.toLowerCase();
  let hook = 0;
  const details: string[] = [];
  if (/\?["'”’)]*$/.test(sentence.text.trim())) {
    hook += 0.35;
    details.push('a question');
  }
  const phrase = containsPhrase(lower, HOOK_PHRASES);
  if (phrase) {
    hook += 0.4;
    details.push(`"${phrase}"`);
  }
  const claims = tokens.filter((token) => CLAIM_WORDS.has(token));
  if (claims.length > 0) {
    hook += Math.min(0.45, 0.2 * claims.length);
    details.push(`a bold claim (${[...new Set(claims)].slice(0, 3).join(', ')})`);
  }
  if (/\d/.test(lower) || tokens.some((token) => NUMBER_WORDS.has(token))) {
    hook += 0.25;
    details.push('a number');
  }
  const story = containsPhrase(lower, STORY_MARKERS);
  if (story) {
    hook += 0.3;
    details.push(`the start of a story ("${story}")`);
  }
  if (tokens.some((token) => token === 'you' || token === 'your' || token === "you're")) {
    hook += 0.15;
    details.push('speaks to "you"');
  }
  return { hook: Math.min(1, hook), detail: details.join(', ') };
}

function quotabilityOf(sentence: Sentence, tokens: string[], emotionHits: number): number {
  const lower = sentence.text.toLowerCase();
  let quote = 0;
  if (CONTRAST_PATTERNS.some((pattern) => pattern.test(lower))) quote += 0.6;
  const short = tokens.length >= 4 && tokens.length <= 14 && sentence.terminal;
  if (short) quote += 0.2;
  if (short && (emotionHits > 0 || tokens.some((token) => CLAIM_WORDS.has(token)))) quote += 0.3;
  return Math.min(1, quote);
}

function personaQuery(persona: string): string {
  const extra = wordTokens(persona)
    .map((token) => PERSONA_VOCABULARY[token] ?? PERSONA_VOCABULARY[token.replace(/s$/, '')] ?? '')
    .join(' ');
  return `${persona} ${extra}`;
}

export function buildScoringContext(sentences: Sentence[], persona?: string): ScoringContext {
  const index = new LexicalIndex(sentences.map((sentence) => sentence.text));
  const cleanPersona = persona?.trim() || undefined;
  let audienceScores: Float64Array | undefined;
  if (cleanPersona) {
    const raw = index.scoreAll(LexicalIndex.expandQuery(personaQuery(cleanPersona)));
    const max = Math.max(0, ...raw);
    audienceScores = raw.map((value) => (max > 0 ? value / max : 0));
  }
  const totalTermCounts = new Map<string, number>();
  let totalTerms = 0;
  const signals = sentences.map((sentence, i): SentenceSignals => {
    const tokens = wordTokens(sentence.text);
    const terms = contentTerms(sentence.text);
    for (const term of terms) totalTermCounts.set(term, (totalTermCounts.get(term) ?? 0) + 1);
    totalTerms += terms.length;
    const lower = sentence.text.toLowerCase();
    const emotionHits = tokens.filter(
      (token) => EMOTION_WORDS.has(token) || INTENSIFIERS.has(token),
    );
    const { hook, detail } = hookOf(sentence, tokens);
    return {
      wordCount: tokens.length,
      terms,
      hook,
      hookDetail: detail,
      story: containsPhrase(lower, STORY_MARKERS),
      resolution: containsPhrase(lower, RESOLUTION_MARKERS),
      emotionHits,
      exclamation: /!["'”’)]*$/.test(sentence.text.trim()),
      quote: quotabilityOf(sentence, tokens, emotionHits.length),
      audience: audienceScores?.[i] ?? 0,
    };
  });
  const rates = sentences
    .filter((sentence) => sentence.endMs > sentence.startMs && sentence.words.length >= 3)
    .map((sentence) => sentence.words.length / ((sentence.endMs - sentence.startMs) / 1000))
    .sort((a, b) => a - b);
  return {
    breakAfter: thoughtBreaks(sentences, signals),
    sentences,
    signals,
    index,
    totalTermCounts,
    totalTerms,
    medianWordsPerSecond: rates[Math.floor(rates.length / 2)] ?? 2.5,
    persona: cleanPersona,
  };
}

/** Break strength between consecutive sentences: a pause longer than usual and little shared vocabulary. */
export function thoughtBreaks(
  sentences: readonly Sentence[],
  signals: readonly { terms: string[] }[],
): number[] {
  const gaps = sentences
    .slice(1)
    .map((sentence, k) => sentence.startMs - (sentences[k]?.endMs ?? sentence.startMs));
  const medianGap = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 500;
  const termsOf = (from: number, to: number) =>
    new Set(signals.slice(Math.max(0, from), Math.max(0, to)).flatMap((s) => s.terms));
  return sentences.map((_, k) => {
    const gap = gaps[k];
    if (gap === undefined) return 1;
    const pause = Math.max(0, Math.min(1, (gap / Math.max(1, medianGap) - 1) / 1.5));
    const before = termsOf(k - 1, k + 1);
    const after = termsOf(k + 1, k + 3);
    const shared = [...before].filter((term) => after.has(term)).length;
    const cohesion = Math.min(1, (shared / Math.max(1, Math.min(before.size, after.size))) * 2);
    return 0.6 * pause + 0.4 * (1 - cohesion);
  });
}

function quoteText(text: string, maxLength = 90): string {
  const trimmed = text.trim();
  return trimmed.length <= maxLength
    ? trimmed
    : `${trimmed.slice(0, maxLength - 1).replace(/\s+\S*$/, '')}…`;
}

/** One signal's part in a span's score, with the words that explain it. */
interface Contribution {
  kind: MomentReasonKind;
  value: number;
  detail: string;
}

/** The sentences first..last of a transcript, with what every signal below reads. */
interface Span {
  context: ScoringContext;
  first: number;
  last: number;
  sentences: Sentence[];
  signals: SentenceSignals[];
  firstSentence: Sentence;
  lastSentence: Sentence;
  wordCount: number;
  durationSeconds: number;
}

/** Scores the span of sentences first..last (inclusive) on the virality signals. */
export function scoreSpan(context: ScoringContext, first: number, last: number): SpanScore {
  const { sentences, signals } = context;
  const firstSentence = sentences[first];
  const lastSentence = sentences[last];
  if (!firstSentence || !lastSentence) throw new RangeError(`no sentences ${first}..${last}`);
  const spanSignals = signals.slice(first, last + 1);
  const span: Span = {
    context,
    first,
    last,
    sentences: sentences.slice(first, last + 1),
    signals: spanSignals,
    firstSentence,
    lastSentence,
    wordCount: spanSignals.reduce((sum, s) => sum + s.wordCount, 0),
    durationSeconds: Math.max(0.001, (lastSentence.endMs - firstSentence.startMs) / 1000),
  };

  const payoff = spanPayoff(span);
  const salience = spanSalience(span);
  const contributions = [
    spanHook(span),
    payoff.contribution,
    spanEmotion(span),
    spanQuotability(span),
    salience.contribution,
    spanPace(span),
    ...(context.persona ? [spanAudience(span, context.persona)] : []),
  ];
  return {
    ...weigh(contributions, Boolean(context.persona), payoff.completeness),
    salientTerms: salience.salientTerms,
  };
}

/** Hook: the opening sentence, or the second one when it still falls in the first seconds. */
function spanHook(span: Span): Contribution {
  const { signals, firstSentence } = span;
  let hook = signals[0]?.hook ?? 0;
  let hookSentence = firstSentence;
  let hookDetail = signals[0]?.hookDetail ?? '';
  const second = signals[1];
  const secondSentence = span.context.sentences[span.first + 1];
  if (
    second &&
    secondSentence &&
    secondSentence.startMs - firstSentence.startMs < 6000 &&
    second.hook * 0.7 > hook
  ) {
    hook = second.hook * 0.7;
    hookSentence = secondSentence;
    hookDetail = second.hookDetail;
  }
  return {
    kind: 'hook',
    value: hook,
    detail: `Opens with ${hookDetail}: "${quoteText(hookSentence.text)}"`,
  };
}

/**
 * Payoff: a story that resolves near the end of the span, ending on a complete sentence; and
 * how completely the span holds a thought (0..1), which scales the whole score.
 */
function spanPayoff(span: Span): { contribution: Contribution; completeness: number } {
  const { signals, lastSentence, context, first, last } = span;
  const storyAt = signals.findIndex((s) => s.story !== undefined);
  let resolutionAt = -1;
  for (let k = signals.length - 1; k >= 0; k--) {
    if (signals[k]?.resolution !== undefined) {
      resolutionAt = k;
      break;
    }
  }
  let payoff = 0;
  const payoffDetails: string[] = [];
  if (storyAt >= 0 && storyAt < signals.length - 1) {
    payoff += 0.3;
    payoffDetails.push(`a story ("${signals[storyAt]?.story}")`);
  }
  if (resolutionAt >= 0) {
    const nearEnd = resolutionAt >= signals.length - 2;
    payoff += nearEnd ? 0.55 : 0.15;
    payoffDetails.push(
      `${nearEnd ? 'resolves at the end' : 'resolves'} ("${signals[resolutionAt]?.resolution}")`,
    );
  }
  const closing = signals[signals.length - 1];
  if (lastSentence.terminal && (closing?.exclamation || payoff > 0)) payoff += 0.15;
  if (closing && closing.quote >= 0.5 && signals.length > 1) {
    payoff += 0.3;
    payoffDetails.push(`ends on a punchline ("${quoteText(lastSentence.text, 60)}")`);
  }
  // A whole thought starts and ends at natural breaks rather than mid-topic.
  const completeness =
    ((first > 0 ? (context.breakAfter[first - 1] ?? 0) : 1) + (context.breakAfter[last] ?? 0)) / 2;
  if (completeness >= 0.6) payoffDetails.push('starts and ends at natural breaks');
  return {
    contribution: {
      kind: 'payoff',
      value: Math.min(1, payoff),
      detail: `A complete thought: ${payoffDetails.join(', ')}`,
    },
    completeness,
  };
}

/** Emotion and emphasis: density of feeling words, intensifiers and exclamations. */
function spanEmotion(span: Span): Contribution {
  const emotionHits = span.signals.flatMap((s) => s.emotionHits);
  const exclamations = span.signals.filter((s) => s.exclamation).length;
  const emotionDensity = (emotionHits.length + exclamations) / Math.max(1, span.wordCount);
  const emotion = 1 - Math.exp(-emotionDensity * 14);
  const feelingWords = [...new Set(emotionHits)].slice(0, 5).join(', ');
  return {
    kind: 'emotion',
    value: emotion,
    detail: `Emotion and emphasis: ${feelingWords || 'none'}${exclamations ? `; ${exclamations} exclamation(s)` : ''}`,
  };
}

/** Quotability: the best short, self-contained or contrasting line. */
function spanQuotability(span: Span): Contribution {
  let quote = 0;
  let quoteSentence = span.firstSentence;
  span.signals.forEach((s, k) => {
    if (s.quote > quote) {
      quote = s.quote;
      quoteSentence = span.sentences[k] ?? quoteSentence;
    }
  });
  return {
    kind: 'quotability',
    value: quote,
    detail: `Quotable line: "${quoteText(quoteSentence.text)}"`,
  };
}

/** Topic salience: terms that are rare in the video but concentrated in this span (TF-IDF). */
function spanSalience(span: Span): { contribution: Contribution; salientTerms: string[] } {
  const { context } = span;
  const spanCounts = new Map<string, number>();
  let spanTerms = 0;
  for (const s of span.signals) {
    for (const term of s.terms) spanCounts.set(term, (spanCounts.get(term) ?? 0) + 1);
    spanTerms += s.terms.length;
  }
  const termWeights: [string, number][] = [];
  let focus = 0;
  for (const [term, count] of spanCounts) {
    // Terms the span keeps returning to, beyond what their frequency in the whole video predicts.
    const expected =
      ((context.totalTermCounts.get(term) ?? 0) * spanTerms) / Math.max(1, context.totalTerms);
    const weight = Math.max(0, count - 1 - expected) * context.index.idf(term);
    focus += weight;
    termWeights.push([term, count * context.index.idf(term)]);
  }
  termWeights.sort((a, b) => b[1] - a[1]);
  const salientTerms = termWeights.slice(0, 8).map(([term]) => term);
  const salience = 1 - Math.exp(-(focus / Math.max(1, spanTerms)) * 4);
  // Users read the words as spoken ("advice"), never the stems the index keeps ("advic").
  const spoken = new Map<string, string>();
  for (const sentence of span.sentences)
    for (const { term, surface } of contentTermsWithSurface(sentence.text))
      if (!spoken.has(term)) spoken.set(term, surface);
  return {
    contribution: {
      kind: 'salience',
      value: salience,
      detail: `Focused topic: ${salientTerms
        .slice(0, 4)
        .map((term) => spoken.get(term) ?? term)
        .join(', ')}`,
    },
    salientTerms,
  };
}

/** Pace: faster than the speaker's usual rate reads as energy. */
function spanPace(span: Span): Contribution {
  const wordsPerSecond = span.wordCount / span.durationSeconds;
  const paceRatio = wordsPerSecond / span.context.medianWordsPerSecond;
  const pace = Math.max(0, Math.min(1, (paceRatio - 1) * 3));
  return {
    kind: 'pace',
    value: pace,
    detail: `Spoken at ${wordsPerSecond.toFixed(1)} words/s, ${Math.round((paceRatio - 1) * 100)}% vs the video's median`,
  };
}

/** Audience: how much the span speaks to the persona the user asked for. */
function spanAudience(span: Span, persona: string): Contribution {
  const values = span.signals.map((s) => s.audience);
  const audience =
    0.5 * Math.max(...values) + (0.5 * values.reduce((a, b) => a + b, 0)) / values.length;
  return { kind: 'audience', value: audience, detail: `Speaks to ${persona}` };
}

/** The weighted sum of the signals as a 0..1 raw score, 0..100 score and the reasons shown. */
function weigh(
  contributions: Contribution[],
  withPersona: boolean,
  completeness: number,
): Omit<SpanScore, 'salientTerms'> {
  const personaShare = withPersona ? AUDIENCE_SHARE : 0;
  const reasons: MomentReason[] = [];
  let raw = 0;
  for (const { kind, value, detail } of contributions) {
    const points =
      kind === 'audience'
        ? value * 100 * personaShare
        : value * (WEIGHTS[kind as keyof typeof WEIGHTS] ?? 0) * (1 - personaShare);
    raw += points / 100;
    if (points >= 1) reasons.push({ kind, detail, weight: Math.round(points * 10) / 10 });
  }
  // Cutting into a thought (no pause, shared topic across the cut) costs up to a quarter of the score.
  const completenessFactor = 0.75 + 0.25 * completeness;
  raw *= completenessFactor;
  for (const reason of reasons)
    reason.weight = Math.round(reason.weight * completenessFactor * 10) / 10;
  reasons.sort((a, b) => b.weight - a.weight);
  return { raw, score: Math.max(0, Math.min(100, Math.round(raw * 100))), reasons };
}

/** The span's score with the length preference applied: what moments are ranked and shown by. */
export function rankedScore(scored: SpanScore, durationMs: number): SpanScore {
  const rank = scored.raw * lengthPreference(durationMs);
  return { ...scored, raw: rank, score: Math.max(0, Math.min(100, Math.round(rank * 100))) };
}

/** Gentle preference for clips of about 20–60 s inside the allowed range. */
function lengthPreference(durationMs: number): number {
  const seconds = durationMs / 1000;
  if (seconds < 20) return 0.85 + (0.15 * seconds) / 20;
  if (seconds <= 60) return 1;
  return Math.max(0.85, 1 - (seconds - 60) / 200);
}
