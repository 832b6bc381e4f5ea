import { ERROR_CODES } from '@moments/contract';
import Stripe from 'stripe';
import { z } from 'zod';
import { AppError } from '../../../http/errors.js';
import type { App } from '../../../http/types.js';
import type { BillingRouteContext } from './context.js';

/** How far a signature's timestamp may be from now, either way: Stripe's own default. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The `t=` of a Stripe-Signature header, read as the SDK reads it (the last one counts). */
function signatureTimestamp(header: string): number {
  const stamps = header
    .split(',')
    .map((item) => item.split('='))
    .filter(([key]) => key === 't');
  return Number.parseInt(stamps.at(-1)?.[1] ?? '', 10);
}

/** Signed Stripe events, the source of truth on Stripe (README, "Billing"). */
export function registerStripeWebhook(app: App, context: BillingRouteContext) {
  const { billing } = context;
  // Stripe webhooks: the signature is checked over the raw body, so this scope keeps it raw.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/api/billing/stripe/webhook',
      {
        // NOT_FOUND: Stripe is not configured (TEST MODE has no webhook).
        config: { errors: [ERROR_CODES.INVALID_SIGNATURE, ERROR_CODES.NOT_FOUND] },
        schema: {
          tags: ['billing'],
          summary: 'Signed Stripe events (source of truth)',
          // Stripe's own reply shape, not the envelope: Stripe reads only the status, and shows
          // the body (why an event changed nothing) in its dashboard's delivery log.
          response: {
            200: z.object({
              received: z.boolean(),
              outcome: z.string(),
              reason: z.string().optional(),
            }),
          },
        },
      },
      async (request, reply) => {
        const webhook = billing.stripeWebhook;
        if (!webhook) {
          throw new AppError(ERROR_CODES.NOT_FOUND, 404, 'Stripe is not configured');
        }
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
          throw new AppError(
            ERROR_CODES.INVALID_SIGNATURE,
            400,
            'The webhook signature is missing or does not match.',
          );
        }
        let body: unknown;
        try {
          // Verifies the signature over the raw bytes; throws on a bad one or on bytes that are
          // not JSON (400: Stripe shows it as a failed delivery).
          body = webhook.stripe.webhooks.constructEvent(
            request.body,
            signature,
            webhook.secret,
            SIGNATURE_TOLERANCE_SECONDS,
          );
        } catch (error) {
          const badSignature = error instanceof Stripe.errors.StripeSignatureVerificationError;
          throw new AppError(
            badSignature ? ERROR_CODES.INVALID_SIGNATURE : ERROR_CODES.BAD_REQUEST,
            400,
            badSignature
              ? 'The webhook signature is missing or does not match.'
              : 'The webhook body is not JSON.',
          );
        }
        // The SDK refuses only signatures older than the tolerance; one dated ahead would stay
        // replayable for as long as it is ahead, so the same window applies the other way.
        const signedAt = signatureTimestamp(signature);
        if (signedAt - Math.floor(Date.now() / 1000) > SIGNATURE_TOLERANCE_SECONDS) {
          request.log.warn({ signedAt }, 'Stripe webhook signed in the future, refused');
          throw new AppError(
            ERROR_CODES.INVALID_SIGNATURE,
            400,
            'The webhook signature is dated more than 5 minutes from now.',
          );
        }
        // A signed event that cannot be used changes nothing and is answered 2xx (logged), so
        // Stripe stops retrying it.
        const { outcome, reason } = await billing.events.handle(body);
        return reply.send({ received: true, outcome, ...(reason ? { reason } : {}) });
      },
    );
  });
}
