import {
  ContactUsBody,
  ERROR_CODES,
  Invoice,
  SuggestionFeedbackBody,
  TopUpBody,
  envelopeOf,
} from '@moments/contract';
import { CREDIT_PACKS } from '@moments/domain/plans';
import { z } from 'zod';
import { currentUser, requireUser } from '../../../http/auth.js';
import { ok } from '../../../http/envelope.js';
import { IdempotencyHeaders, idempotent } from '../../../http/idempotency.js';
import type { App } from '../../../http/types.js';
import type { BillingRouteContext } from './context.js';

const TopUpPack = TopUpBody.extend({
  price: z.enum(CREDIT_PACKS.map((pack) => pack.price) as [string, ...string[]]),
});

/** Invoices, credit top-ups, the billing portal, the cancel survey and the enterprise form. */
export function registerAccountRoutes(app: App, context: BillingRouteContext) {
  const { checkouts, account } = context.billing;
  const { billingOn, origin, urlsFor, topUpUrls } = context;

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
    async (request) => ok(await account.invoices(currentUser(request).id, origin)),
  );

  app.post(
    '/api/payment',
    {
      preHandler: [requireUser, billingOn, idempotent],
      schema: {
        tags: ['billing'],
        summary: 'Start a checkout for a credit top-up; data is the checkout URL',
        headers: IdempotencyHeaders,
        body: TopUpPack,
        response: { 200: envelopeOf(z.string()) },
      },
    },
    async (request) =>
      ok(
        await checkouts.createCreditCheckout(
          currentUser(request).id,
          request.body.price,
          request.body.quantity,
          topUpUrls(),
        ),
      ),
  );

  app.post(
    '/api/user/portal-session',
    {
      preHandler: requireUser,
      config: { errors: [ERROR_CODES.NO_SUBSCRIPTION] },
      schema: {
        tags: ['billing'],
        summary: 'The billing portal URL (payment method, invoices)',
        response: { 200: envelopeOf(z.object({ url: z.string() })) },
      },
    },
    async (request) =>
      ok({ url: await account.portalUrl(currentUser(request).id, urlsFor().returnUrl) }),
  );

  app.post(
    '/api/user/suggestion_feedback',
    {
      preHandler: requireUser,
      config: { errors: [ERROR_CODES.INVALID_INPUT] },
      schema: {
        tags: ['billing'],
        summary: 'The cancel survey',
        body: SuggestionFeedbackBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await account.cancelFeedback(currentUser(request).id, request.body);
      return ok(null);
    },
  );

  app.post(
    '/api/contact-us',
    {
      config: { errors: [ERROR_CODES.INVALID_INPUT], rateLimit: { max: 5, timeWindow: 60_000 } },
      schema: {
        tags: ['billing'],
        summary: 'Enterprise contact form: stored and mailed to the operator',
        body: ContactUsBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await account.contactUs(request.user?.id ?? null, request.body);
      return ok(null);
    },
  );
}
