import type Stripe from 'stripe';
import { publicUrlOf, type AppConfig } from '../../config/index.js';
import type { Database } from '../../db/client.js';
import type { JobQueue } from '../../queue/queue.js';
import type { Mailer } from '../mail/index.js';
import { silentLogger, type Logger } from '../../logging.js';
import { BillingAccountService } from './billing-account.service.js';
import { BillingMail } from './billing-mail.js';
import { BillingRepository } from './billing.repository.js';
import { CheckoutService } from './checkout.service.js';
import { CreditReads } from './ledger/credit-reads.js';
import { Ledger } from './ledger/ledger.js';
import { LedgerRepository } from './ledger/ledger.repository.js';
import { RefundOutbox } from './ledger/refund-outbox.js';
import { TaskCharges } from './ledger/task-charges.js';
import { StripeProvider, createStripeClient } from './providers/stripe-provider.js';
import { TestModeProvider } from './providers/test-mode-provider.js';
import { PlanChangesService } from './subscriptions/plan-changes.service.js';
import { SubscriptionEvents, type BillingHooks } from './subscriptions/subscription-events.js';
import { UserLocks } from './user-locks.js';

export { registerBillingRoutes } from './billing.controller.js';
export { registerCreditRoutes } from './ledger/credit-history.controller.js';
export type { BillingHooks } from './subscriptions/subscription-events.js';
export { Ledger, type Tx } from './ledger/ledger.js';
export { LedgerRepository } from './ledger/ledger.repository.js';
export { CreditReads } from './ledger/credit-reads.js';
export { RefundOutbox } from './ledger/refund-outbox.js';
export { TaskCharges } from './ledger/task-charges.js';
export type { ChargeKey } from './ledger/charge-keys.js';

/** Everything money: the ledger and its reads, the refund outbox, checkouts, plan changes, events. */
export interface Billing {
  ledger: Ledger;
  reads: CreditReads;
  refunds: RefundOutbox;
  tasks: TaskCharges;
  checkouts: CheckoutService;
  changes: PlanChangesService;
  account: BillingAccountService;
  events: SubscriptionEvents;
  provider: StripeProvider | TestModeProvider;
  /** Set when BILLING=stripe: verifies webhook signatures. */
  stripeWebhook?: { stripe: Stripe; secret: string };
  close(): Promise<void>;
}

/** Billing from the configuration (BILLING = off | test | stripe, checked in loadConfig). */
export function createBilling(
  config: AppConfig,
  database: Database,
  queue: JobQueue,
  mailer: Mailer,
  hooks: BillingHooks = {},
  log: Logger = silentLogger,
): Billing {
  const db = database.db;
  const billingLog = log.child({ component: 'billing' });
  const stripe =
    config.BILLING === 'stripe'
      ? createStripeClient({
          secretKey: config.STRIPE_SECRET_KEY!,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET!,
          apiBase: config.STRIPE_API_BASE,
        })
      : null;
  const provider = stripe ? new StripeProvider(stripe) : new TestModeProvider();
  const repo = new BillingRepository(db);
  // BILLING=off: a team's own instance, no plans and no limits (charges are still recorded).
  const limits = config.BILLING !== 'off';
  const ledgerRepo = new LedgerRepository(db);
  const ledger = new Ledger(ledgerRepo, { limits, onMoved: hooks.onCreditsMoved });
  const reads = new CreditReads(ledgerRepo, limits);
  const locks = new UserLocks(database);
  const events = new SubscriptionEvents({
    db,
    repo,
    ledger,
    locks,
    provider,
    mail: new BillingMail(repo, mailer, billingLog, publicUrlOf(config)),
    hooks,
    log: billingLog,
  });
  const refunds = new RefundOutbox(
    ledgerRepo,
    ledger,
    reads,
    queue,
    log.child({ component: 'refunds' }),
  );
  return {
    ledger,
    reads,
    refunds,
    tasks: new TaskCharges(ledgerRepo, ledger, reads, refunds),
    checkouts: new CheckoutService(repo, provider, locks, events),
    changes: new PlanChangesService(repo, provider, locks, events, billingLog),
    account: new BillingAccountService(repo, provider, mailer, {
      operatorEmail: config.OPERATOR_EMAIL,
      log: billingLog,
    }),
    events,
    provider,
    ...(stripe ? { stripeWebhook: { stripe, secret: config.STRIPE_WEBHOOK_SECRET! } } : {}),
    close: () => locks.close(),
  };
}
