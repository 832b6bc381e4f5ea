import { randomUUID } from 'node:crypto';
import { ERROR_CODES, type Invoice, type PlanChangeAction } from '@moments/contract';
import {
  CREDIT_PACKS,
  findCreditPack,
  findPlan,
  formatDollars,
  isPurchasablePlan,
  isUpgradeAllowed,
  periodEnd,
  pricingTable,
  tierOfPlan,
  validateCancelDetails,
  validateEnterpriseForm,
  type EnterpriseForm,
  type PlanDefinition,
} from '@moments/domain';
import type Stripe from 'stripe';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import type { Mailer } from '../../mail/index.js';
import type { CreditsService, Tx } from '../credits/credits.service.js';
import type { BillingRepository, SubscriptionRow } from './billing.repository.js';
import type { PaymentProvider, ProviderSubscription } from './payment-provider.js';
import { checkTestCard, type CardCheck } from './test-cards.js';

export interface BillingHooks {
  /** Called once, after commit, when a user's first paid plan starts (referral rewards). */
  onFirstPaidPlan?(userId: string, referral: string | undefined): Promise<void>;
}

export interface BillingOptions {
  operatorEmail?: string;
  log?: { error(obj: unknown, message: string): void };
}

/** The state a provider reports for a subscription (test mode: what the checkout just did). */
interface SubscriptionState {
  plan: string;
  active: boolean;
  cancelAtPeriodEnd: boolean;
  customerId: string | null;
  subscriptionId: string | null;
  cardLast4?: string | null;
  periodStart: Date;
  periodEnd: Date;
}

const toProvider = (row: SubscriptionRow): ProviderSubscription => ({
  plan: row.plan,
  customerId: row.customerId,
  subscriptionId: row.subscriptionId,
  cardLast4: row.cardLast4,
  unitAmount: row.unitAmount,
  currentPeriodStart: row.currentPeriodStart,
  currentPeriodEnd: row.currentPeriodEnd,
});

const planLabel = (plan: string) => {
  const tier = { FREE: 'Free', VIP: 'Standard', SVIP: 'Pro', SSVIP: 'Pro plus' }[tierOfPlan(plan)];
  const period = plan.endsWith('_year') ? ' (yearly)' : plan.endsWith('_month') ? ' (monthly)' : '';
  return `${tier}${plan.startsWith('edu_') ? ', education' : ''}${period}`;
};

/**
 * spec §4 subscription flows and the money side of credits. Every change of plan state goes
 * through `applySubscriptionState` / `endSubscription`, whether the built-in test checkout made it
 * or a signed Stripe webhook reported it, so the ledger and the spec actions are the same for both.
 */
export class BillingService {
  constructor(
    private readonly repo: BillingRepository,
    private readonly credits: CreditsService,
    readonly provider: PaymentProvider,
    private readonly mailer: Mailer,
    private readonly hooks: BillingHooks = {},
    private readonly options: BillingOptions = {},
  ) {}

  pricing() {
    return {
      pricing: pricingTable(),
      credit_packs: CREDIT_PACKS.map((pack) => ({
        price: pack.price,
        credits: pack.credits,
        unit_amount: pack.unitAmount,
      })),
      provider: this.provider.name,
    };
  }

  private async requireUser(userId: string) {
    const user = await this.repo.user(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
    return user;
  }

  private purchasablePlan(name: string): PlanDefinition {
    const plan = findPlan(name);
    if (!plan || !isPurchasablePlan(name)) {
      throw badRequest(
        `Unknown plan "${name.slice(0, 40)}". Choose a plan from the pricing table.`,
      );
    }
    return plan;
  }

  /** spec §7 subscription/create: the checkout URL for a free user choosing a paid plan. */
  async createSubscriptionCheckout(
    userId: string,
    planName: string,
    referral: string | null | undefined,
    urls: { returnUrl: string; cancelUrl: string },
  ): Promise<string> {
    const user = await this.requireUser(userId);
    const plan = this.purchasablePlan(planName);
    if (plan.edu && !user.eduVerified) {
      throw new AppError(
        ERROR_CODES.FORBIDDEN,
        403,
        'Education plans need a verified education account.',
      );
    }
    const current = await this.repo.subscription(userId);
    if (current?.status === 'active') {
      throw new AppError(
        ERROR_CODES.CONFLICT,
        409,
        'You already have a subscription. Change it from the plan page instead.',
      );
    }
    const { sessionId, url } = await this.provider.createCheckout({
      kind: 'subscription',
      plan,
      referral: referral ?? null,
      user: { id: user.id, email: user.email },
      customerId: current?.customerId ?? null,
      ...urls,
    });
    await this.repo.insertCheckout({
      id: sessionId,
      userId,
      kind: 'subscription',
      plan: plan.plan,
      referral: referral ?? null,
      amount: plan.unitAmount ?? 0,
    });
    return url;
  }

  /** spec §7 POST /api/payment {price, quantity}: a checkout URL for a credit top-up. */
  async createCreditCheckout(
    userId: string,
    price: string,
    quantity: number,
    urls: { returnUrl: string; cancelUrl: string },
  ): Promise<string> {
    const user = await this.requireUser(userId);
    const pack = findCreditPack(price);
    if (!pack) throw badRequest(`Unknown credit pack "${price.slice(0, 40)}".`);
    const current = await this.repo.subscription(userId);
    const { sessionId, url } = await this.provider.createCheckout({
      kind: 'credits',
      price: pack.price,
      credits: pack.credits,
      unitAmount: pack.unitAmount,
      quantity,
      user: { id: user.id, email: user.email },
      customerId: current?.customerId ?? null,
      ...urls,
    });
    await this.repo.insertCheckout({
      id: sessionId,
      userId,
      kind: 'credits',
      price: pack.price,
      quantity,
      amount: pack.unitAmount * quantity,
    });
    return url;
  }

  /** The open test-mode checkout a page shows; 404 for unknown or other users' sessions. */
  async testCheckout(userId: string, sessionId: string) {
    const session = await this.repo.checkout(sessionId);
    if (!session || session.userId !== userId || this.provider.name !== 'test') {
      throw notFound('Checkout session');
    }
    const user = await this.requireUser(userId);
    const description =
      session.kind === 'subscription'
        ? `Moments ${planLabel(session.plan ?? '')}`
        : `${(findCreditPack(session.price ?? '')?.credits ?? 0) / 10} credits x ${session.quantity}`;
    return { session, email: user.email, description };
  }

  /**
   * The TEST MODE checkout's pay button: checks the card like Stripe's test mode would; a declined
   * card changes nothing. Paying twice (double submit) applies the purchase once.
   */
  async payTestCheckout(
    userId: string,
    sessionId: string,
    card: { number?: string; expiry?: string; cvc?: string },
  ): Promise<{ ok: true } | Extract<CardCheck, { ok: false }>> {
    const { session } = await this.testCheckout(userId, sessionId);
    if (session.status !== 'open') return { ok: true };
    const check = checkTestCard(card);
    if (!check.ok) return check;
    const now = new Date();
    let firstPaid = false;
    // A double submit races here: only the request that flips the session to paid applies it.
    const applied = await this.repo.db.transaction(async (tx) => {
      if (!(await this.repo.claimCheckout(sessionId, tx))) return false;
      if (session.kind === 'credits') {
        const pack = findCreditPack(session.price ?? '')!;
        await this.credits.topUp(
          userId,
          pack.credits * session.quantity,
          `checkout:${sessionId}`,
          tx,
        );
        await this.repo.recordChange(
          {
            userId,
            action: 'CREDIT',
            fromPlan: null,
            toPlan: null,
            eventKey: `checkout:${sessionId}`,
          },
          tx,
        );
      } else {
        const plan = this.purchasablePlan(session.plan ?? '');
        firstPaid = await this.applySubscriptionState(
          tx,
          userId,
          {
            plan: plan.plan,
            active: true,
            cancelAtPeriodEnd: false,
            customerId: `cus_test_${userId.slice(0, 8)}`,
            subscriptionId: `sub_test_${randomUUID()}`,
            cardLast4: check.last4,
            periodStart: now,
            periodEnd: periodEnd(now, plan.interval!),
          },
          `checkout:${sessionId}`,
        );
      }
      await this.repo.insertInvoice(
        {
          userId,
          providerInvoiceId: `in_test_${sessionId}`,
          description:
            session.kind === 'credits'
              ? `Credit top-up x ${session.quantity}`
              : `Moments ${planLabel(session.plan ?? '')}`,
          amount: session.amount,
          paymentMethod: `${check.brand} ending in ${check.last4}`,
        },
        tx,
      );
      return true;
    });
    if (!applied) return { ok: true };
    await this.afterPaid(userId, session.amount, `${check.brand} ending in ${check.last4}`);
    if (firstPaid) await this.firstPaidPlan(userId, session.referral ?? undefined);
    return { ok: true };
  }

  /**
   * The single place a subscription's state lands. Returns true when this started the user's
   * first paid plan ever (the caller runs the referral hook after commit).
   */
  private async applySubscriptionState(
    tx: Tx,
    userId: string,
    state: SubscriptionState,
    eventKey: string,
  ): Promise<boolean> {
    const user = await this.repo.user(userId, tx);
    if (!user) return false;
    const existing = await this.repo.subscription(userId, tx);
    if (!state.active) {
      await this.endSubscription(tx, userId, eventKey);
      return false;
    }
    const plan = findPlan(state.plan);
    if (!plan || plan.interval === null) return false;
    const wasPaid = existing?.status === 'active' && tierOfPlan(user.currentPlan) !== 'FREE';
    let action: PlanChangeAction | null = null;
    if (!wasPaid) action = 'CREATE';
    else if (user.currentPlan !== plan.plan) action = 'UPGRADE';
    if (action) {
      await this.credits.grantPlan(userId, plan.plan, action, `${eventKey}:${action}`, tx);
      await this.repo.recordChange(
        {
          userId,
          action,
          fromPlan: user.currentPlan,
          toPlan: plan.plan,
          eventKey: `${eventKey}:${action}`,
        },
        tx,
      );
    }
    if (wasPaid && user.cancelAtPeriodEnd !== state.cancelAtPeriodEnd) {
      const flagAction = state.cancelAtPeriodEnd ? 'UNSUBSCRIBE' : 'RESUBSCRIBE';
      await this.repo.recordChange(
        {
          userId,
          action: flagAction,
          fromPlan: user.currentPlan,
          toPlan: plan.plan,
          eventKey: `${eventKey}:${flagAction}`,
        },
        tx,
      );
    }
    await this.repo.upsertSubscription(
      {
        userId,
        provider: this.provider.name,
        plan: plan.plan,
        status: 'active',
        customerId: state.customerId ?? existing?.customerId ?? null,
        subscriptionId: state.subscriptionId ?? existing?.subscriptionId ?? null,
        cardLast4: state.cardLast4 ?? existing?.cardLast4 ?? null,
        unitAmount: plan.unitAmount ?? 0,
        currentPeriodStart: state.periodStart,
        currentPeriodEnd: state.periodEnd,
      },
      tx,
    );
    await this.repo.setUserPlan(
      userId,
      { currentPlan: plan.plan, cancelAtPeriodEnd: state.cancelAtPeriodEnd },
      tx,
    );
    return !existing;
  }

  /** The paid plan ended: back to free with free entitlements (spec action UNSUBSCRIBE). */
  private async endSubscription(tx: Tx, userId: string, eventKey: string) {
    const user = await this.repo.user(userId, tx);
    const existing = await this.repo.subscription(userId, tx);
    if (!user || !existing || existing.status !== 'active') return;
    await this.credits.grantPlan(userId, 'free', 'UNSUBSCRIBE', `${eventKey}:end`, tx);
    await this.repo.recordChange(
      {
        userId,
        action: 'UNSUBSCRIBE',
        fromPlan: user.currentPlan,
        toPlan: 'free',
        eventKey: `${eventKey}:end`,
      },
      tx,
    );
    await this.repo.upsertSubscription({ ...existing, status: 'canceled' }, tx);
    await this.repo.setUserPlan(userId, { currentPlan: 'free', cancelAtPeriodEnd: false }, tx);
  }

  /** A renewal: a new period with fresh entitlements (spec action Recharge). */
  private async renew(tx: Tx, userId: string, start: Date, end: Date, eventKey: string) {
    const existing = await this.repo.subscription(userId, tx);
    if (!existing || existing.status !== 'active') return false;
    const granted = await this.credits.grantPlan(userId, existing.plan, 'Recharge', eventKey, tx);
    if (!granted) return false;
    await this.repo.recordChange(
      { userId, action: 'Recharge', fromPlan: existing.plan, toPlan: existing.plan, eventKey },
      tx,
    );
    await this.repo.upsertSubscription(
      { ...existing, currentPeriodStart: start, currentPeriodEnd: end },
      tx,
    );
    return true;
  }

  private async activeSubscription(userId: string): Promise<SubscriptionRow> {
    const subscription = await this.repo.subscription(userId);
    if (!subscription || subscription.status !== 'active') {
      throw new AppError(
        ERROR_CODES.NO_SUBSCRIPTION,
        409,
        'You have no paid subscription. Choose a plan to start one.',
      );
    }
    return subscription;
  }

  /** spec §4: an upgrade, or (with a cancellation pending) staying on the current plan. */
  private async changeTarget(userId: string, planName: string) {
    const user = await this.requireUser(userId);
    const subscription = await this.activeSubscription(userId);
    const plan = this.purchasablePlan(planName);
    const keepsCurrent = user.cancelAtPeriodEnd && plan.plan === user.currentPlan;
    if (!keepsCurrent && !isUpgradeAllowed(user.currentPlan, plan.plan)) {
      throw new AppError(
        ERROR_CODES.PLAN_NOT_ALLOWED,
        400,
        `You can't change from ${planLabel(user.currentPlan)} to ${planLabel(plan.plan)}. Choose a higher tier; yearly plans can't move to monthly.`,
      );
    }
    if (plan.edu && !user.eduVerified) {
      throw new AppError(
        ERROR_CODES.FORBIDDEN,
        403,
        'Education plans need a verified education account.',
      );
    }
    return { user, subscription, plan, keepsCurrent };
  }

  /** spec §7 preview_invoice: what the change costs now (prorated), in cents. */
  async previewInvoice(userId: string, planName: string) {
    const { subscription, plan, keepsCurrent } = await this.changeTarget(userId, planName);
    if (keepsCurrent) return { amount: 0, currency: 'usd' };
    const amount = await this.provider.previewChange(toProvider(subscription), plan, new Date());
    return { amount, currency: 'usd' };
  }

  /** spec §7 resubscribe: change the paid plan (after the preview was confirmed). */
  async resubscribe(userId: string, planName: string): Promise<void> {
    const { user, subscription, plan, keepsCurrent } = await this.changeTarget(userId, planName);
    if (keepsCurrent) return this.stopCancel(userId);
    const now = new Date();
    const amount = await this.provider.previewChange(toProvider(subscription), plan, now);
    await this.provider.changePlan(toProvider(subscription), plan);
    if (this.provider.webhookDriven) return;
    const key = `resubscribe:${userId}:${now.getTime()}`;
    await this.repo.db.transaction(async (tx) => {
      await this.applySubscriptionState(
        tx,
        userId,
        {
          plan: plan.plan,
          active: true,
          cancelAtPeriodEnd: user.cancelAtPeriodEnd,
          customerId: subscription.customerId,
          subscriptionId: subscription.subscriptionId,
          periodStart: now,
          periodEnd: periodEnd(now, plan.interval!),
        },
        key,
      );
      await this.repo.insertInvoice(
        {
          userId,
          providerInvoiceId: `in_test_${key}`,
          description: `Change to ${planLabel(plan.plan)} (prorated)`,
          amount,
          paymentMethod: `Card ending in ${subscription.cardLast4 ?? '????'}`,
        },
        tx,
      );
    });
    await this.afterPaid(userId, amount, `Card ending in ${subscription.cardLast4 ?? '????'}`);
  }

  private async setCancel(userId: string, cancel: boolean) {
    const user = await this.requireUser(userId);
    const subscription = await this.activeSubscription(userId);
    if (user.cancelAtPeriodEnd === cancel) return;
    await this.provider.setCancelAtPeriodEnd(toProvider(subscription), cancel);
    if (this.provider.webhookDriven) return;
    await this.repo.db.transaction(async (tx) => {
      await this.applySubscriptionState(
        tx,
        userId,
        {
          plan: subscription.plan,
          active: true,
          cancelAtPeriodEnd: cancel,
          customerId: subscription.customerId,
          subscriptionId: subscription.subscriptionId,
          periodStart: subscription.currentPeriodStart,
          periodEnd: subscription.currentPeriodEnd,
        },
        `${cancel ? 'cancel' : 'stop_cancel'}:${userId}:${Date.now()}`,
      );
    });
  }

  /** spec §7 cancel: the plan stays until the end of the paid period (cancel_at_period_end). */
  cancel(userId: string) {
    return this.setCancel(userId, true);
  }

  /** spec §7 stop_cancel: keep the subscription after all. */
  stopCancel(userId: string) {
    return this.setCancel(userId, false);
  }

  private renewalTimer: NodeJS.Timeout | undefined;

  /** Test mode only: checks for ended periods every `intervalMs` (Stripe renews by webhook). */
  startRenewals(intervalMs = 60_000) {
    if (this.provider.webhookDriven || this.renewalTimer) return;
    this.renewalTimer = setInterval(() => {
      this.renewDue().catch((error: unknown) =>
        this.options.log?.error({ err: error }, 'subscription renewal failed'),
      );
    }, intervalMs);
    this.renewalTimer.unref();
  }

  stopRenewals() {
    clearInterval(this.renewalTimer);
    this.renewalTimer = undefined;
  }

  /** Test mode's clock: renews or ends subscriptions whose period is over. */
  async renewDue(now = new Date()): Promise<number> {
    if (this.provider.webhookDriven) return 0;
    let changed = 0;
    for (const due of await this.repo.dueSubscriptions(now)) {
      const user = await this.repo.user(due.userId);
      if (!user) continue;
      const key = `period:${due.userId}:${due.currentPeriodEnd.getTime()}`;
      if (user.cancelAtPeriodEnd) {
        await this.repo.db.transaction((tx) => this.endSubscription(tx, due.userId, key));
      } else {
        const plan = findPlan(due.plan);
        if (!plan?.interval) continue;
        const amount = plan.renewalAmount ?? plan.unitAmount ?? 0;
        const renewed = await this.repo.db.transaction(async (tx) => {
          const ok = await this.renew(
            tx,
            due.userId,
            due.currentPeriodEnd,
            periodEnd(due.currentPeriodEnd, plan.interval!),
            key,
          );
          if (ok) {
            await this.repo.insertInvoice(
              {
                userId: due.userId,
                providerInvoiceId: `in_test_${key}`,
                description: `Renewal of ${planLabel(plan.plan)}`,
                amount,
                paymentMethod: `Card ending in ${due.cardLast4 ?? '????'}`,
              },
              tx,
            );
          }
          return ok;
        });
        if (renewed)
          await this.afterPaid(due.userId, amount, `Card ending in ${due.cardLast4 ?? '????'}`);
      }
      changed++;
    }
    return changed;
  }

  /** spec §7 payment/invoice. */
  async invoices(userId: string, origin: string): Promise<Invoice[]> {
    const rows = await this.repo.invoices(userId);
    return rows.map((row) => ({
      id: row.id,
      timestamp: Math.floor(row.createdAt.getTime() / 1000),
      payment_method: row.paymentMethod,
      link: row.hostedUrl ?? `${origin}/billing/invoice/${row.id}`,
      amount: row.amount,
      currency: row.currency,
      description: row.description,
    }));
  }

  async invoice(userId: string, id: string) {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await this.repo.invoice(userId, id) : undefined;
    if (!row) throw notFound('Invoice');
    const user = await this.requireUser(userId);
    return { row, user };
  }

  async portalUrl(userId: string, returnUrl: string) {
    await this.requireUser(userId);
    const subscription = await this.repo.subscription(userId);
    return this.provider.portalUrl(subscription ? toProvider(subscription) : null, returnUrl);
  }

  async subscriptionSummary(userId: string) {
    const user = await this.requireUser(userId);
    const subscription = await this.repo.subscription(userId);
    return { user, subscription: subscription?.status === 'active' ? subscription : null };
  }

  /** spec §7 suggestion_feedback with the spec §5 survey rules. */
  async cancelFeedback(userId: string, body: { type: string; email: string; details: string[] }) {
    const problem = validateCancelDetails(body.details);
    if (problem) throw new AppError(ERROR_CODES.VALIDATION_FAILED, 400, problem);
    await this.repo.insertFeedback({
      userId,
      type: body.type,
      email: body.email,
      details: body.details,
    });
  }

  /** spec §7 contact-us: validated, stored and mailed to the operator. */
  async contactUs(userId: string | null, form: EnterpriseForm) {
    const errors = validateEnterpriseForm(form);
    const first = Object.entries(errors)[0];
    if (first) {
      throw new AppError(ERROR_CODES.VALIDATION_FAILED, 400, `${first[0]}: ${first[1]}`, errors);
    }
    const clean = Object.fromEntries(
      Object.entries(form).map(([key, value]) => [key, String(value).trim()]),
    ) as unknown as EnterpriseForm;
    await this.repo.insertContact(userId, { ...clean });
    // Stored first, so a mail failure loses nothing: it is logged, and the operator can query.
    await this.mailer
      .send({
        to: this.options.operatorEmail ?? 'operator@localhost',
        subject: `Enterprise enquiry from ${clean.company_name} (${clean.company_size})`,
        text: [
          `${clean.first_name} ${clean.last_name} <${clean.business_email}>`,
          `Company: ${clean.company_name}, ${clean.company_size} people`,
          `Social channel: ${clean.company_social_channel}`,
          '',
          clean.message,
        ].join('\n'),
        category: 'operator',
      })
      .catch((error: unknown) =>
        this.options.log?.error({ err: error }, 'enterprise contact mail failed'),
      );
  }

  private async afterPaid(userId: string, amount: number, paymentMethod: string) {
    const user = await this.repo.user(userId);
    if (!user) return;
    await this.mailer
      .send({
        to: user.email,
        subject: `Your Moments receipt: $${formatDollars(amount)}`,
        text: `Thank you for your payment of $${formatDollars(amount)} (${paymentMethod}).\nYour plan: ${planLabel(user.currentPlan)}.\nInvoices are on your plan page: /settings/plan`,
        category: 'billing',
        userId,
      })
      .catch((error: unknown) => this.options.log?.error({ err: error }, 'receipt mail failed'));
  }

  private async firstPaidPlan(userId: string, referral: string | undefined) {
    try {
      await this.hooks.onFirstPaidPlan?.(userId, referral || undefined);
    } catch (error) {
      // A referral reward must never undo a payment.
      this.options.log?.error({ err: error }, 'onFirstPaidPlan hook failed');
    }
  }

  /**
   * A verified Stripe event (the webhook controller checks the signature). Each event id is
   * handled once; replays are no-ops. Returns what happened, for logs and tests.
   */
  async handleStripeEvent(event: Stripe.Event): Promise<'handled' | 'duplicate' | 'ignored'> {
    let firstPaid: { userId: string; referral?: string } | null = null;
    let receipt: { userId: string; amount: number } | null = null;
    const outcome = await this.repo.db.transaction(async (tx) => {
      if (!(await this.repo.claimEvent(event.id, event.type, tx))) return 'duplicate' as const;
      const key = `stripe:${event.id}`;
      switch (event.type) {
        case 'checkout.session.completed': {
          const session = event.data.object;
          const userId = session.metadata?.userId ?? session.client_reference_id;
          if (!userId || !(await this.repo.user(userId, tx))) return 'ignored' as const;
          await this.repo.claimCheckout(session.id, tx);
          if (session.mode === 'payment') {
            const credits =
              Number(session.metadata?.credits ?? 0) * Number(session.metadata?.quantity ?? 1);
            if (credits > 0) {
              await this.credits.topUp(userId, credits, key, tx);
              await this.repo.recordChange(
                { userId, action: 'CREDIT', fromPlan: null, toPlan: null, eventKey: key },
                tx,
              );
              await this.repo.insertInvoice(
                {
                  userId,
                  providerInvoiceId: session.id,
                  description: `Credit top-up x ${session.metadata?.quantity ?? 1}`,
                  amount: session.amount_total ?? 0,
                  paymentMethod: 'card',
                },
                tx,
              );
              receipt = { userId, amount: session.amount_total ?? 0 };
            }
          } else if (typeof session.customer === 'string') {
            // Remember the customer so later subscription events find the user.
            const existing = await this.repo.subscription(userId, tx);
            if (existing)
              await this.repo.upsertSubscription({ ...existing, customerId: session.customer }, tx);
          }
          return 'handled' as const;
        }
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted': {
          const subscription = event.data.object;
          const userId = await this.userOfSubscription(subscription, tx);
          if (!userId) return 'ignored' as const;
          const item = subscription.items.data[0];
          const plan = item?.price.lookup_key ?? subscription.metadata?.plan ?? '';
          const active =
            event.type !== 'customer.subscription.deleted' &&
            ['active', 'trialing', 'past_due'].includes(subscription.status);
          const wasFirst = await this.applySubscriptionState(
            tx,
            userId,
            {
              plan,
              active,
              cancelAtPeriodEnd: subscription.cancel_at_period_end,
              customerId:
                typeof subscription.customer === 'string'
                  ? subscription.customer
                  : subscription.customer.id,
              subscriptionId: subscription.id,
              periodStart: new Date(subscription.current_period_start * 1000),
              periodEnd: new Date(subscription.current_period_end * 1000),
            },
            key,
          );
          if (wasFirst) firstPaid = { userId, referral: await this.referralOf(userId, tx) };
          return 'handled' as const;
        }
        case 'invoice.paid': {
          const invoice = event.data.object;
          const customer =
            typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
          // The subscription's metadata is copied onto its invoices, so an invoice that arrives
          // before its subscription event still finds its user.
          const fromMetadata = invoice.subscription_details?.metadata?.userId;
          const userId =
            fromMetadata && (await this.repo.user(fromMetadata, tx))
              ? fromMetadata
              : customer
                ? await this.repo.userByCustomer(customer, tx)
                : undefined;
          if (!userId) return 'ignored' as const;
          await this.repo.insertInvoice(
            {
              userId,
              providerInvoiceId: invoice.id,
              description: invoice.lines?.data[0]?.description ?? 'Moments subscription',
              amount: invoice.amount_paid,
              currency: invoice.currency,
              paymentMethod: 'card',
              hostedUrl: invoice.hosted_invoice_url ?? invoice.invoice_pdf ?? null,
            },
            tx,
          );
          if (invoice.billing_reason === 'subscription_cycle') {
            const line = invoice.lines?.data[0];
            const start = new Date((line?.period.start ?? invoice.period_start) * 1000);
            const end = new Date((line?.period.end ?? invoice.period_end) * 1000);
            await this.renew(tx, userId, start, end, key);
          }
          receipt = { userId, amount: invoice.amount_paid };
          return 'handled' as const;
        }
        default:
          return 'ignored' as const;
      }
    });
    const paid = receipt as { userId: string; amount: number } | null;
    if (paid) await this.afterPaid(paid.userId, paid.amount, 'card');
    const first = firstPaid as { userId: string; referral?: string } | null;
    if (first) await this.firstPaidPlan(first.userId, first.referral);
    return outcome;
  }

  private async userOfSubscription(subscription: Stripe.Subscription, tx: Tx) {
    const fromMetadata = subscription.metadata?.userId;
    if (fromMetadata && (await this.repo.user(fromMetadata, tx))) return fromMetadata;
    const known = await this.repo.subscriptionByProviderId(subscription.id, tx);
    if (known) return known.userId;
    const customer =
      typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    return this.repo.userByCustomer(customer, tx);
  }

  /** The referral given when the user's subscription checkout was created. */
  private async referralOf(userId: string, tx: Tx): Promise<string | undefined> {
    return (await this.repo.latestReferral(userId, tx)) ?? undefined;
  }
}
