import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@moments/contract';
import { proratedAmount, type PlanDefinition } from '@moments/domain';
import { AppError } from '../../http/errors.js';
import type { CheckoutRequest, PaymentProvider, ProviderSubscription } from './payment-provider.js';
import { FAILS_LATER_LAST4 } from './test-cards.js';

/**
 * The default provider: checkout, portal and invoices are pages this app serves under
 * /billing/test-*, plainly labelled TEST MODE, so every flow works offline with test cards.
 * Nothing is charged; billing applies each change itself.
 */
export class TestModeProvider implements PaymentProvider {
  readonly name = 'test' as const;
  readonly webhookDriven = false;

  async createCheckout(request: CheckoutRequest) {
    const sessionId = `cs_test_${randomBytes(12).toString('hex')}`;
    const origin = new URL(request.returnUrl).origin;
    return { sessionId, url: `${origin}/billing/test-checkout/${sessionId}` };
  }

  async previewChange(current: ProviderSubscription, plan: PlanDefinition, now: Date) {
    return proratedAmount(
      {
        unitAmount: current.unitAmount,
        periodStart: current.currentPeriodStart,
        periodEnd: current.currentPeriodEnd,
      },
      plan.unitAmount ?? 0,
      now,
    );
  }

  async changePlan(current: ProviderSubscription) {
    if (current.cardLast4 === FAILS_LATER_LAST4) {
      throw new AppError(
        ERROR_CODES.PAYMENT_DECLINED,
        402,
        'Your card was declined. Update your payment method and try again.',
      );
    }
  }

  async setCancelAtPeriodEnd() {}

  async portalUrl(_current: ProviderSubscription | null, returnUrl: string) {
    return `${new URL(returnUrl).origin}/billing/test-portal`;
  }
}
