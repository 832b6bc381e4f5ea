import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Renders one export; tracked by the renderer itself. */
export const exportRender =
  (services: Services): JobHandler<'export-render'> =>
  ({ jobId, runToken }) =>
    services.exportRenderer.run(jobId, runToken);
