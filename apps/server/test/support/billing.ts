import Stripe from 'stripe';
import type { App } from '../../src/http/types.js';

/* What the billing tests read back and send, in one place. */

type Signed = { headers: Record<string, string> };

export interface Entitlement {
  feature: string;
  limit: number;
  usage: number;
}
export interface UserInfoData {
  subscription: { current_plan: string; cancel_at_period_end: boolean };
  entitlements: Entitlement[];
}

/** GET /api/user/info for a signed-in user. */
export async function userInfo(app: App, user: Signed): Promise<UserInfoData> {
  return (await app.inject({ method: 'GET', url: '/api/user/info', headers: user.headers })).json()
    .data;
}

/** One feature's entitlement (CREDIT, CANVAS_EXPORT, …) from user info. */
export function entitlementOf(data: { entitlements: Entitlement[] }, feature: string) {
  const found = data.entitlements.find((e) => e.feature === feature);
  if (!found) throw new Error(`no ${feature} entitlement in ${JSON.stringify(data)}`);
  return found;
}

/**
 * The user's credit ledger from the credit history API: CREDIT balance by bucket and every
 * CREDIT movement of the plan and purchased buckets, oldest first, as `kind bucket amount [action]`.
 */
export async function creditLedger(app: App, user: Signed) {
  const data = (
    await app.inject({ method: 'GET', url: '/api/credit/history?page_size=100', ...user })
  ).json().data as {
    balances: Array<{ feature: string; bucket: string; balance: number }>;
    movements: Array<{
      kind: string;
      feature: string;
      bucket: string;
      amount: number;
      action: string | null;
    }>;
  };
  const credit = (bucket: string) =>
    data.balances.find((b) => b.feature === 'CREDIT' && b.bucket === bucket)?.balance ?? 0;
  return {
    plan: credit('plan'),
    purchased: credit('purchased'),
    moves: data.movements
      .filter((m) => m.feature === 'CREDIT' && m.bucket !== 'reward')
      .map((m) => `${m.kind} ${m.bucket} ${m.amount}${m.action ? ` ${m.action}` : ''}`)
      .reverse(),
  };
}

/** A Stripe event body as Stripe sends it. */
export function stripeEventBody(
  type: string,
  object: Record<string, unknown>,
  id: string,
  created = 1,
) {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2025-02-24.acacia',
    created,
    data: { object },
  });
}

/**
 * The Stripe-Signature header Stripe would send for `payload` with the endpoint's secret, signed
 * now or at `timestamp` (unix seconds).
 */
export function stripeSignature(payload: string, secret: string, timestamp?: number) {
  return new Stripe('sk_test_unused').webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}
