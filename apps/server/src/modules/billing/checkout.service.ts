import { ERROR_CODES } from '@moments/contract';
import { findCreditPack, findPlan, isPurchasablePlan, type PlanDefinition } from '@moments/domain';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import type { BillingRepository } from './billing.repository.js';
import { planLabel } from './plan-label.js';
import type { CheckoutRequest, PaymentProvider } from './providers/payment-provider.js';
import { checkTestCard, type CardCheck } from './providers/test-cards.js';
import type { TestModeProvider } from './providers/test-mode-provider.js';
import type { SubscriptionEvents } from './subscriptions/subscription-events.js';
import type { UserLocks } from './user-locks.js';

/** An open checkout for the same item is handed back for this long (Stripe's expire in 24 h). */
const REUSE_OPEN_CHECKOUT_MS = 23 * 3600_000;

export function purchasablePlan(name: string): PlanDefinition {
  const plan = findPlan(name);
  if (!plan || !isPurchasablePlan(name)) {
    throw badRequest(`Unknown plan "${name.slice(0, 40)}". Choose a plan from the pricing table.`);
  }
  return plan;
}

export const eduRequired = () =>
  new AppError(ERROR_CODES.FORBIDDEN, 403, 'Education plans need a verified education account.');

/**
 * Checkouts (subscription/create and payment): one per item at a time, under the user's
 * lock, so a double click gets the same checkout back. The TEST MODE checkout's pay button is
 * here too: it checks the card and feeds the Stripe-shaped events of a payment to the handler.
 */
export class CheckoutService {
  constructor(
    private readonly repo: BillingRepository,
    private readonly provider: PaymentProvider,
    private readonly locks: UserLocks,
    private readonly events: SubscriptionEvents,
  ) {}

  private async requireUser(userId: string) {
    const user = await this.repo.user(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
    return user;
  }

  /** subscription/create: the checkout URL for a free user choosing a paid plan. */
  async createSubscriptionCheckout(
    userId: string,
    planName: string,
    referral: string | null | undefined,
    urls: { returnUrl: string; cancelUrl: string },
  ): Promise<string> {
    const plan = purchasablePlan(planName);
    return this.locks.with(userId, async () => {
      const user = await this.requireUser(userId);
      if (plan.edu && !user.eduVerified) throw eduRequired();
      const current = await this.repo.subscription(userId);
      if (current?.status === 'active') {
        throw new AppError(
          ERROR_CODES.CONFLICT,
          409,
          'You already have a subscription. Change it from the plan page instead.',
        );
      }
      return this.reuseOrCreate(
        userId,
        { kind: 'subscription', plan: plan.plan },
        {
          kind: 'subscription',
          plan,
          referral: referral ?? null,
          user: { id: user.id, email: user.email },
          customerId: current?.customerId ?? null,
          ...urls,
        },
        { referral: referral ?? null, amount: plan.unitAmount ?? 0 },
      );
    });
  }

  /**
   * An open checkout of the same item is handed back (a second click, or a second tab); otherwise
   * the provider makes one and it is recorded. Runs under the caller's per-user lock.
   */
  private async reuseOrCreate(
    userId: string,
    item: Parameters<BillingRepository['openCheckout']>[1],
    request: CheckoutRequest,
    record: { referral?: string | null; amount: number },
  ): Promise<string> {
    const open = await this.repo.openCheckout(userId, item, REUSE_OPEN_CHECKOUT_MS);
    if (open?.url) return open.url;
    const { sessionId, url } = await this.provider.createCheckout(request);
    await this.repo.insertCheckout({ id: sessionId, userId, ...item, ...record, url });
    return url;
  }

  /** POST /api/payment {price, quantity}: a checkout URL for a credit top-up. */
  async createCreditCheckout(
    userId: string,
    price: string,
    quantity: number,
    urls: { returnUrl: string; cancelUrl: string },
  ): Promise<string> {
    const pack = findCreditPack(price);
    if (!pack) throw badRequest(`Unknown credit pack "${price.slice(0, 40)}".`);
    return this.locks.with(userId, async () => {
      const user = await this.requireUser(userId);
      const current = await this.repo.subscription(userId);
      return this.reuseOrCreate(
        userId,
        { kind: 'credits', price: pack.price, quantity },
        {
          kind: 'credits',
          price: pack.price,
          credits: pack.credits,
          unitAmount: pack.unitAmount,
          quantity,
          user: { id: user.id, email: user.email },
          customerId: current?.customerId ?? null,
          ...urls,
        },
        { amount: pack.unitAmount * quantity },
      );
    });
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
   * The TEST MODE checkout's pay button: checks the card like Stripe's test mode would (a
   * declined card changes nothing), then applies the events Stripe would send for the payment.
   * Under the user's lock, so a double submit pays once.
   */
  async payTestCheckout(
    userId: string,
    sessionId: string,
    card: { number?: string; expiry?: string; cvc?: string },
  ): Promise<{ ok: true } | Extract<CardCheck, { ok: false }>> {
    await this.testCheckout(userId, sessionId);
    const check = checkTestCard(card);
    if (!check.ok) return check;
    return this.locks.with(userId, async () => {
      const session = await this.repo.checkout(sessionId);
      if (!session || session.status !== 'open') return { ok: true as const };
      if (session.kind === 'subscription') {
        const user = await this.requireUser(userId);
        if (findPlan(session.plan)?.edu && !user.eduVerified) throw eduRequired();
        if ((await this.repo.subscription(userId))?.status === 'active') {
          throw new AppError(ERROR_CODES.CONFLICT, 409, 'You already have a subscription.');
        }
      }
      // Named as the other invoices name a card (not "Visa ending" here, "Card ending" there).
      const method = `Card ending in ${check.last4}`;
      const events = (this.provider as TestModeProvider).checkoutEvents(
        session,
        method,
        new Date(),
      );
      await this.events.applyAllLocked(userId, events);
      if (session.kind === 'subscription') await this.repo.setCardLast4(userId, check.last4);
      return { ok: true as const };
    });
  }
}
