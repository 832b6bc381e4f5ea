import type { Entitlement, Tier, UserInfo } from '@moments/contract';
import { formatCredits } from '@moments/domain/format';
import {
  canvasExportRemaining,
  isUpgradeAllowed,
  periodOfPlan,
  tierOfPlan,
} from '@moments/domain/plans';

/*
 * Small pure readings of the user's plan that the shell needs (dialog wording, pop-ups, profile).
 * The plan rules themselves (tier and period markers, upgrade rule) belong to @moments/domain/plans.
 */

export const TIER_LABELS: Record<Tier, string> = {
  FREE: 'Free',
  VIP: 'Standard',
  SVIP: 'Pro',
  SSVIP: 'Pro plus',
};

/** A readable plan name such as "Pro (yearly)" or "Standard, education (monthly)". */
export function describePlan(plan: string | null | undefined): string {
  const tier = tierOfPlan(plan);
  if (tier === 'FREE') return TIER_LABELS.FREE;
  const name = (plan ?? '').toLowerCase();
  const edu = name.includes('edu') ? ', education' : '';
  const period = { year: ' (yearly)', month: ' (monthly)', none: '' }[periodOfPlan(plan) ?? 'none'];
  return `${TIER_LABELS[tier]}${edu}${period}`;
}

/** Features whose amounts are credits (displayed divided by 10). */
export const CREDIT_FEATURES: ReadonlySet<string> = new Set(['CREDIT', 'FREE_TOOL_CREDIT']);

export function findEntitlement(
  user: Pick<UserInfo, 'entitlements'> | null | undefined,
  feature: string,
): Entitlement | undefined {
  return user?.entitlements.find((entitlement) => entitlement.feature === feature);
}

/** What is left of an entitlement; `null` means unlimited (spec §3: limit -1). */
export function remainingOf(entitlement: Entitlement): number | null {
  if (entitlement.limit === -1) return null;
  return Math.max(0, entitlement.limit - entitlement.usage);
}

/** spec §2: the community modal has a variant for users with zero CREDIT and zero FREE_TOOL_CREDIT. */
export function hasNoCreditsLeft(user: Pick<UserInfo, 'entitlements'>): boolean {
  return ['CREDIT', 'FREE_TOOL_CREDIT'].every((feature) => {
    const entitlement = findEntitlement(user, feature);
    return entitlement === undefined || remainingOf(entitlement) === 0;
  });
}

/** spec §4 button states of a plan card. */
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

/** spec §4/§9: the payment-return success event is tracked once per session id, last 30 kept. */
export const PAYMENT_SESSION_HISTORY = 30;

export function trackPaymentSession(
  history: readonly string[],
  sessionId: string,
): { history: string[]; isNew: boolean } {
  if (history.includes(sessionId)) return { history: [...history], isNew: false };
  return { history: [...history, sessionId].slice(-PAYMENT_SESSION_HISTORY), isNew: true };
}

/**
 * What the clip editor says before an export (issue 9): the free plan's exports left, so the
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
  if (remaining === -1) return 'Unlimited exports on your plan';
  if (remaining === 0) return 'No exports left on the free plan: upgrade to export this clip';
  return `${remaining} ${remaining === 1 ? 'export' : 'exports'} left on the free plan`;
}

/** What the start form says before a task starts: its cost and the credits left. */
export function creditCostText(
  cost: number | null,
  user: Pick<UserInfo, 'entitlements'> | null | undefined,
): string {
  const credit = findEntitlement(user, 'CREDIT');
  const left = credit ? remainingOf(credit) : undefined;
  const leftText =
    left === undefined
      ? ''
      : left === null
        ? ' · unlimited credits'
        : ` · ${formatCredits(left)} credits left`;
  if (cost === null) return `Credits are charged by video length${leftText}`;
  const shown = formatCredits(cost);
  const enough = left === undefined || left === null || left >= cost;
  return `Costs about ${shown} ${shown === '1' ? 'credit' : 'credits'}${leftText}${
    enough ? '' : ': not enough for this video'
  }`;
}
