export { registerSearchRoutes } from './search.controller.js';
export { SearchRepository } from './search.repository.js';
export { SearchService, type SearchRequest } from './search.service.js';
