import { SearchVideosBody, SearchVideosReply, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { SearchService } from './search.service.js';

/** spec §7 searchVideos; spec §6: anonymous visitors may use the home search. */
export function registerSearchRoutes(app: App, search: SearchService) {
  app.post(
    '/api/p/v1/searchVideos',
    {
      schema: {
        tags: ['search'],
        summary:
          'Search shared moments, and for a signed-in user their own videos and moments; 24 per page',
        body: SearchVideosBody.extend({ search_id: z.string().max(1000).optional() }),
        response: { 200: envelopeOf(SearchVideosReply) },
      },
    },
    async (request) => ok(await search.search(request.user?.id ?? null, request.body)),
  );
}
