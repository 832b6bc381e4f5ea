import { randomBytes } from 'node:crypto';
import { findPlan, periodEnd } from '@moments/domain';

/*
 * Stripe-shaped events for the TEST MODE provider: the same objects, with the fields
 * the parser reads, that Stripe's webhooks carry, so test mode runs the same parser, state machine
 * and ledger as Stripe and differs only here.
 */

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function stripeEvent(type: string, object: Record<string, unknown>, now: Date) {
  return {
    id: `evt_test_${randomBytes(10).toString('hex')}`,
    object: 'event',
    type,
    created: seconds(now),
    data: { object },
  };
}

export interface TestSubscription {
  id: string;
  userId: string;
  customerId: string;
  plan: string;
  status: 'active' | 'canceled';
  cancelAtPeriodEnd: boolean;
  periodStart: Date;
  periodEnd: Date;
}

export const subscriptionObject = (sub: TestSubscription) => ({
  id: sub.id,
  object: 'subscription',
  customer: sub.customerId,
  status: sub.status,
  cancel_at_period_end: sub.cancelAtPeriodEnd,
  current_period_start: seconds(sub.periodStart),
  current_period_end: seconds(sub.periodEnd),
  metadata: { userId: sub.userId, plan: sub.plan },
  items: { object: 'list', data: [{ price: { lookup_key: sub.plan } }] },
});

export function invoiceObject(input: {
  sub: TestSubscription;
  amount: number;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  description: string;
  key: string;
  paymentMethod: string;
}) {
  return {
    id: `in_test_${input.key}`,
    object: 'invoice',
    customer: input.sub.customerId,
    subscription: input.sub.id,
    amount_paid: input.amount,
    currency: 'usd',
    billing_reason: input.billingReason,
    subscription_details: { metadata: { userId: input.sub.userId, plan: input.sub.plan } },
    metadata: { payment_method: input.paymentMethod },
    lines: {
      object: 'list',
      data: [
        {
          description: input.description,
          period: { start: seconds(input.sub.periodStart), end: seconds(input.sub.periodEnd) },
        },
      ],
    },
  };
}

/** A new period of `plan` starting at `start`. */
export function nextPeriod(plan: string, start: Date) {
  const interval = findPlan(plan)?.interval ?? 'month';
  return { periodStart: start, periodEnd: periodEnd(start, interval) };
}
