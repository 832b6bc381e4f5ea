import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Purges expired sessions and tickets, sweeps left work folders; awaited by close (it removes files). */
export const housekeeping =
  (services: Services): JobHandler<'housekeeping'> =>
  () =>
    services.background.run(async () => void (await services.housekeeping.runOnce()));
