import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** BILLING=test's clock: ended periods renew or end (a no-op with other providers). */
export const subscriptionRenewals =
  (services: Services): JobHandler<'subscription-renewals'> =>
  () =>
    services.background.run(async () => void (await services.billing.changes.renewDue()));
