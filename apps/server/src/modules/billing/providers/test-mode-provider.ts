import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@moments/contract';
import { findCreditPack, findPlan, proratedAmount, type PlanDefinition } from '@moments/domain';
import { AppError } from '../../../http/errors.js';
import type { CheckoutRow } from '../billing.repository.js';
import { planLabel } from '../plan-label.js';
import type {
  CheckoutRequest,
  PaymentProvider,
  ProviderEvents,
  ProviderSubscription,
} from './payment-provider.js';
import { FAILS_LATER_LAST4 } from './test-cards.js';
import {
  invoiceObject,
  nextPeriod,
  stripeEvent,
  subscriptionObject,
  type TestSubscription,
} from './test-mode-events.js';

const cardOf = (last4: string | null) => `Card ending in ${last4 ?? '????'}`;
const customerOf = (userId: string) => `cus_test_${userId.slice(0, 8)}`;

function viewOf(current: ProviderSubscription): TestSubscription {
  return {
    id: current.subscriptionId ?? `sub_test_${current.userId}`,
    userId: current.userId,
    customerId: current.customerId ?? customerOf(current.userId),
    plan: current.plan,
    status: 'active',
    cancelAtPeriodEnd: current.cancelAtPeriodEnd,
    periodStart: current.currentPeriodStart,
    periodEnd: current.currentPeriodEnd,
  };
}

/** What a period of `plan` costs after the first (the yearly intro offer renews at 83.88). */
const renewalAmountOf = (plan: string) =>
  findPlan(plan)?.renewalAmount ?? findPlan(plan)?.unitAmount ?? 0;

/**
 * The default provider: checkout, portal and invoices are pages this app serves under
 * /billing/test-*, plainly labelled TEST MODE, so every flow works offline with test cards.
 * Nothing is charged. Every change answers with the Stripe-shaped events Stripe would send.
 */
export class TestModeProvider implements PaymentProvider {
  readonly name = 'test' as const;

  async createCheckout(request: CheckoutRequest) {
    const sessionId = `cs_test_${randomBytes(12).toString('hex')}`;
    const origin = new URL(request.returnUrl).origin;
    return { sessionId, url: `${origin}/billing/test-checkout/${sessionId}` };
  }

  async previewChange(current: ProviderSubscription, plan: PlanDefinition, now: Date) {
    return proratedAmount(
      {
        unitAmount: current.unitAmount,
        periodStart: current.currentPeriodStart,
        periodEnd: current.currentPeriodEnd,
      },
      plan.unitAmount ?? 0,
      now,
    );
  }

  async changePlan(current: ProviderSubscription, plan: PlanDefinition, now: Date) {
    if (current.cardLast4 === FAILS_LATER_LAST4) {
      throw new AppError(
        ERROR_CODES.PAYMENT_DECLINED,
        402,
        'Your card was declined. Update your payment method and try again.',
      );
    }
    const amount = await this.previewChange(current, plan, now);
    const sub = { ...viewOf(current), plan: plan.plan, ...nextPeriod(plan.plan, now) };
    return [
      stripeEvent('customer.subscription.updated', subscriptionObject(sub), now),
      stripeEvent(
        'invoice.paid',
        invoiceObject({
          sub,
          amount,
          billingReason: 'subscription_update',
          description: `Change to ${planLabel(plan.plan)} (prorated)`,
          key: `${sub.id}_${now.getTime()}`,
          paymentMethod: cardOf(current.cardLast4),
        }),
        now,
      ),
    ];
  }

  async setCancelAtPeriodEnd(current: ProviderSubscription, cancel: boolean, now: Date) {
    const sub = { ...viewOf(current), cancelAtPeriodEnd: cancel };
    return [stripeEvent('customer.subscription.updated', subscriptionObject(sub), now)];
  }

  async cancelAndRefund(): Promise<ProviderEvents> {
    // Nothing was charged in test mode; the second subscription simply never starts.
    return [];
  }

  async portalUrl(_current: ProviderSubscription | null, returnUrl: string) {
    return `${new URL(returnUrl).origin}/billing/test-portal`;
  }

  /** The events of a paid TEST MODE checkout, as Stripe sends them after a card payment. */
  checkoutEvents(session: CheckoutRow, paymentMethod: string, now: Date): ProviderEvents {
    const customerId = customerOf(session.userId);
    if (session.kind === 'credits') {
      const pack = findCreditPack(session.price ?? '');
      return [
        stripeEvent(
          'checkout.session.completed',
          {
            id: session.id,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'paid',
            client_reference_id: session.userId,
            customer: customerId,
            amount_total: session.amount,
            metadata: {
              userId: session.userId,
              price: session.price ?? '',
              credits: String(pack?.credits ?? 0),
              quantity: String(session.quantity),
              payment_method: paymentMethod,
            },
          },
          now,
        ),
      ];
    }
    const plan = session.plan ?? '';
    const sub: TestSubscription = {
      id: `sub_test_${session.id.replace(/^cs_test_/, '')}`,
      userId: session.userId,
      customerId,
      plan,
      status: 'active',
      cancelAtPeriodEnd: false,
      ...nextPeriod(plan, now),
    };
    return [
      stripeEvent(
        'checkout.session.completed',
        {
          id: session.id,
          object: 'checkout.session',
          mode: 'subscription',
          payment_status: 'paid',
          client_reference_id: session.userId,
          customer: customerId,
          subscription: sub.id,
          amount_total: session.amount,
          metadata: { userId: session.userId, plan, referral: session.referral ?? '' },
        },
        now,
      ),
      stripeEvent('customer.subscription.created', subscriptionObject(sub), now),
      stripeEvent(
        'invoice.paid',
        invoiceObject({
          sub,
          amount: session.amount,
          billingReason: 'subscription_create',
          description: `Moments ${planLabel(plan)}`,
          key: session.id,
          paymentMethod,
        }),
        now,
      ),
    ];
  }

  /**
   * Test mode's clock: the events at the end of a paid period. Cancelled: the subscription is
   * deleted. Otherwise Stripe's renewal: an invoice for the next period (the scheduled plan, if a
   * downgrade waits, at its renewal price) and the subscription moved to that period.
   */
  periodEndEvents(
    current: ProviderSubscription,
    scheduledPlan: string | null,
    now = new Date(),
  ): ProviderEvents {
    const end = current.currentPeriodEnd;
    const ended = viewOf(current);
    if (current.cancelAtPeriodEnd) {
      return [
        stripeEvent(
          'customer.subscription.deleted',
          subscriptionObject({ ...ended, status: 'canceled' }),
          now,
        ),
      ];
    }
    const plan = scheduledPlan ?? current.plan;
    const sub = { ...ended, plan, ...nextPeriod(plan, end) };
    return [
      stripeEvent(
        'invoice.paid',
        invoiceObject({
          sub,
          amount: renewalAmountOf(plan),
          billingReason: 'subscription_cycle',
          description: `Renewal of ${planLabel(plan)}`,
          key: `${sub.id}_${end.getTime()}`,
          paymentMethod: cardOf(current.cardLast4),
        }),
        now,
      ),
      stripeEvent('customer.subscription.updated', subscriptionObject(sub), now),
    ];
  }
}
