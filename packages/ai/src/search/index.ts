export { findAnswerMoments, findAnswerMomentsWithReport } from './search';
export type { AnswerMomentsOptions, AnswerMomentsReport } from './search';
export { contentTerms } from './text';
export {
  DEFAULT_EMBEDDING_MODEL_DIR,
  MiniLmEmbedder,
  configureEmbeddings,
  cosine,
  loadDefaultEmbedder,
} from './embeddings';
export type { SentenceEmbedder } from './embeddings';
export { RRF_K, reciprocalRankFusion, pgvectorText, transcriptPassages } from './hybrid';
export type { Passage as TranscriptPassage, TimedText } from './hybrid';
