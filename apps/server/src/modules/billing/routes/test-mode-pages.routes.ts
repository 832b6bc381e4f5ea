import { parse as parseQuery } from 'node:querystring';
import { ERROR_CODES } from '@moments/contract';
import { z } from 'zod';
import { AppError } from '../../../http/errors.js';
import type { App } from '../../../http/types.js';
import {
  checkoutPage,
  closedCheckoutPage,
  invoicePage,
  portalPage,
} from '../providers/test-mode-pages.js';
import type { BillingRouteContext } from './context.js';

/** The TEST MODE card form: one value per field, short, or the request is refused with 400. */
const CardForm = z
  .object({
    number: z.string().max(40).optional(),
    expiry: z.string().max(20).optional(),
    cvc: z.string().max(10).optional(),
    name: z.string().max(200).optional(),
  })
  .strict();

/** The TEST MODE provider's own pages: checkout, invoice and portal. */
export function registerTestModePages(app: App, context: BillingRouteContext) {
  const { checkouts, account } = context.billing;
  const { urlsFor, topUpUrls, withSessionId, userOrLogin } = context;
  const urlsOf = (session: { kind: string; plan: string | null }) =>
    session.kind === 'subscription' ? urlsFor(session.plan) : topUpUrls();

  // Forms post urlencoded bodies, parsed only in this scope.
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
        const { session, email, description } = await checkouts.testCheckout(
          userId,
          (request.params as { id: string }).id,
        );
        const urls = urlsOf(session);
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
        // Repeated fields arrive as arrays, unknown ones as extra keys: both are a 400, not a 500.
        const parsedForm = CardForm.safeParse(request.body ?? {});
        if (!parsedForm.success) {
          throw new AppError(
            ERROR_CODES.VALIDATION_FAILED,
            400,
            'The card form has a repeated, unknown or oversized field.',
          );
        }
        const form = parsedForm.data;
        const card = { number: form.number, expiry: form.expiry, cvc: form.cvc };
        const result = await checkouts.payTestCheckout(userId, id, card);
        const { session, email, description } = await checkouts.testCheckout(userId, id);
        const urls = urlsOf(session);
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
      const { row, user } = await account.invoice(userId, (request.params as { id: string }).id);
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
      const { user, subscription } = await account.subscriptionSummary(userId);
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
}
