import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** One attempt of a webhook delivery; a failure is retried with backoff by the kind's policy. */
export const webhookDeliver =
  (services: Services): JobHandler<'webhook-deliver'> =>
  (payload) =>
    services.webhooks.deliver(payload.deliveryId);
