/**
 * The transcript shape the speech engine produces (integer milliseconds). Declared here, structurally
 * identical to the one `@moments/ai/asr` exports, so moment finding does not depend on the engine.
 */
export interface TranscriptWord {
  text: string;
  startMs: number;
  endMs: number;
  confidence: number;
}

export interface TranscriptSegment {
  startMs: number;
  endMs: number;
  text: string;
  words: TranscriptWord[];
}

export interface Transcript {
  language: string;
  durationMs: number;
  segments: TranscriptSegment[];
}

/** Why a moment scored as it did; `weight` is the points this reason added to the 0..100 score. */
export type MomentReasonKind =
  | 'hook'
  | 'payoff'
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

/** A clip candidate: a span of whole sentences (design.md §3: start/end, title, score and why, transcript, hashtags). */
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
