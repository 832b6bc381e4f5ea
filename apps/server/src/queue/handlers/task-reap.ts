import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Resumes task runs whose worker died; a pass under way is awaited by close. */
export const taskReap =
  (services: Services): JobHandler<'task-reap'> =>
  () =>
    services.background.run(async () => void (await services.taskReaper.resumeOrphans()));
