import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Runs a task's pipeline (modules/tasks/task-pipeline.ts); tracked by the runner itself. */
export const taskRun =
  (services: Services): JobHandler<'task-run'> =>
  ({ taskId, runToken }) =>
    services.taskRunner.run(taskId, runToken);
