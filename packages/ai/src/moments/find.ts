import type { LlmClient } from '../llm/index';
import type { SentenceEmbedder } from '../search/embeddings';
import { judgeSpans, sentenceCues, transcriptCues } from './clip-judge';
import { judgeWithLlm } from './judge';
import { momentFromSpan, scoreCandidates, selectNonOverlapping } from './candidates';
import { buildScoringContext, rankedScore, scoreSpan } from './scoring';
import { sentenceAt, splitSentences } from './sentences';
import type { Moment, Transcript } from './types';

export interface FindViralMomentsOptions {
  minMs?: number;
  maxMs?: number;
  /** At most this many moments; default grows with the video's length (about 8 per 10 minutes, 5..30). */
  maxMoments?: number;
  /** An audience or persona ("a startup founder") whose interests steer the choice. */
  actAs?: string;
  /** When given, judges and titles the top candidates; any failure falls back to the deterministic result. */
  llm?: LlmClient;
  llmTimeoutMs?: number;
  /**
   * Which offline judge ranks the candidates: `cues` (default, issue 12: whole thoughts, numbers,
   * contrast, advice, stories, penalties for housekeeping and sign-offs) or `lexicon` (the original
   * word-list scorer, kept for comparison).
   */
  judge?: 'cues' | 'lexicon';
  /** Sentence embeddings for the `cues` judge's topic salience; without it that cue is neutral. */
  embedder?: SentenceEmbedder;
  signal?: AbortSignal;
}

export interface FindViralMomentsResult {
  moments: Moment[];
  method: 'deterministic' | 'llm';
  warnings: string[];
}

const DEFAULT_MIN_MS = 15_000;
const DEFAULT_MAX_MS = 90_000;
/** Below this a candidate is ordinary talk, not a moment worth a clip. */
const MIN_SCORE = 12;
/** A video shorter than minMs still yields a moment if it holds a complete thought at least this long. */
const SHORT_VIDEO_FLOOR_MS = 5_000;

function defaultMaxMoments(durationMs: number): number {
  // Users expect 5 to 10 ranked moments per 10 minutes (issue 12), and at least 5 on a short talk.
  return Math.max(5, Math.min(30, Math.round(durationMs / 75_000)));
}

/**
 * Finds the moments of a video most worth clipping (moment list type `video_snippet`): spans of whole
 * sentences, ranked by a virality score with the reasons behind it. Works with no LLM at all.
 */
export async function findViralMoments(
  transcript: Transcript,
  options: FindViralMomentsOptions = {},
): Promise<FindViralMomentsResult> {
  const minMs = options.minMs ?? DEFAULT_MIN_MS;
  const maxMs = options.maxMs ?? DEFAULT_MAX_MS;
  if (!(minMs > 0 && maxMs >= minMs))
    throw new RangeError(`invalid moment length range ${minMs}..${maxMs} ms`);
  const warnings: string[] = [];
  const sentences = splitSentences(transcript);
  if (sentences.length === 0) {
    return {
      moments: [],
      method: 'deterministic',
      warnings: ['The transcript has no words: no moments to find.'],
    };
  }
  const context = buildScoringContext(sentences, options.actAs);
  let candidates = scoreCandidates(context, minMs, maxMs, options.signal);
  const spokenMs = (sentences[sentences.length - 1]?.endMs ?? 0) - (sentences[0]?.startMs ?? 0);
  if (candidates.length === 0 && spokenMs < minMs) {
    // A short video: only a complete thought (finished sentences, a real score) counts, never "whatever there is".
    const floorMs = Math.min(minMs, SHORT_VIDEO_FLOOR_MS);
    candidates = scoreCandidates(context, floorMs, maxMs, options.signal).filter(
      (candidate) => context.sentences[candidate.last]?.terminal,
    );
    warnings.push(
      `The speech lasts ${Math.round(spokenMs / 1000)} s, less than the ${Math.round(minMs / 1000)} s minimum: ` +
        (candidates.length
          ? 'moments shorter than the minimum were considered.'
          : 'no complete thought long enough was found.'),
    );
  } else if (candidates.length === 0) {
    warnings.push('No span of whole sentences fits the requested length range.');
  }
  if ((options.judge ?? 'cues') === 'cues' && candidates.length > 0) {
    const cues = await transcriptCues(context, options.embedder, options.signal);
    candidates = judgeSpans(context, candidates, cues).map((judged) => ({
      ...judged,
      scored: { ...judged.scored, score: judged.judgeScore, reasons: judged.judgeReasons },
    }));
  }
  const strong = candidates.filter((candidate) => candidate.scored.score >= MIN_SCORE);
  if (candidates.length > 0 && strong.length === 0)
    warnings.push('No span scored high enough to be a moment.');
  const limit = options.maxMoments ?? defaultMaxMoments(transcript.durationMs || spokenMs);
  const chosen = selectNonOverlapping(strong, limit);
  const deterministic = chosen.map((candidate) =>
    momentFromSpan(context, candidate.first, candidate.last, candidate.scored),
  );

  if (options.llm && chosen.length > 0) {
    // The LLM judges a wider pool than will be shown, so it can promote a candidate the rules underrated.
    const pool = selectNonOverlapping(strong, Math.min(Math.max(limit * 2, 6), 24));
    const judged = await judgeWithLlm(options.llm, context, pool, {
      limit,
      actAs: context.persona,
      signal: options.signal,
      timeoutMs: options.llmTimeoutMs,
    });
    if (judged.ok) {
      // Per-candidate fallback: places the LLM left empty (it judged fewer than asked, or named
      // ids it was never given) go to the best remaining candidates by the offline judge.
      const moments = [...judged.moments];
      const taken = new Set(moments.map((moment) => `${moment.startMs}-${moment.endMs}`));
      let filled = 0;
      for (const candidate of pool) {
        if (moments.length >= limit) break;
        const moment = momentFromSpan(context, candidate.first, candidate.last, candidate.scored);
        if (taken.has(`${moment.startMs}-${moment.endMs}`)) continue;
        moments.push(moment);
        filled++;
      }
      if (filled > 0)
        warnings.push(
          `The LLM judged ${judged.moments.length} of ${limit} moments; ${filled} more were scored deterministically.`,
        );
      moments.sort((a, b) => b.score - a.score);
      return { moments, method: 'llm', warnings: [...warnings, ...judged.warnings] };
    }
    options.signal?.throwIfAborted();
    warnings.push(
      `LLM judging failed (${judged.error}); moments were scored deterministically instead.`,
    );
  }
  return { moments: deterministic, method: 'deterministic', warnings };
}

/**
 * Re-scores one moment's span for the "refresh" call (spec: PUT /api/highlight_moment/refresh), snapped to
 * whole sentences: from the sentence holding startMs through the one holding endMs.
 */
export function rescoreSpan(
  transcript: Transcript,
  startMs: number,
  endMs: number,
  actAs?: string,
): Moment {
  if (!(endMs > startMs)) throw new RangeError(`empty span ${startMs}..${endMs} ms`);
  const sentences = splitSentences(transcript);
  if (sentences.length === 0) throw new RangeError('the transcript has no words');
  const context = buildScoringContext(sentences, actAs);
  const first = sentenceAt(sentences, startMs, 'start');
  const last = Math.max(first, sentenceAt(sentences, endMs, 'end'));
  const spanStartMs = sentences[first]?.startMs ?? 0;
  const spanEndMs = sentences[last]?.endMs ?? 0;
  const scored = rankedScore(scoreSpan(context, first, last), spanEndMs - spanStartMs);
  // Scored by the same judge as findViralMoments' default, so a refreshed moment keeps its score.
  const cues = context.sentences.map((sentence) => ({
    ...sentenceCues(sentence.text),
    topical: 1,
  }));
  const [judged] = judgeSpans(
    context,
    [{ first, last, startMs: spanStartMs, endMs: spanEndMs, rank: scored.raw, scored }],
    cues,
  );
  return momentFromSpan(context, first, last, {
    ...scored,
    score: judged!.judgeScore,
    reasons: judged!.judgeReasons,
  });
}
