import type { Entitlement, Tier, UserInfo } from '@moments/contract';
import { CREDIT_DISPLAY_DIVISOR } from '@moments/contract';

/*
 * Small pure readings of the user's plan that the shell needs (dialog wording, pop-ups, profile).
 * The full plan rules (upgrade rule, pricing) belong to @moments/domain; these only read markers.
 */

/** spec §3: plan names carry tier markers (vip, svip, ssvip, free, edu); longest marker wins. */
export function planTier(plan: string | null | undefined): Tier {
  const name = (plan ?? '').toLowerCase();
  if (name.includes('ssvip')) return 'SSVIP';
  if (name.includes('svip')) return 'SVIP';
  if (name.includes('vip')) return 'VIP';
  return 'FREE';
}

/** spec §3: period markers `month` / `year`. */
export function isYearlyPlan(plan: string | null | undefined): boolean {
  return (plan ?? '').toLowerCase().includes('year');
}

export const TIER_LABELS: Record<Tier, string> = {
  FREE: 'Free',
  VIP: 'Standard',
  SVIP: 'Pro',
  SSVIP: 'Pro plus',
};

/** A readable plan name such as "Pro (yearly)" or "Standard, education (monthly)". */
export function describePlan(plan: string | null | undefined): string {
  const tier = planTier(plan);
  if (tier === 'FREE') return TIER_LABELS.FREE;
  const name = (plan ?? '').toLowerCase();
  const edu = name.includes('edu') ? ', education' : '';
  const period = isYearlyPlan(plan) ? ' (yearly)' : name.includes('month') ? ' (monthly)' : '';
  return `${TIER_LABELS[tier]}${edu}${period}`;
}

/** spec §9: credits are displayed as the amount divided by 10, up to 1 decimal. */
export function formatCredits(amount: number): string {
  const value = Math.round((amount / CREDIT_DISPLAY_DIVISOR) * 10) / 10;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
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
