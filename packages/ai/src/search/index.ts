export { searchMoments, searchMomentsWithReport } from './search';
export type { SearchMomentsOptions, SearchMomentsReport } from './search';
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
