import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Resumes export renders whose worker died; a pass under way is awaited by close. */
export const exportReap =
  (services: Services): JobHandler<'export-reap'> =>
  () =>
    services.background.run(async () => void (await services.exportReaper.resumeOrphans()));
