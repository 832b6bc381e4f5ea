import path from 'node:path';
import { sweepAbandonedUploads } from '../../modules/uploads/tus-uploads.js';
import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Removes unfinished resumable uploads older than a day; awaited by close (it removes files). */
export const uploadSweep =
  (services: Services): JobHandler<'upload-sweep'> =>
  () =>
    services.background.run(async () => {
      const removed = await sweepAbandonedUploads(path.join(services.config.DATA_DIR, 'tus'));
      if (removed) services.log.info({ removed }, 'abandoned resumable uploads swept');
    });
