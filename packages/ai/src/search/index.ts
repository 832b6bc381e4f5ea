export { searchMoments, searchMomentsWithReport } from './search';
export type { SearchMomentsOptions, SearchMomentsReport } from './search';
export { DEFAULT_EMBEDDING_MODEL_DIR, MiniLmEmbedder, loadDefaultEmbedder } from './embeddings';
export type { SentenceEmbedder } from './embeddings';
