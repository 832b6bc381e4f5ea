import type { Entitlement, Tier, UserInfo } from '@moments/contract';
import { periodOfPlan, tierOfPlan } from '@moments/domain/plans';

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
