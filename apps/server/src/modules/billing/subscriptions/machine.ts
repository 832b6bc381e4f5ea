import type { PlanChangeAction } from '@moments/contract';
import { findPlan, isPurchasablePlan, isUpgradeAllowed } from '@moments/domain';

/*
 * The subscription state machine: `(state, event, context) -> (state, intents)`, pure.
 * Both payment providers feed it Stripe-shaped events (the TEST MODE checkout emits the same
 * events Stripe would), so the rules live here once and the providers differ only at the edge.
 * The handler persists the new state and carries out the intents in one transaction; the ledger
 * keys of the intents make a second delivery a no-op even if the state check were bypassed.
 *
 * Rules:
 * - Subscription events name a subscription: an event for another subscription than the current
 *   one never changes the current plan. A second paid subscription while one is active is
 *   cancelled and refunded (intent `cancel-subscription`), never left billing.
 * - Order: an event older (`at`) than the last applied one is stale; an ended subscription stays
 *   ended (a late `updated` after `deleted` changes nothing).
 * - Checkout sessions grant only when paid: `payment_status: unpaid` waits for
 *   `async_payment_succeeded`; `async_payment_failed` grants nothing. A session grants once,
 *   whatever event id carries it.
 * - Education plans need a verified education account.
 * - Plan changes follow the upgrade rule: an upgrade takes effect now with the new plan's
 *   grant; anything else (a downgrade or a yearly-to-monthly switch from the portal) is scheduled
 *   for the end of the period and grants nothing until that renewal.
 */

type SubscriptionStatus = 'none' | 'active' | 'ended';
export type CheckoutStatus = 'open' | 'pending' | 'paid' | 'failed';

export interface SubscriptionState {
  /** The plan the user has now; `free` without a paid plan. */
  plan: string;
  status: SubscriptionStatus;
  subscriptionId: string | null;
  customerId: string | null;
  cancelAtPeriodEnd: boolean;
  /** The current paid period, unix seconds (0 without one). */
  periodStart: number;
  periodEnd: number;
  /** A downgrade or period switch that starts with the next period. */
  scheduledPlan: string | null;
  /** `at` of the last subscription event applied. */
  lastEventAt: number;
  /** Whether the user ever had a paid plan (the referral reward is paid on the first). */
  everPaid: boolean;
  /** The checkout sessions this event concerns, by id (the handler loads only those). */
  checkouts: Readonly<Record<string, CheckoutStatus>>;
}

export const INITIAL_STATE: SubscriptionState = {
  plan: 'free',
  status: 'none',
  subscriptionId: null,
  customerId: null,
  cancelAtPeriodEnd: false,
  periodStart: 0,
  periodEnd: 0,
  scheduledPlan: null,
  lastEventAt: 0,
  everPaid: false,
  checkouts: {},
};

/** A subscription as the provider reports it. */
interface ProviderSubscriptionView {
  id: string;
  /** Stripe's statuses: incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid. */
  status: string;
  plan: string;
  customerId: string | null;
  cancelAtPeriodEnd: boolean;
  periodStart: number;
  periodEnd: number;
}

interface CheckoutView {
  sessionId: string;
  mode: 'subscription' | 'payment';
  /** Stripe's payment_status: paid, unpaid, no_payment_required. */
  paymentStatus: string;
  /** Credit units a top-up buys (payment mode). */
  credits: number;
}

export type SubscriptionEvent =
  | { type: 'checkout.completed'; at: number; checkout: CheckoutView }
  | { type: 'checkout.async_payment_succeeded'; at: number; checkout: CheckoutView }
  | { type: 'checkout.async_payment_failed'; at: number; checkout: CheckoutView }
  | { type: 'subscription.created'; at: number; subscription: ProviderSubscriptionView }
  | { type: 'subscription.updated'; at: number; subscription: ProviderSubscriptionView }
  | { type: 'subscription.deleted'; at: number; subscription: ProviderSubscriptionView }
  | {
      type: 'invoice.paid';
      at: number;
      subscriptionId: string | null;
      /** Stripe's billing_reason: subscription_create, subscription_cycle, subscription_update, manual. */
      billingReason: string;
      periodStart: number;
      periodEnd: number;
    };

export interface MachineContext {
  eduVerified: boolean;
}

type LedgerIntent =
  /** A new period of `plan` (the plan bucket resets to its grant). */
  | { type: 'grant-plan'; plan: string; action: PlanChangeAction; key: string }
  /** Purchased credits from a paid checkout session. */
  | { type: 'grant-purchase'; credits: number; key: string; sessionId: string };

export type Intent =
  | LedgerIntent
  | { type: 'record-change'; action: PlanChangeAction; from: string; to: string; key: string }
  /** A subscription that must not bill: cancelled now, its payment refunded. */
  | { type: 'cancel-subscription'; subscriptionId: string; reason: string }
  | { type: 'first-paid-plan' };

export interface Transition {
  state: SubscriptionState;
  intents: Intent[];
  /** Why the event changed nothing (logged, answered 2xx so the provider stops retrying). */
  rejected?: string;
}

const PAYING = new Set(['active', 'trialing', 'past_due']);
const ENDED = new Set(['canceled', 'incomplete_expired', 'unpaid']);

const unchanged = (state: SubscriptionState, rejected?: string, intents: Intent[] = []) => ({
  state,
  intents,
  ...(rejected ? { rejected } : {}),
});

/** The one transition function. */
export function transition(
  state: SubscriptionState,
  event: SubscriptionEvent,
  context: MachineContext,
): Transition {
  switch (event.type) {
    case 'checkout.completed':
    case 'checkout.async_payment_succeeded':
    case 'checkout.async_payment_failed':
      return checkoutEvent(state, event);
    case 'invoice.paid':
      return invoicePaid(state, event);
    default:
      return subscriptionEvent(state, event, context);
  }
}

function checkoutEvent(
  state: SubscriptionState,
  event: Extract<SubscriptionEvent, { checkout: CheckoutView }>,
): Transition {
  const { checkout } = event;
  const current = state.checkouts[checkout.sessionId] ?? 'open';
  if (current === 'paid' || current === 'failed') {
    return unchanged(state, `checkout ${checkout.sessionId} was already ${current}`);
  }
  const withStatus = (status: CheckoutStatus) => ({
    ...state,
    checkouts: { ...state.checkouts, [checkout.sessionId]: status },
  });
  if (event.type === 'checkout.async_payment_failed') {
    return { state: withStatus('failed'), intents: [] };
  }
  const paid =
    event.type === 'checkout.async_payment_succeeded' ||
    checkout.paymentStatus === 'paid' ||
    checkout.paymentStatus === 'no_payment_required';
  if (!paid) return { state: withStatus('pending'), intents: [] };
  const intents: Intent[] = [];
  if (checkout.mode === 'payment') {
    if (!Number.isInteger(checkout.credits) || checkout.credits <= 0) {
      return unchanged(state, `checkout ${checkout.sessionId} names no credits`);
    }
    intents.push({
      type: 'grant-purchase',
      credits: checkout.credits,
      key: `checkout:${checkout.sessionId}`,
      sessionId: checkout.sessionId,
    });
    intents.push({
      type: 'record-change',
      action: 'CREDIT',
      from: state.plan,
      to: state.plan,
      key: `checkout:${checkout.sessionId}:CREDIT`,
    });
  }
  // A subscription checkout grants through its subscription's events (the plan starts when the
  // subscription is active), so a paid session alone only records that it was paid.
  return { state: withStatus('paid'), intents };
}

function invoicePaid(
  state: SubscriptionState,
  event: Extract<SubscriptionEvent, { type: 'invoice.paid' }>,
): Transition {
  if (event.billingReason !== 'subscription_cycle') return unchanged(state);
  if (state.status !== 'active' || event.subscriptionId !== state.subscriptionId) {
    return unchanged(state, `renewal invoice for ${event.subscriptionId ?? 'no subscription'}`);
  }
  return renew(state, event.periodStart, event.periodEnd, event.at);
}

/** A new period of the current subscription: the scheduled plan (if any) starts with it. */
function renew(state: SubscriptionState, start: number, end: number, at: number): Transition {
  if (start <= state.periodStart) return unchanged(state, 'period already granted');
  const plan = state.scheduledPlan ?? state.plan;
  const key = `period:${state.subscriptionId}:${start}`;
  const intents: Intent[] = [
    { type: 'grant-plan', plan, action: 'Recharge', key },
    { type: 'record-change', action: 'Recharge', from: state.plan, to: plan, key },
  ];
  return {
    state: {
      ...state,
      plan,
      scheduledPlan: null,
      periodStart: start,
      periodEnd: Math.max(end, start),
      lastEventAt: Math.max(state.lastEventAt, at),
    },
    intents,
  };
}

function subscriptionEvent(
  state: SubscriptionState,
  event: Extract<SubscriptionEvent, { subscription: ProviderSubscriptionView }>,
  context: MachineContext,
): Transition {
  const sub = event.subscription;
  if (sub.id !== state.subscriptionId) return otherSubscription(state, event, context);
  if (state.status === 'ended') return unchanged(state, `subscription ${sub.id} has ended`);
  if (event.at < state.lastEventAt) return unchanged(state, `stale event for ${sub.id}`);
  if (event.type === 'subscription.deleted' || ENDED.has(sub.status)) {
    return end(state, sub.id, event.at);
  }
  if (!PAYING.has(sub.status)) return unchanged(state, `subscription ${sub.id} is ${sub.status}`);
  let next: SubscriptionState = { ...state, lastEventAt: event.at, customerId: sub.customerId };
  const intents: Intent[] = [];
  if (state.status === 'none') {
    return start(state, sub, event.at, context);
  }
  const newPeriod = sub.periodStart > state.periodStart;
  if (sub.plan !== next.plan && !(sub.plan === next.scheduledPlan && newPeriod)) {
    // An upgrade now (its own new period included), or a change scheduled for the period end.
    const change = planChange(next, sub, context);
    if (change.rejected) return unchanged(state, change.rejected);
    next = change.state;
    intents.push(...change.intents);
  } else {
    if (sub.plan === next.plan && next.scheduledPlan) next = { ...next, scheduledPlan: null };
    if (newPeriod) {
      // The renewal (the scheduled plan, if any, starts with it).
      const renewed = renew(next, sub.periodStart, sub.periodEnd, event.at);
      next = renewed.state;
      intents.push(...renewed.intents);
    }
  }
  if (sub.cancelAtPeriodEnd !== next.cancelAtPeriodEnd) {
    const action = sub.cancelAtPeriodEnd ? 'UNSUBSCRIBE' : 'RESUBSCRIBE';
    intents.push({
      type: 'record-change',
      action,
      from: next.plan,
      to: next.plan,
      key: `${action}:${sub.id}:${event.at}`,
    });
    next = { ...next, cancelAtPeriodEnd: sub.cancelAtPeriodEnd };
  }
  return { state: next, intents };
}

/** The first paid plan, or a new subscription after the previous one ended. */
function start(
  state: SubscriptionState,
  sub: ProviderSubscriptionView,
  at: number,
  context: MachineContext,
): Transition {
  const problem = planProblem(sub.plan, context);
  if (problem) {
    return unchanged(state, problem, [
      { type: 'cancel-subscription', subscriptionId: sub.id, reason: problem },
    ]);
  }
  const key = `subscription:${sub.id}:CREATE`;
  const intents: Intent[] = [
    { type: 'grant-plan', plan: sub.plan, action: 'CREATE', key },
    { type: 'record-change', action: 'CREATE', from: state.plan, to: sub.plan, key },
  ];
  if (!state.everPaid) intents.push({ type: 'first-paid-plan' });
  return {
    state: {
      ...state,
      plan: sub.plan,
      status: 'active',
      subscriptionId: sub.id,
      customerId: sub.customerId,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      periodStart: sub.periodStart,
      periodEnd: sub.periodEnd,
      scheduledPlan: null,
      lastEventAt: at,
      everPaid: true,
    },
    intents,
  };
}

function otherSubscription(
  state: SubscriptionState,
  event: Extract<SubscriptionEvent, { subscription: ProviderSubscriptionView }>,
  context: MachineContext,
): Transition {
  const sub = event.subscription;
  const paying = event.type !== 'subscription.deleted' && PAYING.has(sub.status);
  if (state.status === 'active') {
    if (!paying)
      return unchanged(state, `event for another subscription ${sub.id} (${sub.status})`);
    const reason = `a second paid subscription ${sub.id} while ${state.subscriptionId} is active`;
    return unchanged(state, reason, [
      { type: 'cancel-subscription', subscriptionId: sub.id, reason },
    ]);
  }
  if (event.at < state.lastEventAt) return unchanged(state, `stale event for ${sub.id}`);
  if (event.type === 'subscription.deleted' || ENDED.has(sub.status)) {
    // The user's own ended subscription stays the one remembered: forgetting it for this one
    // would let a late or replayed `created` of the ended one start it again.
    if (state.status === 'ended')
      return unchanged(state, `event for another subscription ${sub.id} (${sub.status})`);
    // Deleted before its creation reached us: it stays ended whatever arrives for it later.
    return {
      state: { ...state, subscriptionId: sub.id, status: 'ended', lastEventAt: event.at },
      intents: [],
      rejected: `subscription ${sub.id} ended before it started here`,
    };
  }
  if (!paying) return unchanged(state, `subscription ${sub.id} is ${sub.status}`);
  return start(state, sub, event.at, context);
}

function planChange(
  state: SubscriptionState,
  sub: ProviderSubscriptionView,
  context: MachineContext,
): Transition {
  const problem = planProblem(sub.plan, context);
  if (problem) return unchanged(state, problem);
  if (!isUpgradeAllowed(state.plan, sub.plan)) {
    // A downgrade or a yearly-to-monthly switch: the current plan stays until the period ends.
    return { state: { ...state, scheduledPlan: sub.plan }, intents: [] };
  }
  const key = `subscription:${sub.id}:UPGRADE:${sub.plan}:${sub.periodStart}`;
  return {
    state: {
      ...state,
      plan: sub.plan,
      scheduledPlan: null,
      periodStart: Math.max(state.periodStart, sub.periodStart),
      periodEnd: Math.max(state.periodEnd, sub.periodEnd),
    },
    intents: [
      { type: 'grant-plan', plan: sub.plan, action: 'UPGRADE', key },
      { type: 'record-change', action: 'UPGRADE', from: state.plan, to: sub.plan, key },
    ],
  };
}

function end(state: SubscriptionState, subscriptionId: string, at: number): Transition {
  const key = `subscription:${subscriptionId}:END`;
  return {
    state: {
      ...state,
      plan: 'free',
      status: 'ended',
      cancelAtPeriodEnd: false,
      scheduledPlan: null,
      lastEventAt: Math.max(state.lastEventAt, at),
    },
    intents: [
      { type: 'grant-plan', plan: 'free', action: 'UNSUBSCRIBE', key },
      { type: 'record-change', action: 'UNSUBSCRIBE', from: state.plan, to: 'free', key },
    ],
  };
}

function planProblem(plan: string, context: MachineContext): string | null {
  if (!isPurchasablePlan(plan)) return `unknown plan "${plan.slice(0, 40)}"`;
  if (findPlan(plan)?.edu && !context.eduVerified) {
    return `education plan ${plan} for a user without a verified education account`;
  }
  return null;
}
