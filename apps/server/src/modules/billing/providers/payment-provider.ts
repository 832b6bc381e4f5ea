import type { PlanDefinition } from '@moments/domain';

/** What a provider needs to know about the user's current subscription. */
export interface ProviderSubscription {
  userId: string;
  plan: string;
  customerId: string | null;
  subscriptionId: string | null;
  cardLast4: string | null;
  unitAmount: number;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
}

export type CheckoutRequest = {
  user: { id: string; email: string };
  customerId: string | null;
  /** Where the browser comes back to; the provider appends `session_id`. */
  returnUrl: string;
  cancelUrl: string;
} & (
  | { kind: 'subscription'; plan: PlanDefinition; referral: string | null }
  | { kind: 'credits'; price: string; credits: number; unitAmount: number; quantity: number }
);

/**
 * Stripe-shaped events (`{id, type, created, data: {object}}`) a provider produced now. The TEST
 * MODE provider returns the events Stripe would send; Stripe returns none, its signed webhooks
 * bring them. Either way they go through the same parser and state machine.
 */
export type ProviderEvents = unknown[];

/**
 * The small seam between billing and whoever takes the money. Two implementations, chosen by
 * BILLING: the built-in TEST MODE checkout (`test`) and Stripe (`stripe`).
 */
export interface PaymentProvider {
  readonly name: 'test' | 'stripe';
  createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** What changing to `plan` now costs (prorated), in cents. */
  previewChange(current: ProviderSubscription, plan: PlanDefinition, now: Date): Promise<number>;
  /** Moves the subscription to `plan`; throws PAYMENT_DECLINED when the card is refused. */
  changePlan(
    current: ProviderSubscription,
    plan: PlanDefinition,
    now: Date,
  ): Promise<ProviderEvents>;
  setCancelAtPeriodEnd(
    current: ProviderSubscription,
    cancel: boolean,
    now: Date,
  ): Promise<ProviderEvents>;
  /** Cancels a subscription that must not bill (a second one) and refunds what it charged. */
  cancelAndRefund(subscriptionId: string, now: Date): Promise<ProviderEvents>;
  /** The customer portal (payment method, invoices). */
  portalUrl(current: ProviderSubscription | null, returnUrl: string): Promise<string>;
}
