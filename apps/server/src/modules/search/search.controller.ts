import { ERROR_CODES, SearchVideosBody, SearchVideosReply } from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { SearchService } from './search.service.js';

/** searchVideos; anonymous visitors may use the home search too. */
export function registerSearchRoutes(app: App, search: SearchService) {
  jsonRoutes(app, ['search']).open(
    'post',
    '/api/p/v1/searchVideos',
    {
      summary:
        'Search shared moments, and for a signed-in user their own videos and moments; 24 per page',
      body: SearchVideosBody.extend({ search_id: z.string().max(1000).optional() }),
      data: SearchVideosReply,
      // A search_id this server did not sign for this query.
      errors: [ERROR_CODES.INVALID_INPUT],
      // search_id is a signed cursor, not a stored thing: a bad one is INVALID_INPUT, never 404.
      config: { neverAnswers: [ERROR_CODES.NOT_FOUND] },
    },
    ({ userId, body }) => search.search(userId, body),
  );
}
