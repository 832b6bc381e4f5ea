import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Analyses a DONE task's best moments' framing (background: gives way to user work). */
export const framingPrepare =
  (services: Services): JobHandler<'framing-prepare'> =>
  async ({ taskId }) => {
    await services.framingPreparer.prepareTask(taskId);
  };
