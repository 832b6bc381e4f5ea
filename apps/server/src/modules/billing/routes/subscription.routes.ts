import {
  CreateSubscriptionBody,
  ERROR_CODES,
  PlanBody,
  PreviewInvoiceReply,
  PricingTable,
  envelopeOf,
} from '@moments/contract';
import { PLANS, isPurchasablePlan } from '@moments/domain/plans';
import { z } from 'zod';
import { currentUser, requireUser } from '../../../http/auth.js';
import { ok } from '../../../http/envelope.js';
import { IdempotencyHeaders, idempotent } from '../../../http/idempotency.js';
import type { App } from '../../../http/types.js';
import type { BillingRouteContext } from './context.js';

/** The plans a request may name, from the one pricing table: a rule of the schema. */
const Purchasable = z.enum(
  PLANS.filter((plan) => isPurchasablePlan(plan.plan)).map((plan) => plan.plan) as [
    string,
    ...string[],
  ],
);
const CreatePurchasable = CreateSubscriptionBody.extend({ plan: Purchasable });
const PlanPurchasable = PlanBody.extend({ plan: Purchasable });

/** Pricing, checkout for a plan, plan changes and cancellation. */
export function registerSubscriptionRoutes(app: App, context: BillingRouteContext) {
  const { checkouts, changes, account } = context.billing;
  const { billingOn, urlsFor } = context;

  app.get(
    '/api/subscription/pricing_table',
    {
      schema: {
        tags: ['billing'],
        summary: 'Every plan with prices and entitlements',
        response: { 200: envelopeOf(PricingTable) },
      },
    },
    async () => ok({ ...account.pricing(), ...(context.off ? { provider: 'off' } : {}) }),
  );

  app.post(
    '/api/subscription/create',
    {
      preHandler: [requireUser, billingOn, idempotent],
      config: { errors: [ERROR_CODES.CONFLICT] },
      schema: {
        tags: ['billing'],
        summary: 'Start a card checkout for a paid plan; data is the checkout URL',
        headers: IdempotencyHeaders,
        body: CreatePurchasable,
        response: { 200: envelopeOf(z.string()) },
      },
    },
    async (request) =>
      ok(
        await checkouts.createSubscriptionCheckout(
          currentUser(request).id,
          request.body.plan,
          request.body.referral,
          urlsFor(request.body.plan),
        ),
      ),
  );

  app.post(
    '/api/subscription/preview_invoice',
    {
      preHandler: requireUser,
      config: { errors: [ERROR_CODES.NO_SUBSCRIPTION, ERROR_CODES.PLAN_NOT_ALLOWED] },
      schema: {
        tags: ['billing'],
        summary: 'What changing to a plan costs now (prorated, cents)',
        body: PlanPurchasable,
        response: { 200: envelopeOf(PreviewInvoiceReply) },
      },
    },
    async (request) => ok(await changes.previewInvoice(currentUser(request).id, request.body.plan)),
  );

  app.post(
    '/api/subscription/resubscribe',
    {
      preHandler: [requireUser, idempotent],
      config: {
        errors: [
          ERROR_CODES.NO_SUBSCRIPTION,
          ERROR_CODES.PLAN_NOT_ALLOWED,
          ERROR_CODES.PAYMENT_DECLINED,
        ],
      },
      schema: {
        tags: ['billing'],
        summary: 'Change the paid plan (under the upgrade rule)',
        headers: IdempotencyHeaders,
        body: PlanPurchasable,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await changes.resubscribe(currentUser(request).id, request.body.plan);
      return ok(null);
    },
  );

  for (const [path, summary, run] of [
    [
      '/api/subscription/cancel',
      'Cancel at the end of the paid period',
      (userId: string) => changes.cancel(userId),
    ],
    [
      '/api/subscription/stop_cancel',
      'Keep the subscription after a cancellation',
      (userId: string) => changes.stopCancel(userId),
    ],
  ] as const) {
    app.post(
      path,
      {
        preHandler: requireUser,
        config: { errors: [ERROR_CODES.NO_SUBSCRIPTION] },
        schema: { tags: ['billing'], summary, response: { 200: envelopeOf(z.null()) } },
      },
      async (request) => {
        await run(currentUser(request).id);
        return ok(null);
      },
    );
  }
}
