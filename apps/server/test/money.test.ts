import path from 'node:path';
import { taskCost, taskRunCost } from '@moments/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingInvoices, creditLedger, planChanges, tasks } from '../src/db/schema.js';
import { OutboxMailer } from '../src/modules/mail/index.js';
import {
  stripeEvent,
  subscriptionObject,
} from '../src/modules/billing/providers/test-mode-events.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { entitlementOf, userInfo } from './support/billing.js';
import { seedFinishedTask, seedUpload } from './support/fixtures.js';

type User = Awaited<ReturnType<typeof signUp>>;

/*
 * Money acceptance on PGlite and PostgreSQL: purchased credits survive every plan change, one
 * change per concurrent burst, hostile form fields, and the cost charged at start is the cost the
 * one cost function (packages/domain) shows, refused at start (and at Retry) when it cannot be paid.
 */
describe.each(DATABASE_TARGETS)('money on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (user: User, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  const credit = async (user: User) => entitlementOf(await userInfo(t.app, user), 'CREDIT');
  const plan = async (user: User) => (await userInfo(t.app, user)).subscription.current_plan;
  const pay = (user: User, checkoutUrl: string, fields: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      for (const one of [value].flat()) body.append(key, one);
    }
    return t.app.inject({
      method: 'POST',
      url: new URL(checkoutUrl).pathname,
      headers: { ...user.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  };
  const card = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' };
  const buy = async (user: User, url: string, body: object) => {
    const created = await call(user, 'POST', url, body);
    expect(created.statusCode, created.body).toBe(200);
    expect((await pay(user, created.json().data, card)).statusCode).toBe(303);
  };
  /** A provider event as the portal would cause it (Stripe-shaped, through the same handler). */
  const portalChange = async (user: User, newPlan: string) => {
    const [row] = await t.services.database.db
      .select()
      .from((await import('../src/db/schema.js')).billingSubscriptions)
      .where(eq((await import('../src/db/schema.js')).billingSubscriptions.userId, user.userId));
    const event = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({
        id: row!.subscriptionId!,
        userId: user.userId,
        customerId: row!.customerId!,
        plan: newPlan,
        status: 'active',
        cancelAtPeriodEnd: false,
        periodStart: row!.currentPeriodStart,
        periodEnd: row!.currentPeriodEnd,
      }),
      new Date(),
    );
    return t.services.billing.events.handle(event);
  };

  it('keeps every purchased credit through a plan purchase, a renewal, an upgrade, a downgrade and a cancellation', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'keeper');
    await buy(user, '/api/payment', { price: 'credit_100', quantity: 1 });
    expect(await credit(user)).toMatchObject({ limit: 600 + 1000, usage: 0 });
    // Worked example: 100 credits bought, then vip_month: 2000 of the plan plus the 1000 bought.
    await buy(user, '/api/subscription/create', { plan: 'vip_month' });
    expect(await credit(user)).toMatchObject({ limit: 3000, usage: 0 });

    await t.services.billing.changes.renewDue(new Date(Date.now() + 32 * 86_400_000));
    expect(await credit(user)).toMatchObject({ limit: 3000, usage: 0 });

    expect(
      (await call(user, 'POST', '/api/subscription/resubscribe', { plan: 'svip_month' }))
        .statusCode,
    ).toBe(200);
    expect(await credit(user)).toMatchObject({ limit: 6000 + 1000 });

    // A downgrade from the portal waits for the period end and refills nothing.
    const downgraded = await portalChange(user, 'vip_month');
    expect(downgraded.outcome).toBe('handled');
    expect(await plan(user)).toBe('svip_month');
    expect(await credit(user)).toMatchObject({ limit: 7000 });
    await t.services.billing.changes.renewDue(new Date(Date.now() + 64 * 86_400_000));
    expect(await plan(user)).toBe('vip_month');
    expect(await credit(user)).toMatchObject({ limit: 2000 + 1000, usage: 0 });

    await call(user, 'POST', '/api/subscription/cancel');
    await t.services.billing.changes.renewDue(new Date(Date.now() + 100 * 86_400_000));
    expect(await plan(user)).toBe('free');
    expect(await credit(user)).toMatchObject({ limit: 600 + 1000, usage: 0 });
  });

  it('makes one plan change, one invoice and one receipt of 8 concurrent resubscribes', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'clicker');
    await buy(user, '/api/subscription/create', { plan: 'vip_month' });
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(user, 'POST', '/api/subscription/resubscribe', { plan: 'svip_month' }),
      ),
    );
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(8).fill(200));
    const db = t.services.database.db;
    const changes = await db.select().from(planChanges).where(eq(planChanges.userId, user.userId));
    expect(changes.map((change) => change.action)).toEqual(['CREATE', 'UPGRADE']);
    const invoices = await db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.userId, user.userId));
    expect(invoices).toHaveLength(2);
    const outbox = await new OutboxMailer(path.join(t.dataDir, 'outbox')).list();
    expect(outbox.filter((m) => m.to === user.email && m.category === 'billing')).toHaveLength(2);
  });

  it('hands back the open checkout of the same item, and answers odd card forms with 400', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'forms');
    const first = await call(user, 'POST', '/api/subscription/create', { plan: 'vip_year' });
    const again = await call(user, 'POST', '/api/subscription/create', { plan: 'vip_year' });
    expect(again.json().data).toBe(first.json().data);
    const other = await call(user, 'POST', '/api/subscription/create', { plan: 'svip_year' });
    expect(other.json().data).not.toBe(first.json().data);
    const url = first.json().data as string;
    for (const fields of [
      { ...card, number: ['4242 4242 4242 4242', '4000 0000 0000 0002'] },
      { ...card, extra: 'field' },
      { ...card, cvc: '1'.repeat(500) },
    ]) {
      const reply = await pay(user, url, fields);
      expect(reply.statusCode).toBe(400);
    }
    expect(await plan(user)).toBe('free');
    expect((await pay(user, url, card)).statusCode).toBe(303);
    expect(await plan(user)).toBe('vip_year');
  });

  const upload = (user: User, durationMs: number) => seedUpload(t, user.userId, durationMs);
  const start = (user: User, video: object, query = '', caption = false) =>
    call(
      user,
      'POST',
      caption
        ? '/api/tool-task/v2/caption/start?url_source=upload&source_lang=en&caption_display=source'
        : `/api/highlight_moment/task/start?url_source=upload&source_lang=en${query}`,
      video,
    );
  const charged = async (taskId: string) =>
    -(
      await t.services.database.db
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.taskId, taskId))
    ).reduce((sum, row) => sum + row.amount, 0);

  it('charges at start exactly what the cost function shows, and a question on a transcribed video only its run', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'starter');
    const video = await upload(user, 150_000);
    const viral = await start(user, video);
    expect(viral.statusCode, viral.body).toBe(200);
    expect(await charged(viral.json().data.id)).toBe(taskCost('viral', 150_000));
    expect(viral.json().data.cost_credits).toBe(taskCost('viral', 150_000));

    const root = await seedFinishedTask(t, user.userId, {
      video: path.join(t.dataDir, 'none.mp4'),
      mediaStored: false,
      title: 'Transcribed',
      durationMs: 150_000,
      words: [{ text: 'hello', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 500, title: 'Hello' },
    });
    // The root is the same uploaded video, transcribed.
    await t.services.database.db
      .update(tasks)
      .set({ video: { ...video, video_platform: 'upload' } })
      .where(eq(tasks.id, root.taskId));
    // The price the Ask box shows, decided by the server the way start decides it.
    const quote = await call(
      user,
      'GET',
      `/api/highlight_moment/task/question_quote?root_task_id=${root.taskId}`,
    );
    expect(quote.json().data).toMatchObject({
      reuses_transcript: true,
      summary: 0,
      total: taskRunCost('search', 150_000),
    });
    const question = await call(
      user,
      'POST',
      `/api/highlight_moment/task/start?url_source=upload&source_lang=en&query=pricing&root_task_id=${root.taskId}`,
      video,
    );
    expect(question.statusCode, question.body).toBe(200);
    expect(await charged(question.json().data.id)).toBe(quote.json().data.total);
    expect(question.json().data.reuses_transcript).toBe(true);
    // A task on the untranscribed upload: a question there pays the summary too.
    const fresh = await call(
      user,
      'GET',
      `/api/highlight_moment/task/question_quote?root_task_id=${viral.json().data.id}`,
    );
    expect(fresh.json().data).toMatchObject({
      reuses_transcript: false,
      total: taskCost('search', 150_000),
    });
  });

  it('refuses at start, and at Retry, a caption task the free balance cannot cover', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'captioner');
    // 21 minutes of captions and summary: 63 credits, the free plan has 60.
    const long = await upload(user, 21 * 60_000);
    const refused = await start(user, long, '', true);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().code).toBe('BALANCE_NOT_ENOUGH');
    expect((await call(user, 'GET', '/api/highlight_moment/task/list')).json().data).toEqual([]);
    expect(await credit(user)).toMatchObject({ limit: 600, usage: 0 });

    const failed = await seedFinishedTask(t, user.userId, {
      video: path.join(t.dataDir, 'none.mp4'),
      mediaStored: false,
      title: 'Long',
      durationMs: 21 * 60_000,
      status: 'ERROR',
      words: [{ text: 'hello', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 500, title: 'Hello' },
    });
    await t.services.database.db
      .update(tasks)
      .set({ kind: 'caption' })
      .where(eq(tasks.id, failed.taskId));
    const retry = await call(user, 'POST', `/api/highlight_moment/task/retry?id=${failed.taskId}`);
    expect(retry.statusCode).toBe(402);
    expect(retry.json().code).toBe('BALANCE_NOT_ENOUGH');
    // Too long for the plan: its own code, so the dialog says so.
    const tooLong = await start(user, await upload(user, 61 * 60_000));
    expect(tooLong.json().code).toBe('VIDEO_TOO_LONG');
  });
});
