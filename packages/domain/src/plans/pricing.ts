import type { Tier } from '@moments/contract';

/*
 * The one pricing table: every plan, its prices and its entitlements. The server serves
 * it as `GET /api/subscription/pricing_table`, the payment providers charge from it and the plan
 * page draws from it. The README's "Plans and credits" section documents the same numbers.
 */

export type PlanInterval = 'month' | 'year';

/** Extra features beyond the spec's three; limits use the same -1 = unlimited rule. */
export const MAX_VIDEO_MINUTES = 'MAX_VIDEO_MINUTES';
/**
 * The longest span one moment's clip export may have, in minutes. A clip counts as one export
 * whatever its length, so without a ceiling one export would buy the whole video, which the
 * caption export prices by its length. Every plan has a finite one.
 */
export const MAX_CLIP_MINUTES = 'MAX_CLIP_MINUTES';
/** How many brand kits (logo, caption style, intro and outro) the user may keep at once. */
export const BRAND_KITS = 'BRAND_KITS';

export interface PlanEntitlement {
  feature: string;
  limit: number;
}

export interface PlanDefinition {
  /** Plan name with tier and period markers, e.g. `vip_year`, `edu_vip_month`. */
  plan: string;
  tier: Tier;
  /** null for free and enterprise (no billing period). */
  interval: PlanInterval | null;
  edu: boolean;
  /** Price of one period in US cents; 0 for free, null for enterprise (priced by contract). */
  unitAmount: number | null;
  /** The crossed-out per-month price of the limited-time offer, in cents. */
  compareAtMonthly?: number;
  /** What the plan costs per period after the first one (yearly standard: 8388 = 83.88). */
  renewalAmount?: number;
  entitlements: readonly PlanEntitlement[];
}

/**
 * Credits are stored in tenths (shown as amount / 10): 600 units are 60 credits, and one
 * credit pays for about one minute of moment finding (see TASK_PRICE_LIST). Grants are per period:
 * a yearly plan gets twelve months of credits when it starts and when it renews.
 */
const MONTHLY_GRANTS: Record<Tier, readonly PlanEntitlement[]> = {
  FREE: [
    { feature: 'CREDIT', limit: 600 },
    { feature: 'FREE_TOOL_CREDIT', limit: 100 },
    { feature: 'CANVAS_EXPORT', limit: 3 },
    { feature: MAX_VIDEO_MINUTES, limit: 60 },
    { feature: MAX_CLIP_MINUTES, limit: 3 },
    { feature: BRAND_KITS, limit: 1 },
  ],
  VIP: [
    { feature: 'CREDIT', limit: 2000 },
    { feature: 'FREE_TOOL_CREDIT', limit: 500 },
    { feature: 'CANVAS_EXPORT', limit: -1 },
    { feature: MAX_VIDEO_MINUTES, limit: 180 },
    { feature: MAX_CLIP_MINUTES, limit: 10 },
    { feature: BRAND_KITS, limit: 4 },
  ],
  SVIP: [
    { feature: 'CREDIT', limit: 6000 },
    { feature: 'FREE_TOOL_CREDIT', limit: 2000 },
    { feature: 'CANVAS_EXPORT', limit: -1 },
    { feature: MAX_VIDEO_MINUTES, limit: 300 },
    { feature: MAX_CLIP_MINUTES, limit: 20 },
    { feature: BRAND_KITS, limit: 10 },
  ],
  SSVIP: [
    { feature: 'CREDIT', limit: 30000 },
    { feature: 'FREE_TOOL_CREDIT', limit: -1 },
    { feature: 'CANVAS_EXPORT', limit: -1 },
    { feature: MAX_VIDEO_MINUTES, limit: -1 },
    { feature: MAX_CLIP_MINUTES, limit: 30 },
    { feature: BRAND_KITS, limit: -1 },
  ],
};

/** Entitlements for one period of a paid plan; yearly plans get twelve months of credits. */
function grantsFor(tier: Tier, interval: PlanInterval | null): PlanEntitlement[] {
  return MONTHLY_GRANTS[tier].map((grant) =>
    interval === 'year' && grant.limit !== -1 && grant.feature.endsWith('CREDIT')
      ? { ...grant, limit: grant.limit * 12 }
      : { ...grant },
  );
}

/** Monthly prices in cents; yearly prices are the advertised per-month prices times 12. */
const MONTHLY_PRICE: Record<Exclude<Tier, 'FREE'>, number> = { VIP: 999, SVIP: 2699, SSVIP: 13999 };
const EDU_MONTHLY_PRICE = 799;
/** Yearly per-month prices 4.99 (3.99 edu), 13.49, 69.99. */
export const YEARLY_PER_MONTH: Record<Exclude<Tier, 'FREE'> | 'EDU', number> = {
  VIP: 499,
  EDU: 399,
  SVIP: 1349,
  SSVIP: 6999,
};

const paid = (tier: Exclude<Tier, 'FREE'>, interval: PlanInterval, edu = false): PlanDefinition => {
  const marker = { VIP: 'vip', SVIP: 'svip', SSVIP: 'ssvip' }[tier];
  const perMonth = interval === 'year' ? YEARLY_PER_MONTH[edu ? 'EDU' : tier] : undefined;
  const definition: PlanDefinition = {
    plan: `${edu ? 'edu_' : ''}${marker}_${interval}`,
    tier,
    interval,
    edu,
    unitAmount: perMonth ? perMonth * 12 : edu ? EDU_MONTHLY_PRICE : MONTHLY_PRICE[tier],
    entitlements: grantsFor(tier, interval),
  };
  // Yearly standard shows a crossed-out 13.99 and bills 83.88 after the first year.
  if (tier === 'VIP' && !edu && interval === 'year') {
    definition.compareAtMonthly = 1399;
    definition.renewalAmount = 8388;
  }
  return definition;
};

export const FREE_PLAN: PlanDefinition = {
  plan: 'free',
  tier: 'FREE',
  interval: null,
  edu: false,
  unitAmount: 0,
  entitlements: grantsFor('FREE', null),
};

export const ENTERPRISE_PLAN: PlanDefinition = {
  plan: 'enterprise',
  tier: 'SSVIP',
  interval: null,
  edu: false,
  unitAmount: null,
  entitlements: [
    { feature: 'CREDIT', limit: -1 },
    { feature: 'FREE_TOOL_CREDIT', limit: -1 },
    { feature: 'CANVAS_EXPORT', limit: -1 },
    { feature: MAX_VIDEO_MINUTES, limit: -1 },
    { feature: MAX_CLIP_MINUTES, limit: 30 },
    { feature: BRAND_KITS, limit: -1 },
  ],
};

export const PLANS: readonly PlanDefinition[] = [
  FREE_PLAN,
  paid('VIP', 'month'),
  paid('VIP', 'year'),
  paid('VIP', 'month', true),
  paid('VIP', 'year', true),
  paid('SVIP', 'month'),
  paid('SVIP', 'year'),
  paid('SSVIP', 'month'),
  paid('SSVIP', 'year'),
  ENTERPRISE_PLAN,
];

export const findPlan = (plan: string | null | undefined): PlanDefinition | undefined =>
  PLANS.find((candidate) => candidate.plan === plan);

/** A plan a customer can buy by card (not free, not enterprise). */
export const isPurchasablePlan = (plan: string | null | undefined): boolean => {
  const found = findPlan(plan);
  return !!found && found.interval !== null && (found.unitAmount ?? 0) > 0;
};

/** Entitlements a plan grants for one period (unknown names fall back to free). */
export const entitlementsForPlan = (plan: string | null | undefined): PlanEntitlement[] =>
  (findPlan(plan) ?? FREE_PLAN).entitlements.map((grant) => ({ ...grant }));

/** The longest clip export `plan` allows, in milliseconds (unknown plans read as free). */
export function maxClipExportMs(plan: string | null | undefined): number {
  const minutes = entitlementsForPlan(plan).find((g) => g.feature === MAX_CLIP_MINUTES)!.limit;
  return minutes * 60_000;
}

/** A pricing item: a plan with its prices and entitlements. */
export interface PricingItem {
  plan: string;
  interval: PlanInterval | null;
  interval_count: number;
  currency: 'usd';
  unit_amount: number | null;
  entitlements: PlanEntitlement[];
  type: 'price' | 'enterprise';
  edu: boolean;
  compare_at_monthly?: number;
  renewal_amount?: number;
}

export function pricingTable(): PricingItem[] {
  return PLANS.map((plan) => ({
    plan: plan.plan,
    interval: plan.interval,
    interval_count: 1,
    currency: 'usd',
    unit_amount: plan.unitAmount,
    entitlements: plan.entitlements.map((grant) => ({ ...grant })),
    type: plan === ENTERPRISE_PLAN ? 'enterprise' : 'price',
    edu: plan.edu,
    ...(plan.compareAtMonthly ? { compare_at_monthly: plan.compareAtMonthly } : {}),
    ...(plan.renewalAmount ? { renewal_amount: plan.renewalAmount } : {}),
  }));
}

/** Cents as dollars with two decimals: 499 → "4.99". */
export const formatDollars = (cents: number): string => (cents / 100).toFixed(2);

/** The per-month price a plan card shows: yearly unit amount divided by 12. */
export function monthlyDisplayCents(item: Pick<PricingItem, 'interval' | 'unit_amount'>): number {
  const amount = item.unit_amount ?? 0;
  return item.interval === 'year' ? Math.round(amount / 12) : amount;
}

/**
 * What a yearly plan saves against paying the same plan monthly, per month in cents and as a
 * whole percent; null for a plan with no monthly twin (free, enterprise, a monthly plan). The
 * crossed-out offer price (compare_at_monthly) is a marketing number: this is the real saving.
 */
export function yearlySaving(
  plan: string,
): { monthlyCents: number; perMonthCents: number; savedCents: number; percent: number } | null {
  const yearly = findPlan(plan);
  if (!yearly || yearly.interval !== 'year' || !yearly.unitAmount) return null;
  const monthly = PLANS.find(
    (candidate) =>
      candidate.tier === yearly.tier &&
      candidate.edu === yearly.edu &&
      candidate.interval === 'month',
  );
  if (!monthly?.unitAmount) return null;
  const perMonthCents = monthlyDisplayCents({ interval: 'year', unit_amount: yearly.unitAmount });
  const savedCents = monthly.unitAmount - perMonthCents;
  if (savedCents <= 0) return null;
  return {
    monthlyCents: monthly.unitAmount,
    perMonthCents,
    savedCents,
    percent: Math.round((savedCents / monthly.unitAmount) * 100),
  };
}

/** Which billing line a plan card shows under its price, with its amounts (dollars, "4.99"). */
export type BillingLine =
  | { kind: 'custom' }
  | { kind: 'free' }
  | { kind: 'monthly'; amount: string }
  | { kind: 'yearly'; amount: string }
  | { kind: 'firstYear'; amount: string; renewal: string };
export function billingLine(
  item: Pick<PricingItem, 'interval' | 'unit_amount' | 'renewal_amount'>,
): BillingLine {
  if (item.unit_amount === null) return { kind: 'custom' };
  if (item.unit_amount === 0) return { kind: 'free' };
  const amount = formatDollars(item.unit_amount);
  if (item.interval === 'month') return { kind: 'monthly', amount };
  return item.renewal_amount
    ? { kind: 'firstYear', amount, renewal: formatDollars(item.renewal_amount) }
    : { kind: 'yearly', amount };
}

/** The billing line in English (the web words it through its catalogue). */
export function billingText(
  item: Pick<PricingItem, 'interval' | 'unit_amount' | 'renewal_amount'>,
): string {
  const line = billingLine(item);
  switch (line.kind) {
    case 'custom':
      return 'Custom pricing for your team';
    case 'free':
      return 'Free forever';
    case 'monthly':
      return `Billed $${line.amount} monthly`;
    case 'yearly':
      return `Billed $${line.amount} yearly`;
    case 'firstYear':
      return `Billed $${line.amount} for the first year, $${line.renewal} after the first year`;
  }
}

/** Top-up packs for `POST /api/payment {price, quantity}`: credits are in tenths. */
export const CREDIT_PACKS = [
  { price: 'credit_100', credits: 1000, unitAmount: 499 },
  { price: 'credit_500', credits: 5000, unitAmount: 1999 },
] as const;
export const findCreditPack = (price: string) => CREDIT_PACKS.find((pack) => pack.price === price);

/** How much a mid-period change costs now: the new price minus the unused part of the current one. */
export function proratedAmount(
  current: { unitAmount: number; periodStart: Date; periodEnd: Date } | null,
  targetAmount: number,
  now: Date,
): number {
  if (!current) return targetAmount;
  const total = current.periodEnd.getTime() - current.periodStart.getTime();
  const left = Math.max(0, current.periodEnd.getTime() - now.getTime());
  const unused = total > 0 ? Math.round((current.unitAmount * left) / total) : 0;
  return Math.max(0, targetAmount - unused);
}

/** The end of a period that starts at `start`. */
export function periodEnd(start: Date, interval: PlanInterval): Date {
  const end = new Date(start);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

/** How many brand kits the plan keeps; -1 for no limit. */
export const brandKitLimit = (plan: string | null | undefined): number =>
  entitlementsForPlan(plan ?? 'free').find((grant) => grant.feature === BRAND_KITS)?.limit ?? 1;
