import { ERROR_CODES } from '@moments/contract';
import type { PlanDefinition } from '@moments/domain';
import Stripe from 'stripe';
import { AppError } from '../../http/errors.js';
import type { CheckoutRequest, PaymentProvider, ProviderSubscription } from './payment-provider.js';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Tests point the SDK at a local server, e.g. http://127.0.0.1:4010. */
  apiBase?: string;
}

/** A Stripe client configured from the options (also used to verify webhooks). */
export function createStripeClient(options: StripeProviderOptions): Stripe {
  const base = options.apiBase ? new URL(options.apiBase) : null;
  return new Stripe(options.secretKey, {
    maxNetworkRetries: base ? 0 : 2,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/**
 * Stripe Checkout, the customer portal, invoice previews and subscription updates. Prices are
 * Stripe Price objects found by `lookup_key` = plan name and created from the pricing table the
 * first time, so the table in packages/domain stays the one source of amounts. Subscription state
 * is not changed here: Stripe's signed webhooks report it (see BillingService.handleStripeEvent).
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly webhookDriven = true;
  private readonly priceIds = new Map<string, string>();

  constructor(readonly stripe: Stripe) {}

  private async priceFor(plan: PlanDefinition): Promise<string> {
    const cached = this.priceIds.get(plan.plan);
    if (cached) return cached;
    const found = await this.stripe.prices.list({
      lookup_keys: [plan.plan],
      active: true,
      limit: 1,
    });
    let id = found.data[0]?.id;
    if (!id) {
      const created = await this.stripe.prices.create({
        lookup_key: plan.plan,
        currency: 'usd',
        unit_amount: plan.unitAmount ?? 0,
        recurring: { interval: plan.interval ?? 'month' },
        product_data: { name: `Moments ${plan.plan}` },
        metadata: { plan: plan.plan },
      });
      id = created.id;
    }
    this.priceIds.set(plan.plan, id);
    return id;
  }

  async createCheckout(request: CheckoutRequest) {
    const customer = request.customerId
      ? { customer: request.customerId }
      : { customer_email: request.user.email };
    const common = {
      ...customer,
      client_reference_id: request.user.id,
      success_url: `${request.returnUrl}${request.returnUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: request.cancelUrl,
    };
    const session =
      request.kind === 'subscription'
        ? await this.stripe.checkout.sessions.create({
            ...common,
            mode: 'subscription',
            line_items: [{ price: await this.priceFor(request.plan), quantity: 1 }],
            metadata: {
              userId: request.user.id,
              plan: request.plan.plan,
              referral: request.referral ?? '',
            },
            subscription_data: { metadata: { userId: request.user.id, plan: request.plan.plan } },
          })
        : await this.stripe.checkout.sessions.create({
            ...common,
            mode: 'payment',
            line_items: [
              {
                price_data: {
                  currency: 'usd',
                  unit_amount: request.unitAmount,
                  product_data: { name: `Moments credits (${request.credits / 10})` },
                },
                quantity: request.quantity,
              },
            ],
            metadata: {
              userId: request.user.id,
              price: request.price,
              credits: String(request.credits),
              quantity: String(request.quantity),
            },
          });
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return { sessionId: session.id, url: session.url };
  }

  private async itemOf(current: ProviderSubscription) {
    if (!current.subscriptionId) {
      throw new AppError(ERROR_CODES.NO_SUBSCRIPTION, 409, 'There is no subscription to change.');
    }
    const subscription = await this.stripe.subscriptions.retrieve(current.subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscription.id} has no items`);
    return { subscription, item };
  }

  async previewChange(current: ProviderSubscription, plan: PlanDefinition) {
    const { subscription, item } = await this.itemOf(current);
    const invoice = await this.stripe.invoices.createPreview({
      customer:
        typeof subscription.customer === 'string'
          ? subscription.customer
          : subscription.customer.id,
      subscription: subscription.id,
      subscription_details: {
        items: [{ id: item.id, price: await this.priceFor(plan) }],
        proration_behavior: 'always_invoice',
      },
    });
    return invoice.amount_due;
  }

  async changePlan(current: ProviderSubscription, plan: PlanDefinition) {
    const { subscription, item } = await this.itemOf(current);
    try {
      await this.stripe.subscriptions.update(subscription.id, {
        items: [{ id: item.id, price: await this.priceFor(plan) }],
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
        metadata: { plan: plan.plan },
      });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        throw new AppError(ERROR_CODES.PAYMENT_DECLINED, 402, error.message);
      }
      throw error;
    }
  }

  async setCancelAtPeriodEnd(current: ProviderSubscription, cancel: boolean) {
    if (!current.subscriptionId) return;
    await this.stripe.subscriptions.update(current.subscriptionId, {
      cancel_at_period_end: cancel,
    });
  }

  async portalUrl(current: ProviderSubscription | null, returnUrl: string) {
    if (!current?.customerId) {
      throw new AppError(ERROR_CODES.NO_SUBSCRIPTION, 409, 'There is no billing account yet.');
    }
    const session = await this.stripe.billingPortal.sessions.create({
      customer: current.customerId,
      return_url: returnUrl,
    });
    return session.url;
  }
}
