import type { Entitlement, Feature, Tier } from '@moments/contract';
import { TIERS } from '@moments/contract';
import { entitlementsForPlan } from './pricing.js';

export * from './pricing.js';
export * from './credits.js';
export * from './forms.js';
export * from './buckets.js';
export * from './upload-limits.js';

/** The plan a new account starts on. */
export const DEFAULT_PLAN = 'free';

/** Entitlements a new account on each tier starts with: one period of that tier's monthly plan. */
export const PLAN_ENTITLEMENTS: Record<
  Tier,
  ReadonlyArray<{ feature: Feature | string; limit: number }>
> = {
  FREE: entitlementsForPlan('free'),
  VIP: entitlementsForPlan('vip_month'),
  SVIP: entitlementsForPlan('svip_month'),
  SSVIP: entitlementsForPlan('ssvip_month'),
};

/** Plan names carry tier markers (vip, svip, ssvip, free, edu) and period markers. */
export function tierOfPlan(plan: string | null | undefined): Tier {
  const name = (plan ?? 'free').toLowerCase();
  if (/(^|[_-])ssvip/.test(name)) return 'SSVIP';
  if (/(^|[_-])svip/.test(name)) return 'SVIP';
  if (/(^|[_-])vip/.test(name) || /(^|[_-])edu/.test(name)) return 'VIP';
  return 'FREE';
}

export type BillingPeriod = 'month' | 'year';
export function periodOfPlan(plan: string | null | undefined): BillingPeriod | null {
  const name = (plan ?? '').toLowerCase();
  if (name.includes('year')) return 'year';
  if (name.includes('month')) return 'month';
  return null;
}

export const tierRank = (tier: Tier) => TIERS.indexOf(tier);

/** What each tier is called in English, where the server writes it (receipts, mails); the web names tiers through its catalogue. */
export const TIER_LABELS: Record<Tier, string> = {
  FREE: 'Free',
  VIP: 'Standard',
  SVIP: 'Pro',
  SSVIP: 'Pro plus',
};

/** What a plan name says, as codes a reader's language can word: tier, education or not, period. */
export interface PlanParts {
  tier: Tier;
  edu: boolean;
  period: BillingPeriod | null;
}
export function planParts(plan: string | null | undefined): PlanParts {
  const tier = tierOfPlan(plan);
  if (tier === 'FREE') return { tier, edu: false, period: null };
  return { tier, edu: (plan ?? '').toLowerCase().includes('edu'), period: periodOfPlan(plan) };
}

/** The English plan name the server writes, such as "Pro (yearly)" or "Standard, education (monthly)". */
export function describePlan(plan: string | null | undefined): string {
  const { tier, edu, period } = planParts(plan);
  const periodText = { year: ' (yearly)', month: ' (monthly)', none: '' }[period ?? 'none'];
  return `${TIER_LABELS[tier]}${edu ? ', education' : ''}${periodText}`;
}

/**
 * The upgrade rule: same period needs a higher tier; a different period allows the same or a
 * higher tier; yearly to monthly is never allowed.
 */
export function isUpgradeAllowed(currentPlan: string | null, targetPlan: string): boolean {
  const currentTier = tierOfPlan(currentPlan);
  const targetTier = tierOfPlan(targetPlan);
  const currentPeriod = periodOfPlan(currentPlan);
  const targetPeriod = periodOfPlan(targetPlan);
  if (currentPeriod === 'year' && targetPeriod === 'month') return false;
  if (currentPeriod === targetPeriod) return tierRank(targetTier) > tierRank(currentTier);
  return tierRank(targetTier) >= tierRank(currentTier);
}

/** A feature is usable when limit is -1 or usage is below limit. */
export const isFeatureUsable = (entitlement: Pick<Entitlement, 'limit' | 'usage'>) =>
  entitlement.limit === -1 || entitlement.usage < entitlement.limit;

/** Canvas export remaining count. */
export function canvasExportRemaining(
  plan: string | null,
  entitlement: Pick<Entitlement, 'limit' | 'usage'> | undefined,
): number {
  if (tierOfPlan(plan) !== 'FREE') return -1;
  if (!entitlement || entitlement.limit === -1) return -1;
  return Math.max(0, entitlement.limit - entitlement.usage);
}
