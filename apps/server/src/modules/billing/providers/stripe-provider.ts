import { ERROR_CODES } from '@moments/contract';
import type { PlanDefinition } from '@moments/domain';
import Stripe from 'stripe';
import { AppError } from '../../../http/errors.js';
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
 * is not changed here: Stripe's signed webhooks report it (SubscriptionEvents, the same state
 * machine the TEST MODE provider feeds). The yearly intro offer is billed as Stripe bills offers:
 * the Price is the regular yearly amount (83.88) and the first invoice carries a once-only coupon
 * for the difference, so Stripe renews at the regular price, as test mode does.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
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
        unit_amount: plan.renewalAmount ?? plan.unitAmount ?? 0,
        recurring: { interval: plan.interval ?? 'month' },
        product_data: { name: `Moments ${plan.plan}` },
        metadata: { plan: plan.plan },
      });
      id = created.id;
    }
    this.priceIds.set(plan.plan, id);
    return id;
  }

  /** The once-only coupon that makes the first year cost the intro price; null without an offer. */
  private async introCoupon(plan: PlanDefinition): Promise<string | null> {
    if (!plan.renewalAmount || plan.unitAmount === null) return null;
    const id = `moments_${plan.plan}_intro`;
    try {
      return (await this.stripe.coupons.retrieve(id)).id;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
    const created = await this.stripe.coupons.create({
      id,
      amount_off: plan.renewalAmount - plan.unitAmount,
      currency: 'usd',
      duration: 'once',
      name: `${plan.plan} first-year offer`,
    });
    return created.id;
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
            ...(await this.introCoupon(request.plan).then((coupon) =>
              coupon ? { discounts: [{ coupon }] } : {},
            )),
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

  async changePlan(current: ProviderSubscription, plan: PlanDefinition): Promise<unknown[]> {
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
    return [];
  }

  async setCancelAtPeriodEnd(current: ProviderSubscription, cancel: boolean) {
    if (!current.subscriptionId) return [];
    await this.stripe.subscriptions.update(current.subscriptionId, {
      cancel_at_period_end: cancel,
    });
    return [];
  }

  /** A second paid subscription: cancelled now, and each of its paid invoices refunded. */
  async cancelAndRefund(subscriptionId: string) {
    // Stripe's cancel does not prorate unless asked (`prorate` defaults to false); the paid
    // invoices are refunded whole below.
    await this.stripe.subscriptions.cancel(subscriptionId);
    const invoices = await this.stripe.invoices.list({ subscription: subscriptionId, limit: 10 });
    for (const invoice of invoices.data.filter((one) => one.status === 'paid')) {
      const charge = typeof invoice.charge === 'string' ? invoice.charge : invoice.charge?.id;
      if (charge && invoice.amount_paid > 0) await this.stripe.refunds.create({ charge });
    }
    return [];
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
