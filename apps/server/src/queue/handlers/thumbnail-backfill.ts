import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Makes the pictures missing from older videos, moments and exports (background work). */
export const thumbnailBackfill =
  (services: Services): JobHandler<'thumbnail-backfill'> =>
  async () => {
    const gate = services.workGate;
    await services.thumbnails.backfill((work) => gate.background(work));
  };
