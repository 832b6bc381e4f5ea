/**
 * Billing acceptance: Stripe event sequences from localstripe's own webhook sender, delivered to
 * the running app (over HTTP, signed with the configured secret), give the documented states and
 * ledgers on PGlite and PostgreSQL. Subscriptions, customers, cards, cancellations and refunds are
 * localstripe's; `customer.subscription.updated` is sent by the launcher's one addition
 * (localstripe_launcher.py). localstripe has no Checkout Sessions, so the unpaid-then-failed async
 * checkout is the one step signed by the test itself (README, "Billing").
 */
import { findPlan } from '@moments/domain';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingCheckoutSessions } from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { creditLedger, stripeEventBody, stripeSignature, userInfo } from './support/billing.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import {
  localstripeMissing,
  startLocalStripe,
  startWebhookRelay,
  type Delivery,
  type LocalStripe,
  type WebhookRelay,
} from './support/localstripe.js';

const WEBHOOK_SECRET = 'whsec_localstripe_events';
const missing = localstripeMissing();
if (missing) console.warn(`billing-localstripe-events: skipping, ${missing}`);

type User = Awaited<ReturnType<typeof signUp>>;
const planGrant = (plan: string) =>
  findPlan(plan)!.entitlements.find((grant) => grant.feature === 'CREDIT')!.limit;

describe.skipIf(missing !== null).each(DATABASE_TARGETS)(
  'Stripe events from localstripe on $name',
  (target) => {
    let skip: string | null = null;
    let t: TestApp;
    let localstripe: LocalStripe;
    let relay: WebhookRelay;
    let stripe: Stripe;

    beforeAll(async () => {
      skip = await target.unavailable();
      if (skip) return;
      localstripe = await startLocalStripe();
      t = await startTestApp(
        await target.open(),
        {
          STRIPE_SECRET_KEY: 'sk_test_moments',
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          STRIPE_API_BASE: localstripe.url,
        },
        { listen: true },
      );
      relay = await startWebhookRelay(`${t.url}/api/billing/stripe/webhook`);
      const registered = await fetch(`${localstripe.url}/_config/webhooks/moments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: relay.url, secret: WEBHOOK_SECRET }),
      });
      expect(registered.status).toBe(200);
      const { protocol, hostname, port } = new URL(localstripe.url);
      stripe = new Stripe('sk_test_moments', {
        host: hostname,
        port: Number(port),
        protocol: protocol.replace(':', '') as 'http',
      });
      // localstripe has legacy Plans, not Prices: the plan id is the Moments plan name.
      for (const plan of ['vip_month', 'svip_month']) {
        await stripe.plans.create({
          id: plan,
          amount: findPlan(plan)!.unitAmount!,
          currency: 'usd',
          interval: 'month',
          product: { name: `Moments ${plan}` },
        });
      }
    }, 120_000);
    afterAll(async () => {
      await relay?.close();
      await t?.close();
      await localstripe?.stop();
    });

    const info = (user: User) => userInfo(t.app, user);
    const ledger = (user: User) => creditLedger(t.app, user);
    /** A localstripe customer with a card (4000…0341 attaches, then every charge declines). */
    const customerWithCard = async (card = '4242424242424242') => {
      const customer = await stripe.customers.create({ email: 'payer@example.com' });
      const token = await stripe.tokens.create({
        card: { number: card, exp_month: '12', exp_year: '2034', cvc: '123' },
      } as Stripe.TokenCreateParams);
      await stripe.customers.createSource(customer.id, { source: token.id });
      return customer.id;
    };
    /** A subscription as the app's checkout makes it: its metadata names the user and plan. */
    const subscribe = (customer: string, user: User, plan: string) =>
      stripe.subscriptions.create({
        customer,
        items: [{ plan }],
        metadata: { userId: user.userId, plan },
      });
    const delivered = (type: string, objectId: string, after = 0) =>
      relay.waitFor(
        (d) => d.type === type && d.objectId === objectId && relay.deliveries.indexOf(d) >= after,
      );
    const answered = (delivery: Delivery) => {
      expect(delivery.status, delivery.outcome).toBe(200);
      return delivery.outcome;
    };

    it('created, updated, deleted, out of order, another subscription, replay', async (ctx) => {
      if (skip) return ctx.skip(skip);
      const user = await signUp(t.app, 'localstripe-events');
      const free = await ledger(user);
      const vip = planGrant('vip_month');
      const svip = planGrant('svip_month');

      // created: localstripe charges the first invoice and sends the active subscription.
      const customer = await customerWithCard();
      const subscription = await subscribe(customer, user, 'vip_month');
      expect(subscription.status).toBe('active');
      const created = await delivered('customer.subscription.created', subscription.id);
      expect(answered(created)).toBe('handled');
      expect((await info(user)).subscription).toEqual({
        current_plan: 'vip_month',
        cancel_at_period_end: false,
      });
      let now = await ledger(user);
      expect(now.plan).toBe(vip);
      // The free grant's rest expires and the plan's grant arrives (same instant: any order).
      expect(now.moves.slice(free.moves.length).sort()).toEqual([
        `expire plan -${free.plan}`,
        `grant plan ${vip} CREATE`,
      ]);
      const afterCreate = now.moves.length;

      // updated: the app's cancel asks localstripe; its event sets the flag, credits untouched.
      let mark = relay.deliveries.length;
      const cancel = await t.app.inject({
        method: 'POST',
        url: '/api/subscription/cancel',
        headers: user.headers,
      });
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(
        answered(await delivered('customer.subscription.updated', subscription.id, mark)),
      ).toBe('handled');
      expect((await info(user)).subscription).toEqual({
        current_plan: 'vip_month',
        cancel_at_period_end: true,
      });
      expect((await ledger(user)).moves).toHaveLength(afterCreate);

      // updated from the portal: the cancellation taken back, then an upgrade applies now with
      // the new plan's grant.
      const item = subscription.items.data[0]!.id;
      mark = relay.deliveries.length;
      await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
      await delivered('customer.subscription.updated', subscription.id, mark);
      expect((await info(user)).subscription.cancel_at_period_end).toBe(false);
      mark = relay.deliveries.length;
      await stripe.subscriptions.update(subscription.id, {
        items: [{ id: item, plan: 'svip_month' }],
      });
      expect(
        answered(await delivered('customer.subscription.updated', subscription.id, mark)),
      ).toBe('handled');
      expect((await info(user)).subscription.current_plan).toBe('svip_month');
      now = await ledger(user);
      expect(now.plan).toBe(svip);
      expect(now.moves.slice(afterCreate).sort()).toEqual([
        `expire plan -${vip}`,
        `grant plan ${svip} UPGRADE`,
      ]);
      const afterUpgrade = now.moves.length;

      // A downgrade from the portal waits for the period end: same plan, no refill.
      mark = relay.deliveries.length;
      const current = await stripe.subscriptions.retrieve(subscription.id);
      await stripe.subscriptions.update(subscription.id, {
        items: [{ id: current.items.data[0]!.id, plan: 'vip_month' }],
      });
      answered(await delivered('customer.subscription.updated', subscription.id, mark));
      expect((await info(user)).subscription.current_plan).toBe('svip_month');
      expect((await ledger(user)).moves).toHaveLength(afterUpgrade);
      expect((await ledger(user)).plan).toBe(svip);

      // Another subscription that never got paid (its card declines): the plan is untouched.
      const declining = await customerWithCard('4000000000000341');
      const incomplete = await subscribe(declining, user, 'vip_month');
      expect(incomplete.status).toBe('incomplete');
      answered(await delivered('customer.subscription.created', incomplete.id));
      expect((await info(user)).subscription.current_plan).toBe('svip_month');
      expect((await ledger(user)).moves).toHaveLength(afterUpgrade);

      // Another paid subscription: the app cancels it on localstripe and refunds its charge; the
      // plan and the ledger stay as they were, also when its deletion arrives.
      // (A customer of its own: localstripe bills the first customer's proration credits on
      // the next invoice it makes for them.)
      const second = await subscribe(await customerWithCard(), user, 'vip_month');
      expect(second.status).toBe('active');
      answered(await delivered('customer.subscription.created', second.id));
      answered(await delivered('customer.subscription.deleted', second.id));
      expect((await stripe.subscriptions.retrieve(second.id)).status).toBe('canceled');
      const secondInvoice = (await stripe.invoices.list({ subscription: second.id })).data.find(
        (invoice) => invoice.status === 'paid',
      )!;
      const paidCharge = secondInvoice.charge!;
      const charge = await stripe.charges.retrieve(
        typeof paidCharge === 'string' ? paidCharge : paidCharge.id,
      );
      expect(charge.amount_refunded).toBe(findPlan('vip_month')!.unitAmount);
      expect((await info(user)).subscription.current_plan).toBe('svip_month');
      expect((await ledger(user)).moves).toHaveLength(afterUpgrade);

      // Out of order: an update held back until after the deletion changes nothing.
      relay.holdNext('customer.subscription.updated');
      mark = relay.deliveries.length;
      await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
      const late = await relay.waitFor(
        (d) => d.type === 'customer.subscription.updated' && d.status === undefined,
      );
      await stripe.subscriptions.cancel(subscription.id);
      expect(answered(await delivered('customer.subscription.deleted', subscription.id))).toBe(
        'handled',
      );
      expect((await info(user)).subscription).toEqual({
        current_plan: 'free',
        cancel_at_period_end: false,
      });
      now = await ledger(user);
      const ended = now.moves.length;
      expect(now.plan).toBe(free.plan);
      answered(await relay.send(late));
      expect((await info(user)).subscription.current_plan).toBe('free');
      expect((await ledger(user)).moves).toHaveLength(ended);

      // Replay: localstripe's signed bytes again change nothing.
      expect(answered(await relay.send(created))).toBe('duplicate');
      expect(answered(await relay.send(late))).toBe('duplicate');
      expect((await info(user)).subscription.current_plan).toBe('free');
      expect(await ledger(user)).toEqual(now);
    }, 90_000);

    it('an unpaid async checkout waits, then its failure grants nothing (stand-in event)', async (ctx) => {
      if (skip) return ctx.skip(skip);
      // localstripe has no Checkout Sessions: these events are signed here, as Stripe would,
      // for checkouts recorded as the app records the ones it makes (only those are credited).
      const user = await signUp(t.app, 'localstripe-async');
      const before = await ledger(user);
      await t.services.database.db.insert(billingCheckoutSessions).values(
        ['cs_async_failed', 'cs_async_paid'].map((id) => ({
          id,
          userId: user.userId,
          kind: 'credits',
          price: 'credit_100',
          quantity: 1,
          amount: 499,
        })),
      );
      const post = async (type: string, id: string, paymentStatus: string) => {
        const payload = stripeEventBody(
          type,
          {
            id,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: paymentStatus,
            client_reference_id: user.userId,
            amount_total: 499,
            metadata: { userId: user.userId, price: 'credit_100', credits: '1000', quantity: '1' },
          },
          `evt_${type}_${id}_${paymentStatus}`,
          Math.floor(Date.now() / 1000),
        );
        const reply = await fetch(`${t.url}/api/billing/stripe/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': stripeSignature(payload, WEBHOOK_SECRET),
          },
          body: payload,
        });
        expect(reply.status).toBe(200);
        return ((await reply.json()) as { outcome: string }).outcome;
      };
      expect(await post('checkout.session.completed', 'cs_async_failed', 'unpaid')).toBe('handled');
      expect(await ledger(user)).toEqual(before);
      expect(await post('checkout.session.async_payment_failed', 'cs_async_failed', 'unpaid')).toBe(
        'handled',
      );
      expect(await ledger(user)).toEqual(before);
      // The same session paid late under a new event id is not credited after its failure.
      expect(await post('checkout.session.completed', 'cs_async_failed', 'paid')).toBe('rejected');
      expect(await ledger(user)).toEqual(before);
      // For contrast: an unpaid session that then succeeds grants its credits once.
      await post('checkout.session.completed', 'cs_async_paid', 'unpaid');
      expect((await ledger(user)).purchased).toBe(before.purchased);
      await post('checkout.session.async_payment_succeeded', 'cs_async_paid', 'paid');
      const paid = await ledger(user);
      expect(paid.purchased).toBe(before.purchased + 1000);
      expect(paid.moves.slice(before.moves.length)).toEqual(['grant purchased 1000 CREDIT']);
    });
  },
);
