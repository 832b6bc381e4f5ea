import type { App } from '../../http/types.js';
import { registerAccountRoutes } from './routes/account.routes.js';
import { billingRouteContext, type BillingRoutesOptions } from './routes/context.js';
import { registerStripeWebhook } from './routes/stripe-webhook.routes.js';
import { registerSubscriptionRoutes } from './routes/subscription.routes.js';
import { registerTestModePages } from './routes/test-mode-pages.routes.js';

export type { BillingRoutesOptions } from './routes/context.js';

/** Every billing route; each group lives in routes/ (one file per concern). */
export function registerBillingRoutes(app: App, options: BillingRoutesOptions) {
  const context = billingRouteContext(options);
  registerSubscriptionRoutes(app, context);
  registerAccountRoutes(app, context);
  registerTestModePages(app, context);
  registerStripeWebhook(app, context);
}
