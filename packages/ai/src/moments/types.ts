// The speech engine's transcript (integer milliseconds) is the one input of moment finding and search.
export type { Transcript, TranscriptSegment, TranscriptWord } from '../asr/index';

/**
 * Why a moment scored as it did; `weight` is the points this reason added to the 0..100 score
 * (a `penalty`'s are negative). The reasons of a moment add up to its score (`scoreBreakdown`).
 */
export type MomentReasonKind =
  | 'hook'
  | 'payoff'
  | 'story'
  | 'whole'
  | 'penalty'
  | 'emotion'
  | 'pace'
  | 'quotability'
  | 'salience'
  | 'audience'
  | 'relevance'
  | 'judge';

export interface MomentReason {
  kind: MomentReasonKind;
  detail: string;
  weight: number;
}

/** A clip candidate: a span of whole sentences (start/end, title, score and why, transcript, hashtags). */
export interface Moment {
  startMs: number;
  endMs: number;
  /** Virality (or, for search, relevance) score, integer 0..100. */
  score: number;
  reasons: MomentReason[];
  title: string;
  description: string;
  hashtags: string[];
  /** The transcript text of the span. */
  text: string;
}
