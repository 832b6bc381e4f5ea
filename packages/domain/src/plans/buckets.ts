/*
 * Credit buckets: where a user's credits come from, and the order they are spent in.
 * Pure arithmetic, shared by the server's ledger and the property tests of the subscription state
 * machine, so both follow one rule.
 *
 * - `plan`: the plan's grant for the current period. It resets at every new period (start,
 *   renewal, upgrade, end of a paid plan): what is left of it expires.
 * - `reward`: referral and gift rewards. Never expire.
 * - `purchased`: credit top-ups. Never expire and are never lost at a plan change.
 *
 * Spending order: plan first (it expires anyway), then rewards, then purchased credits (money the
 * user paid is spent last). A refund gives each bucket back what the charge took from it.
 */

export const CREDIT_BUCKETS = ['plan', 'reward', 'purchased'] as const;
export type CreditBucket = (typeof CREDIT_BUCKETS)[number];

export interface BucketBalance {
  bucket: CreditBucket;
  balance: number;
  /** Only a plan bucket can be unlimited (limit -1). */
  unlimited: boolean;
}

export interface BucketPart {
  bucket: CreditBucket;
  amount: number;
}

const order = (bucket: CreditBucket) => CREDIT_BUCKETS.indexOf(bucket);

/**
 * How a charge of `amount` units is taken from the buckets, in spending order; null when they
 * cannot cover it (nothing is taken then). An unlimited plan bucket covers any amount.
 */
export function splitCharge(
  buckets: readonly BucketBalance[],
  amount: number,
): BucketPart[] | null {
  if (!Number.isInteger(amount) || amount < 0) throw new RangeError(`bad charge amount ${amount}`);
  const sorted = [...buckets].sort((a, b) => order(a.bucket) - order(b.bucket));
  const parts: BucketPart[] = [];
  let left = amount;
  for (const bucket of sorted) {
    if (left === 0) break;
    if (bucket.unlimited) return [...parts, { bucket: bucket.bucket, amount: left }];
    const take = Math.min(left, Math.max(0, bucket.balance));
    if (take > 0) parts.push({ bucket: bucket.bucket, amount: take });
    left -= take;
  }
  if (left > 0) return null;
  return parts.length ? parts : [{ bucket: 'plan', amount: 0 }];
}

/** The balance a user can spend now; null when unlimited. */
export function spendable(buckets: readonly BucketBalance[]): number | null {
  if (buckets.some((bucket) => bucket.unlimited)) return null;
  return buckets.reduce((sum, bucket) => sum + Math.max(0, bucket.balance), 0);
}

/**
 * The entitlement (limit, usage) of a feature, derived from its buckets: usage is what was
 * spent this period, limit is that plus what is left, so `limit - usage` is the spendable balance
 * and a top-up raises the limit. Unlimited: limit -1.
 */
export function entitlementOf(
  buckets: readonly BucketBalance[],
  periodUsed: number,
): { limit: number; usage: number } {
  const usage = Math.max(0, periodUsed);
  const left = spendable(buckets);
  return left === null ? { limit: -1, usage } : { limit: usage + left, usage };
}
