import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@moments/contract';
import { declaring } from '../../../http/contract.js';
import { AppError } from '../../../http/errors.js';
import type { Billing } from '../index.js';

export interface BillingRoutesOptions {
  billing: Billing;
  /** Where checkout returns to and invoices link: PUBLIC_URL, else the listen address. */
  publicUrl: string;
  /** BILLING=off: no plans, no checkout (a team's own instance). */
  off?: boolean;
}

const PLAN_PAGE = '/settings/plan';

/** What every billing route group shares: the off switch and the pages checkout returns to. */
export function billingRouteContext(options: BillingRoutesOptions) {
  const billingOn = declaring([ERROR_CODES.NOT_FOUND], async () => {
    if (options.off) {
      throw new AppError(ERROR_CODES.NOT_FOUND, 404, 'Billing is off on this server.');
    }
  });
  // Never the request's Host header, which anyone can set.
  const origin = options.publicUrl.replace(/\/$/, '');
  /** The plan page, showing the period of the plan being bought (its `type` query). */
  const urlsFor = (plan?: string | null) => {
    const period = plan?.endsWith('_month') ? 'monthly' : plan?.endsWith('_year') ? 'yearly' : '';
    const page = `${origin}${PLAN_PAGE}${period ? `?type=${period}` : ''}`;
    return { returnUrl: page, cancelUrl: page };
  };
  /** The plan page, told that the checkout was a credit top-up (it thanks for credits, not a plan). */
  const topUpUrls = () => {
    const page = `${origin}${PLAN_PAGE}?topup=1`;
    return { returnUrl: page, cancelUrl: `${origin}${PLAN_PAGE}` };
  };
  const withSessionId = (url: string, id: string) =>
    `${url}${url.includes('?') ? '&' : '?'}session_id=${encodeURIComponent(id)}`;
  /** The signed-in user's id, or null after redirecting a page request to the login. */
  const userOrLogin = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.user) return request.user.id;
    void reply.redirect(`/login?redirect=${encodeURIComponent(request.url)}`);
    return null;
  };
  return { ...options, billingOn, origin, urlsFor, topUpUrls, withSessionId, userOrLogin };
}

export type BillingRouteContext = ReturnType<typeof billingRouteContext>;
