import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planChanges, users } from '../src/db/schema.js';
import { OutboxMailer } from '../src/modules/mail/index.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { entitlementOf, userInfo, type UserInfoData } from './support/billing.js';

type User = Awaited<ReturnType<typeof signUp>>;

describe.each(DATABASE_TARGETS)('billing in test mode on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  const firstPaid: Array<[string, string | undefined]> = [];

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(
      await target.open(),
      { OPERATOR_EMAIL: 'ops@moments.example' },
      {
        billingHooks: {
          onFirstPaidPlan: async (userId, referral) => void firstPaid.push([userId, referral]),
        },
      },
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (user: User, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  const info = (user: User) => userInfo(t.app, user);
  const limitOf = (data: UserInfoData, feature: string) => entitlementOf(data, feature).limit;
  const pay = (user: User, checkoutUrl: string, number: string) =>
    t.app.inject({
      method: 'POST',
      url: new URL(checkoutUrl).pathname,
      headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        number,
        expiry: '12 / 40',
        cvc: '123',
        name: 'Test',
      }).toString(),
    });
  const subscribe = async (
    user: User,
    plan: string,
    referral?: string,
    card = '4242 4242 4242 4242',
  ) => {
    const created = await call(user, 'POST', '/api/subscription/create', { plan, referral });
    expect(created.statusCode).toBe(200);
    const paid = await pay(user, created.json().data, card);
    expect(paid.statusCode).toBe(303);
    return { url: created.json().data as string, paid };
  };
  const actionsOf = async (userId: string) =>
    (
      await t.services.database.db.select().from(planChanges).where(eq(planChanges.userId, userId))
    ).map((row) => row.action);

  it('serves the pricing table with the spec amounts', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const response = await t.app.inject({ method: 'GET', url: '/api/subscription/pricing_table' });
    expect(response.statusCode).toBe(200);
    const { pricing, provider } = response.json().data;
    expect(provider).toBe('test');
    const amount = (plan: string) =>
      pricing.find((p: { plan: string }) => p.plan === plan).unit_amount;
    expect([
      amount('vip_year'),
      amount('edu_vip_year'),
      amount('svip_year'),
      amount('ssvip_year'),
    ]).toEqual([499 * 12, 399 * 12, 1349 * 12, 6999 * 12]);
    expect(pricing.find((p: { plan: string }) => p.plan === 'enterprise').type).toBe('enterprise');
  });

  it('takes a free user through a TEST MODE checkout: decline changes nothing, 4242 subscribes once', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'buyer');
    const created = await call(user, 'POST', '/api/subscription/create', {
      plan: 'vip_month',
      referral: 'friend-42',
    });
    const checkoutUrl = created.json().data as string;
    expect(checkoutUrl).toMatch(/\/billing\/test-checkout\/cs_test_/);
    const page = await t.app.inject({
      method: 'GET',
      url: new URL(checkoutUrl).pathname,
      headers: user.headers,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain('$9.99');

    // Another user cannot see or pay this checkout.
    const stranger = await signUp(t.app, 'stranger');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: new URL(checkoutUrl).pathname,
          headers: stranger.headers,
        })
      ).statusCode,
    ).toBe(404);

    const declined = await pay(user, checkoutUrl, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect((await info(user)).subscription.current_plan).toBe('free');

    // A double submit, even a concurrent one, applies the purchase once (one receipt, one CREATE).
    const [paid, twin] = await Promise.all([
      pay(user, checkoutUrl, '4242 4242 4242 4242'),
      pay(user, checkoutUrl, '4242 4242 4242 4242'),
    ]);
    expect([paid.statusCode, twin.statusCode]).toEqual([303, 303]);
    expect(paid.headers.location).toMatch(
      /\/settings\/plan\?type=(monthly|yearly)&session_id=cs_test_/,
    );
    expect((await pay(user, checkoutUrl, '4242 4242 4242 4242')).statusCode).toBe(303);

    const after = await info(user);
    expect(after.subscription).toEqual({ current_plan: 'vip_month', cancel_at_period_end: false });
    expect(limitOf(after, 'CREDIT')).toBe(2000);
    expect(limitOf(after, 'CANVAS_EXPORT')).toBe(-1);
    expect(await actionsOf(user.userId)).toEqual(['CREATE']);
    expect(firstPaid.filter(([id]) => id === user.userId)).toEqual([[user.userId, 'friend-42']]);

    const invoices = (await call(user, 'GET', '/api/payment/invoice')).json().data;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount: 999, payment_method: 'Card ending in 4242' });
    const invoicePage = await t.app.inject({
      method: 'GET',
      url: new URL(invoices[0].link).pathname,
      headers: user.headers,
    });
    expect(invoicePage.statusCode).toBe(200);
    expect(invoicePage.body).toContain('$9.99');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: new URL(invoices[0].link).pathname,
          headers: stranger.headers,
        })
      ).statusCode,
    ).toBe(404);

    const outbox = await new OutboxMailer(path.join(t.dataDir, 'outbox')).list();
    const receipts = outbox.filter((mail) => mail.to === user.email && mail.category === 'billing');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.subject).toContain('$9.99');

    // A second create while subscribed is refused: changes go through resubscribe.
    expect(
      (await call(user, 'POST', '/api/subscription/create', { plan: 'svip_month' })).statusCode,
    ).toBe(409);
  });

  it('upgrades with a prorated preview, refuses downgrades, cancels and resumes with spec actions', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'upgrader');
    await subscribe(user, 'vip_month');
    const preview = await call(user, 'POST', '/api/subscription/preview_invoice', {
      plan: 'svip_year',
    });
    expect(preview.statusCode).toBe(200);
    // A whole month of standard is unused, so the preview is the yearly price minus about 9.99.
    expect(preview.json().data.amount).toBeGreaterThan(1349 * 12 - 1000);
    expect(preview.json().data.amount).toBeLessThan(1349 * 12);

    const refused = await call(user, 'POST', '/api/subscription/preview_invoice', {
      plan: 'vip_month',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('PLAN_NOT_ALLOWED');

    expect(
      (await call(user, 'POST', '/api/subscription/resubscribe', { plan: 'svip_year' })).statusCode,
    ).toBe(200);
    let data = await info(user);
    expect(data.subscription.current_plan).toBe('svip_year');
    expect(limitOf(data, 'CREDIT')).toBe(6000 * 12);
    // yearly to monthly is never allowed
    expect(
      (await call(user, 'POST', '/api/subscription/resubscribe', { plan: 'ssvip_month' })).json()
        .code,
    ).toBe('PLAN_NOT_ALLOWED');

    // The survey follows its rules.
    const survey = (details: string[]) =>
      call(user, 'POST', '/api/user/suggestion_feedback', {
        type: 'SUBSCRIPTION_CANCEL',
        email: user.email,
        details,
      });
    expect((await survey([])).json().message).toBe('Please enter feedback');
    expect((await survey(['It is too expensive:  '])).json().message).toBe('Please enter content');
    expect(
      (await survey(['It is too expensive: yes', 'I only needed it for one project'])).statusCode,
    ).toBe(200);

    expect((await call(user, 'POST', '/api/subscription/cancel')).statusCode).toBe(200);
    data = await info(user);
    expect(data.subscription).toEqual({ current_plan: 'svip_year', cancel_at_period_end: true });
    // With a cancellation pending the current plan is allowed again (stop_cancel path).
    expect((await call(user, 'POST', '/api/subscription/stop_cancel')).statusCode).toBe(200);
    expect((await info(user)).subscription.cancel_at_period_end).toBe(false);
    expect(await actionsOf(user.userId)).toEqual([
      'CREATE',
      'UPGRADE',
      'UNSUBSCRIBE',
      'RESUBSCRIBE',
    ]);
    const invoices = (await call(user, 'GET', '/api/payment/invoice')).json().data;
    expect(invoices.map((i: { amount: number }) => i.amount)).toEqual([
      preview.json().data.amount,
      999,
    ]);
  });

  it('fails a resubscribe on a card that declines later and changes nothing', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'latefail');
    await subscribe(user, 'vip_month', undefined, '4000 0000 0000 0341');
    const failed = await call(user, 'POST', '/api/subscription/resubscribe', {
      plan: 'ssvip_month',
    });
    expect(failed.statusCode).toBe(402);
    expect(failed.json().code).toBe('PAYMENT_DECLINED');
    expect((await info(user)).subscription.current_plan).toBe('vip_month');
  });

  it('tops up credits, renews a period and ends a cancelled plan at period end, keeping what was bought', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'renewer');
    await subscribe(user, 'vip_month');
    const topUp = await call(user, 'POST', '/api/payment', { price: 'credit_100', quantity: 2 });
    expect(topUp.statusCode).toBe(200);
    const paidTopUp = await pay(user, topUp.json().data, '5555 5555 5555 4444');
    expect(paidTopUp.statusCode).toBe(303);
    // Back on the plan page told it was a top-up: it thanks for credits, not for a subscription.
    expect(paidTopUp.headers.location).toMatch(/\/settings\/plan\?topup=1&session_id=cs_test_/);
    expect(limitOf(await info(user), 'CREDIT')).toBe(2000 + 2000);

    // 30 credits spent come out of the plan's grant first; the renewal gives a fresh grant and
    // the 200 bought credits stay (the old code reset the limit to the plan's 2000).
    const task = { kind: 'task-run' as const, taskId: randomUUID(), attempt: 0 };
    await t.services.billing.ledger.charge(user.userId, task, 'CREDIT', 300);
    const nextMonth = new Date(Date.now() + 32 * 86_400_000);
    await t.services.billing.changes.renewDue(nextMonth);
    let data = await info(user);
    expect(
      data.entitlements.find((e: { feature: string }) => e.feature === 'CREDIT'),
    ).toMatchObject({ limit: 2000 + 2000, usage: 0 });

    await call(user, 'POST', '/api/subscription/cancel');
    await t.services.billing.changes.renewDue(new Date(Date.now() + 70 * 86_400_000));
    data = await info(user);
    expect(data.subscription).toEqual({ current_plan: 'free', cancel_at_period_end: false });
    expect(limitOf(data, 'CANVAS_EXPORT')).toBe(3);
    expect(limitOf(data, 'CREDIT')).toBe(600 + 2000);
    expect(await actionsOf(user.userId)).toEqual([
      'CREATE',
      'CREDIT',
      'Recharge',
      'UNSUBSCRIBE',
      'UNSUBSCRIBE',
    ]);
    const [row] = await t.services.database.db
      .select()
      .from(users)
      .where(eq(users.id, user.userId));
    expect(row!.currentPlan).toBe('free');
  });

  it('validates, stores and mails the enterprise contact form to the operator', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'enterprise');
    const form = {
      first_name: 'Grace',
      last_name: 'Hopper',
      business_email: 'grace@navy.example',
      company_name: 'Navy',
      company_size: '1001 - 5000',
      company_social_channel: 'youtube.com/@navy',
      message: 'Seats for the whole fleet.',
    };
    const bad = await call(user, 'POST', '/api/contact-us', {
      ...form,
      business_email: 'not-an-email',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/business_email/);
    expect(
      (await call(user, 'POST', '/api/contact-us', { ...form, company_size: '7' })).statusCode,
    ).toBe(400);
    expect((await call(user, 'POST', '/api/contact-us', form)).statusCode).toBe(200);
    const outbox = await new OutboxMailer(path.join(t.dataDir, 'outbox')).list();
    const mail = outbox.find((m) => m.to === 'ops@moments.example');
    expect(mail?.subject).toContain('Navy');
    expect(mail?.text).toContain('Seats for the whole fleet.');
  });

  it('answers 404 on the Stripe webhook when Stripe is not configured', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/billing/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(404);
  });
});
