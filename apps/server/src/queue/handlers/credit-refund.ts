import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Lands one refund of the outbox (retried with backoff by its policy). */
export const creditRefund =
  (services: Services): JobHandler<'credit-refund'> =>
  (payload) =>
    services.billing.refunds.run(payload);
