export { registerSearchRoutes } from './search.controller.js';
export { SearchIndexRepository } from './search-index.repository.js';
export { SearchIndexer } from './search-indexer.js';
export { SearchRanking } from './search-ranking.js';
export { SearchRepository } from './search.repository.js';
export { SearchService, type SearchRequest } from './search.service.js';
