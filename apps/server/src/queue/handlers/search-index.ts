import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/**
 * Indexes the rows stored before the search index (or without its model). Not tracked as
 * background work: it takes no signal, and a close waits for it only as long as the queue's
 * graceful stop does (the next worker start sends it again).
 */
export const searchIndex =
  (services: Services): JobHandler<'search-index'> =>
  async () =>
    void (await services.searchIndexer.backfill());
