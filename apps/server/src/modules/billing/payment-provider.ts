import type { PlanDefinition } from '@moments/domain';

/** What a provider needs to know about the user's current subscription. */
export interface ProviderSubscription {
  plan: string;
  customerId: string | null;
  subscriptionId: string | null;
  cardLast4: string | null;
  unitAmount: number;
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
 * The small seam between billing and whoever takes the money. Two implementations, chosen by
 * configuration: the built-in TEST MODE checkout (default, offline) and Stripe.
 */
export interface PaymentProvider {
  readonly name: 'test' | 'stripe';
  /**
   * true: subscription state arrives through signed webhooks (the source of truth), so billing
   * only asks the provider and waits; false: billing applies the change itself once the call
   * succeeded.
   */
  readonly webhookDriven: boolean;
  createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** What changing to `plan` now costs (prorated), in cents. */
  previewChange(current: ProviderSubscription, plan: PlanDefinition, now: Date): Promise<number>;
  /** Moves the subscription to `plan`; throws PAYMENT_DECLINED when the card is refused. */
  changePlan(current: ProviderSubscription, plan: PlanDefinition): Promise<void>;
  setCancelAtPeriodEnd(current: ProviderSubscription, cancel: boolean): Promise<void>;
  /** The customer portal (payment method, invoices). */
  portalUrl(current: ProviderSubscription | null, returnUrl: string): Promise<string>;
}
