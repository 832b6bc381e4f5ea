export { findViralMoments, rescoreSpan } from './find';
export type { FindViralMomentsOptions, FindViralMomentsResult } from './find';
export { splitSentences } from './sentences';
export type { Sentence } from './sentences';
export type {
  Moment,
  MomentReason,
  MomentReasonKind,
  Transcript,
  TranscriptSegment,
  TranscriptWord,
} from './types';
