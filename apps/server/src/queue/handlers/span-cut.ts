import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Cuts a just-shared moment's span, so its first visitor does not wait for it. */
export const spanCut =
  (services: Services): JobHandler<'span-cut'> =>
  ({ momentId }) =>
    services.moments.cutSharedSpan(momentId);
