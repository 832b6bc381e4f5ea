import type { AppConfig } from '../../config/index.js';
import type { Db } from '../../db/client.js';
import type { Mailer } from '../../mail/index.js';
import type { CreditsService } from '../credits/credits.service.js';
import { BillingRepository } from './billing.repository.js';
import { BillingService, type BillingHooks } from './billing.service.js';
import { StripeProvider, createStripeClient } from './stripe-provider.js';
import { TestModeProvider } from './test-mode-provider.js';
import { silentLogger, type Logger } from '../../logging.js';

export { registerBillingRoutes } from './billing.controller.js';
export { BillingService, type BillingHooks } from './billing.service.js';

/**
 * Billing from the configuration: Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are
 * both set, else the built-in TEST MODE checkout.
 */
export function createBilling(
  config: AppConfig,
  db: Db,
  credits: CreditsService,
  mailer: Mailer,
  hooks: BillingHooks = {},
  log: Logger = silentLogger,
) {
  const stripeOptions =
    config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
      ? {
          secretKey: config.STRIPE_SECRET_KEY,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          apiBase: config.STRIPE_API_BASE,
        }
      : null;
  const stripe = stripeOptions ? createStripeClient(stripeOptions) : null;
  const provider = stripe ? new StripeProvider(stripe) : new TestModeProvider();
  const billing = new BillingService(new BillingRepository(db), credits, provider, mailer, hooks, {
    operatorEmail: config.OPERATOR_EMAIL,
    // Failures after a payment (receipt mail, referral hook) are reported, never thrown.
    log: log.child({ component: 'billing' }),
  });
  return {
    billing,
    stripeWebhook:
      stripe && stripeOptions ? { stripe, secret: stripeOptions.webhookSecret } : undefined,
  };
}
