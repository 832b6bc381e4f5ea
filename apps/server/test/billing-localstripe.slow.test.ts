/**
 * The Stripe adapter against localstripe, a fake but stateful Stripe server (PyPI, installed by
 * scripts/setup.sh into .tools/test-venv), on 127.0.0.1. localstripe has customers, cards, legacy
 * plans, subscriptions, invoices, refunds and webhooks, but no Prices, Checkout Sessions or billing
 * portal: those stay on the stand-in of billing-stripe.slow.test.ts (README, "Billing").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StripeProvider,
  createStripeClient,
} from '../src/modules/billing/providers/stripe-provider.js';
import type { ProviderSubscription } from '../src/modules/billing/providers/payment-provider.js';
import { localstripeMissing, startLocalStripe, type LocalStripe } from './support/localstripe.js';

const missing = localstripeMissing();
if (missing) console.warn(`billing-localstripe: skipping, ${missing}`);

describe.skipIf(missing !== null)('the Stripe adapter against localstripe', () => {
  let localstripe: LocalStripe;
  let provider: StripeProvider;

  beforeAll(async () => {
    localstripe = await startLocalStripe();
    provider = new StripeProvider(
      createStripeClient({
        secretKey: 'sk_test_moments',
        webhookSecret: 'whsec_unused',
        apiBase: localstripe.url,
      }),
    );
  }, 60_000);
  afterAll(async () => localstripe?.stop());

  /** A paying customer on `plan` (a legacy Plan: localstripe has no Prices), first invoice paid. */
  async function payingSubscriber(plan: string, amount: number) {
    const stripe = provider.stripe;
    await stripe.plans
      .create({
        id: plan,
        amount,
        currency: 'usd',
        interval: 'month',
        product: { name: `Moments ${plan}` },
      })
      .catch(() => undefined); // created by an earlier test: plans are shared
    const customer = await stripe.customers.create({ email: 'payer@example.com' });
    const token = await stripe.tokens.create({
      card: { number: '4242424242424242', exp_month: '12', exp_year: '2034', cvc: '123' },
    });
    await stripe.customers.createSource(customer.id, { source: token.id });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ plan }],
    });
    const current: ProviderSubscription = {
      userId: 'user-1',
      plan,
      customerId: customer.id,
      subscriptionId: subscription.id,
      cardLast4: '4242',
      unitAmount: amount,
      cancelAtPeriodEnd: false,
      currentPeriodStart: new Date(),
    } as ProviderSubscription;
    return { customer, subscription, current };
  }

  it('schedules and takes back a cancellation at period end', async () => {
    const { subscription, current } = await payingSubscriber('vip_month', 1500);
    expect(subscription.status).toBe('active');
    await provider.setCancelAtPeriodEnd(current, true);
    expect(
      (await provider.stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end,
    ).toBe(true);
    await provider.setCancelAtPeriodEnd(current, false);
    const resumed = await provider.stripe.subscriptions.retrieve(subscription.id);
    expect(resumed.cancel_at_period_end).toBe(false);
    expect(resumed.status).toBe('active');
  });

  it('cancels a second paid subscription and refunds what it charged', async () => {
    const { subscription } = await payingSubscriber('vip_month', 1500);
    const invoices = await provider.stripe.invoices.list({ subscription: subscription.id });
    const paid = invoices.data.filter((invoice) => invoice.status === 'paid');
    expect(paid.map((invoice) => invoice.amount_paid)).toEqual([1500]);

    await provider.cancelAndRefund(subscription.id);
    expect((await provider.stripe.subscriptions.retrieve(subscription.id)).status).toBe('canceled');
    const paidCharge = paid[0]!.charge!;
    const charge = typeof paidCharge === 'string' ? paidCharge : paidCharge.id;
    const refunded = await provider.stripe.charges.retrieve(charge);
    expect(refunded.amount_refunded).toBe(1500);
  });
});
