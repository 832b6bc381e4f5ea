import { parse as parseQuery } from 'node:querystring';
import {
  ContactUsBody,
  CreateSubscriptionBody,
  ERROR_CODES,
  Invoice,
  PlanBody,
  PreviewInvoiceReply,
  PricingTable,
  SuggestionFeedbackBody,
  TopUpBody,
  envelopeOf,
} from '@moments/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { App } from '../../http/types.js';
import type { BillingService } from './billing.service.js';
import { checkoutPage, closedCheckoutPage, invoicePage, portalPage } from './test-mode-pages.js';

export interface BillingRoutesOptions {
  billing: BillingService;
  /** PUBLIC_URL when set: where checkout returns to; else the request's own origin. */
  publicUrl?: string;
  /** Verifies Stripe webhook signatures; absent in test mode (the webhook route answers 404). */
  stripeWebhook?: { stripe: Stripe; secret: string };
}

const PLAN_PAGE = '/settings/plan';

export function registerBillingRoutes(app: App, options: BillingRoutesOptions) {
  const { billing } = options;
  const originOf = (request: FastifyRequest) =>
    options.publicUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
  /** The plan page, showing the period of the plan being bought (spec §4 `type` query). */
  const urlsFor = (request: FastifyRequest, plan?: string | null) => {
    const period = plan?.endsWith('_month') ? 'monthly' : plan?.endsWith('_year') ? 'yearly' : '';
    const page = `${originOf(request)}${PLAN_PAGE}${period ? `?type=${period}` : ''}`;
    return { returnUrl: page, cancelUrl: page };
  };
  const withSessionId = (url: string, id: string) =>
    `${url}${url.includes('?') ? '&' : '?'}session_id=${encodeURIComponent(id)}`;
  const userOrLogin = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.user) return request.user.id;
    void reply.redirect(`/login?redirect=${encodeURIComponent(request.url)}`);
    return null;
  };

  app.get(
    '/api/subscription/pricing_table',
    {
      schema: {
        tags: ['billing'],
        summary: 'Every plan with prices and entitlements (spec §3 Pricing item)',
        response: { 200: envelopeOf(PricingTable) },
      },
    },
    async () => ok(billing.pricing()),
  );

  app.post(
    '/api/subscription/create',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'Start a card checkout for a paid plan; data is the checkout URL',
        body: CreateSubscriptionBody,
        response: { 200: envelopeOf(z.string()) },
      },
    },
    async (request) =>
      ok(
        await billing.createSubscriptionCheckout(
          currentUser(request).id,
          request.body.plan,
          request.body.referral,
          urlsFor(request, request.body.plan),
        ),
      ),
  );

  app.post(
    '/api/subscription/preview_invoice',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'What changing to a plan costs now (prorated, cents)',
        body: PlanBody,
        response: { 200: envelopeOf(PreviewInvoiceReply) },
      },
    },
    async (request) => ok(await billing.previewInvoice(currentUser(request).id, request.body.plan)),
  );

  app.post(
    '/api/subscription/resubscribe',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'Change the paid plan (upgrade rule of spec §4)',
        body: PlanBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await billing.resubscribe(currentUser(request).id, request.body.plan);
      return ok(null);
    },
  );

  for (const [path, summary, run] of [
    [
      '/api/subscription/cancel',
      'Cancel at the end of the paid period',
      (userId: string) => billing.cancel(userId),
    ],
    [
      '/api/subscription/stop_cancel',
      'Keep the subscription after a cancellation',
      (userId: string) => billing.stopCancel(userId),
    ],
  ] as const) {
    app.post(
      path,
      {
        preHandler: requireUser,
        schema: { tags: ['billing'], summary, response: { 200: envelopeOf(z.null()) } },
      },
      async (request) => {
        await run(currentUser(request).id);
        return ok(null);
      },
    );
  }

  app.get(
    '/api/payment/invoice',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'Invoices of the signed-in user, newest first',
        response: { 200: envelopeOf(z.array(Invoice)) },
      },
    },
    async (request) => ok(await billing.invoices(currentUser(request).id, originOf(request))),
  );

  app.post(
    '/api/payment',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'Start a checkout for a credit top-up; data is the checkout URL',
        body: TopUpBody,
        response: { 200: envelopeOf(z.string()) },
      },
    },
    async (request) =>
      ok(
        await billing.createCreditCheckout(
          currentUser(request).id,
          request.body.price,
          request.body.quantity,
          urlsFor(request),
        ),
      ),
  );

  app.post(
    '/api/user/portal-session',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'The billing portal URL (payment method, invoices)',
        response: { 200: envelopeOf(z.object({ url: z.string() })) },
      },
    },
    async (request) =>
      ok({ url: await billing.portalUrl(currentUser(request).id, urlsFor(request).returnUrl) }),
  );

  app.post(
    '/api/user/suggestion_feedback',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'The cancel survey (spec §5 rules)',
        body: SuggestionFeedbackBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await billing.cancelFeedback(currentUser(request).id, request.body);
      return ok(null);
    },
  );

  app.post(
    '/api/contact-us',
    {
      config: { rateLimit: { max: 5, timeWindow: 60_000 } },
      schema: {
        tags: ['billing'],
        summary: 'Enterprise contact form: stored and mailed to the operator',
        body: ContactUsBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await billing.contactUs(request.user?.id ?? null, request.body);
      return ok(null);
    },
  );

  // The TEST MODE provider's pages. Forms post urlencoded bodies, parsed only in this scope.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, parseQuery(body as string)),
    );
    const SessionParams = z.object({ id: z.string().regex(/^[\w-]{1,80}$/) });

    scope.get(
      '/billing/test-checkout/:id',
      { schema: { hide: true, params: SessionParams } },
      async (request, reply) => {
        const userId = userOrLogin(request, reply);
        if (!userId) return reply;
        const { session, email, description } = await billing.testCheckout(
          userId,
          (request.params as { id: string }).id,
        );
        const urls = urlsFor(request, session.plan);
        reply.type('text/html; charset=utf-8');
        if (session.status !== 'open') return closedCheckoutPage(urls.returnUrl);
        return checkoutPage({
          sessionId: session.id,
          description,
          amount: session.amount,
          email,
          cancelUrl: urls.cancelUrl,
        });
      },
    );

    scope.post(
      '/billing/test-checkout/:id',
      { schema: { hide: true, params: SessionParams } },
      async (request, reply) => {
        const userId = userOrLogin(request, reply);
        if (!userId) return reply;
        const id = (request.params as { id: string }).id;
        const form = (request.body ?? {}) as Record<string, string | undefined>;
        const card = { number: form.number, expiry: form.expiry, cvc: form.cvc };
        const result = await billing.payTestCheckout(userId, id, card);
        const { session, email, description } = await billing.testCheckout(userId, id);
        const urls = urlsFor(request, session.plan);
        if (result.ok) return reply.redirect(withSessionId(urls.returnUrl, id), 303);
        reply.status(402).type('text/html; charset=utf-8');
        return checkoutPage({
          sessionId: session.id,
          description,
          amount: session.amount,
          email,
          cancelUrl: urls.cancelUrl,
          error: result.message,
          values: { ...card, name: form.name },
        });
      },
    );

    scope.get('/billing/invoice/:id', { schema: { hide: true } }, async (request, reply) => {
      const userId = userOrLogin(request, reply);
      if (!userId) return reply;
      const { row, user } = await billing.invoice(userId, (request.params as { id: string }).id);
      reply.type('text/html; charset=utf-8');
      return invoicePage({
        id: row.providerInvoiceId ?? row.id,
        date: row.createdAt,
        email: user.email,
        description: row.description,
        amount: row.amount,
        paymentMethod: row.paymentMethod,
      });
    });

    scope.get('/billing/test-portal', { schema: { hide: true } }, async (request, reply) => {
      const userId = userOrLogin(request, reply);
      if (!userId) return reply;
      const { user, subscription } = await billing.subscriptionSummary(userId);
      reply.type('text/html; charset=utf-8');
      return portalPage({
        email: user.email,
        plan: user.currentPlan,
        card: subscription?.cardLast4 ? `Card ending in ${subscription.cardLast4}` : null,
        renews: subscription?.currentPeriodEnd ?? null,
        cancelAtPeriodEnd: user.cancelAtPeriodEnd,
      });
    });
  });

  // Stripe webhooks: the signature is checked over the raw body, so this scope keeps it raw.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/api/billing/stripe/webhook',
      { schema: { tags: ['billing'], summary: 'Signed Stripe events (source of truth)' } },
      async (request, reply) => {
        const webhook = options.stripeWebhook;
        if (!webhook) {
          throw new AppError(ERROR_CODES.NOT_FOUND, 404, 'Stripe is not configured');
        }
        const signature = request.headers['stripe-signature'];
        let event: Stripe.Event;
        try {
          if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
            throw new Error('missing signature');
          }
          event = webhook.stripe.webhooks.constructEvent(request.body, signature, webhook.secret);
        } catch {
          throw new AppError(
            ERROR_CODES.INVALID_SIGNATURE,
            400,
            'The webhook signature is missing or does not match.',
          );
        }
        const outcome = await billing.handleStripeEvent(event);
        return reply.send({ received: true, outcome });
      },
    );
  });
}
