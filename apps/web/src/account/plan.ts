import type { Entitlement, UserInfo } from '@moments/contract';
import { formatCredits } from '@moments/domain/format';
import {
  canvasExportRemaining,
  isUpgradeAllowed,
  remainingUnits,
  tierOfPlan,
} from '@moments/domain/plans';
import { t } from '../messages/catalogue';

/*
 * Small pure readings of the user's plan that the shell needs (dialog wording, pop-ups, profile).
 * The plan rules themselves (tier and period markers, upgrade rule) belong to @moments/domain/plans.
 */

// Plan names in the reader's words (the domain's English is for the server's receipts).
export { describePlan, tierLabel } from '../messages/domain';

/** Features whose amounts are credits (displayed divided by 10). */
export const CREDIT_FEATURES: ReadonlySet<string> = new Set(['CREDIT', 'FREE_TOOL_CREDIT']);

export function findEntitlement(
  user: Pick<UserInfo, 'entitlements'> | null | undefined,
  feature: string,
): Entitlement | undefined {
  return user?.entitlements.find((entitlement) => entitlement.feature === feature);
}

/** The community modal has a variant for users with zero CREDIT and zero FREE_TOOL_CREDIT. */
export function hasNoCreditsLeft(user: Pick<UserInfo, 'entitlements'>): boolean {
  return ['CREDIT', 'FREE_TOOL_CREDIT'].every((feature) => {
    const entitlement = findEntitlement(user, feature);
    return entitlement === undefined || remainingUnits(entitlement) === 0;
  });
}

/** The button states of a plan card. */
export type PlanButtonState = 'current' | 'disabled' | 'select' | 'contact';

export function planButtonState(
  subscription: { current_plan: string | null; cancel_at_period_end: boolean } | null | undefined,
  item: { plan: string; type: 'price' | 'enterprise'; unit_amount: number | null },
): PlanButtonState {
  if (item.type === 'enterprise') return 'contact';
  const current = subscription?.current_plan ?? 'free';
  if (item.plan === current) {
    // With a cancellation pending, choosing the current plan again keeps it (stop_cancel).
    return subscription?.cancel_at_period_end && item.plan !== 'free' ? 'select' : 'current';
  }
  if (item.unit_amount === 0) return 'disabled';
  return isUpgradeAllowed(current, item.plan) ? 'select' : 'disabled';
}

/** What choosing a selectable plan does: a checkout for free users, a change for paid ones. */
export function planChangeKind(currentPlan: string | null | undefined): 'checkout' | 'change' {
  return tierOfPlan(currentPlan) === 'FREE' ? 'checkout' : 'change';
}

/** The payment-return success event is tracked once per session id, last 30 kept. */
const PAYMENT_SESSION_HISTORY = 30;

export function trackPaymentSession(
  history: readonly string[],
  sessionId: string,
): { history: string[]; isNew: boolean } {
  if (history.includes(sessionId)) return { history: [...history], isNew: false };
  return { history: [...history, sessionId].slice(-PAYMENT_SESSION_HISTORY), isNew: true };
}

/**
 * What the clip editor says before an export: the free plan's exports left, so the
 * limit is no surprise.
 */
export function exportAllowanceText(
  user: Pick<UserInfo, 'entitlements' | 'subscription'> | null | undefined,
): string | null {
  if (!user) return null;
  const remaining = canvasExportRemaining(
    user.subscription.current_plan,
    findEntitlement(user, 'CANVAS_EXPORT'),
  );
  if (remaining === -1) return t('account.exports.unlimited');
  if (remaining === 0) return t('account.exports.none');
  return t(remaining === 1 ? 'account.exports.left.one' : 'account.exports.left.other', {
    count: remaining,
  });
}

/** What the start form says before a task starts: its cost and the credits left. */
export function creditCostText(
  cost: number | null,
  user: Pick<UserInfo, 'entitlements'> | null | undefined,
): string {
  const credit = findEntitlement(user, 'CREDIT');
  const left = credit ? remainingUnits(credit) : undefined;
  const leftText =
    left === undefined
      ? ''
      : left === null
        ? t('account.credits.unlimitedLeft')
        : t('account.credits.left', { credits: formatCredits(left) });
  if (cost === null) return t('account.credits.byLength', { left: leftText });
  const shown = formatCredits(cost);
  const enough = left === undefined || left === null || left >= cost;
  const costText = t(shown === '1' ? 'account.credits.cost.one' : 'account.credits.cost.other', {
    credits: shown,
    left: leftText,
  });
  return enough ? costText : t('account.credits.notEnough', { cost: costText });
}
