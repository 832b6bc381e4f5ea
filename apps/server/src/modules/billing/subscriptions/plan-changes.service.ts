import { ERROR_CODES } from '@moments/contract';
import { isUpgradeAllowed } from '@moments/domain';
import { AppError } from '../../../http/errors.js';
import { silentLogger, type Logger } from '../../../logging.js';
import type { BillingRepository, SubscriptionRow } from '../billing.repository.js';
import { eduRequired, purchasablePlan } from '../checkout.service.js';
import { planLabel } from '../plan-label.js';
import type { PaymentProvider, ProviderSubscription } from '../providers/payment-provider.js';
import type { TestModeProvider } from '../providers/test-mode-provider.js';
import type { UserLocks } from '../user-locks.js';
import type { SubscriptionEvents } from './subscription-events.js';

export const toProvider = (
  row: SubscriptionRow,
  user: { id: string; cancelAtPeriodEnd: boolean },
): ProviderSubscription => ({
  userId: user.id,
  plan: row.plan,
  customerId: row.customerId,
  subscriptionId: row.subscriptionId,
  cardLast4: row.cardLast4,
  unitAmount: row.unitAmount,
  cancelAtPeriodEnd: user.cancelAtPeriodEnd,
  currentPeriodStart: row.currentPeriodStart,
  currentPeriodEnd: row.currentPeriodEnd,
});

/**
 * Plan changes from the plan page: preview, resubscribe (upgrade), cancel, stop_cancel.
 * Each runs under the user's lock and asks the provider; what the provider reports back (at once
 * in test mode, by webhook on Stripe) goes through the state machine like any other event.
 */
export class PlanChangesService {
  constructor(
    private readonly repo: BillingRepository,
    private readonly provider: PaymentProvider,
    private readonly locks: UserLocks,
    private readonly events: SubscriptionEvents,
    private readonly log: Logger = silentLogger,
  ) {}

  private async current(userId: string) {
    const user = await this.repo.user(userId);
    if (!user) throw new AppError(ERROR_CODES.UNAUTHORIZED, 401, 'Please log in to continue');
    const subscription = await this.repo.subscription(userId);
    if (!subscription || subscription.status !== 'active') {
      throw new AppError(
        ERROR_CODES.NO_SUBSCRIPTION,
        409,
        'You have no paid subscription. Choose a plan to start one.',
      );
    }
    return { user, subscription, view: toProvider(subscription, user) };
  }

  /** An upgrade, or (with a cancellation pending) staying on the current plan. */
  private async target(userId: string, planName: string) {
    const plan = purchasablePlan(planName);
    const current = await this.current(userId);
    const { user } = current;
    const keepsCurrent = user.cancelAtPeriodEnd && plan.plan === user.currentPlan;
    const alreadyOn = !user.cancelAtPeriodEnd && plan.plan === user.currentPlan;
    if (!keepsCurrent && !alreadyOn && !isUpgradeAllowed(user.currentPlan, plan.plan)) {
      throw new AppError(
        ERROR_CODES.PLAN_NOT_ALLOWED,
        409,
        `You can't change from ${planLabel(user.currentPlan)} to ${planLabel(plan.plan)}. Choose a higher tier; yearly plans can't move to monthly.`,
      );
    }
    if (plan.edu && !user.eduVerified) throw eduRequired();
    return { ...current, plan, keepsCurrent, alreadyOn };
  }

  /** preview_invoice: what the change costs now (prorated), in cents. */
  async previewInvoice(userId: string, planName: string) {
    const { view, plan, keepsCurrent, alreadyOn } = await this.target(userId, planName);
    if (alreadyOn) {
      throw new AppError(
        ERROR_CODES.PLAN_NOT_ALLOWED,
        409,
        `You are on ${planLabel(plan.plan)} already.`,
      );
    }
    if (keepsCurrent) return { amount: 0, currency: 'usd' };
    return { amount: await this.provider.previewChange(view, plan, new Date()), currency: 'usd' };
  }

  /**
   * resubscribe: change the paid plan (after the preview was confirmed). Concurrent calls
   * wait for each other: the first changes the plan, the others find it changed and do nothing.
   */
  async resubscribe(userId: string, planName: string): Promise<void> {
    purchasablePlan(planName);
    await this.locks.with(userId, async () => {
      const { view, plan, keepsCurrent, alreadyOn } = await this.target(userId, planName);
      if (alreadyOn) return;
      if (keepsCurrent) return this.applyCancel(userId, false);
      const events = await this.provider.changePlan(view, plan, new Date());
      await this.events.applyAllLocked(userId, events);
    });
  }

  private async applyCancel(userId: string, cancel: boolean) {
    const { user, view } = await this.current(userId);
    if (user.cancelAtPeriodEnd === cancel) return;
    const events = await this.provider.setCancelAtPeriodEnd(view, cancel, new Date());
    await this.events.applyAllLocked(userId, events);
  }

  /** cancel: the plan stays until the end of the paid period (cancel_at_period_end). */
  cancel(userId: string) {
    return this.locks.with(userId, () => this.applyCancel(userId, true));
  }

  /** stop_cancel: keep the subscription after all. */
  stopCancel(userId: string) {
    return this.locks.with(userId, () => this.applyCancel(userId, false));
  }

  /**
   * Test mode's clock: every subscription whose period ended renews or ends, period by period.
   * Run each minute as the `subscription-renewals` job kind (Stripe renews by webhook).
   */
  async renewDue(now = new Date()): Promise<number> {
    if (this.provider.name !== 'test') return 0;
    const testMode = this.provider as TestModeProvider;
    let changed = 0;
    for (const due of await this.repo.dueSubscriptions(now)) {
      await this.locks.with(due.userId, async () => {
        // A long pause covers several periods: each one renews (or the plan ends) in turn.
        for (let guard = 0; guard < 36; guard++) {
          const user = await this.repo.user(due.userId);
          const row = await this.repo.subscription(due.userId);
          if (!user || !row || row.status !== 'active' || row.currentPeriodEnd > now) return;
          const events = testMode.periodEndEvents(toProvider(row, user), row.scheduledPlan);
          await this.events.applyAllLocked(due.userId, events);
          changed++;
        }
      });
    }
    return changed;
  }
}
