import { CHARGE_REFUSALS, ERROR_STATUS, type PlanChangeAction } from '@moments/contract';
import {
  CHARGE_KIND_LABELS,
  LEDGER_REASONS,
  entitlementsForPlan,
  planGrantReason,
  type RefundCause,
  splitCharge,
  type BucketBalance,
  type CreditBucket,
} from '@moments/domain';
import { AppError } from '../../../http/errors.js';
import { operationKey, workOf, type ChargeKey } from './charge-keys.js';
import type { LedgerRepository, Tx } from './ledger.repository.js';

export type { Tx } from './ledger.repository.js';

/** Features that are balances (counted down); other plan entitlements are ceilings. */
const BALANCE_FEATURES = ['CREDIT', 'FREE_TOOL_CREDIT', 'CANVAS_EXPORT'] as const;
export type BalanceFeature = (typeof BALANCE_FEATURES)[number];
const isBalanceFeature = (feature: string): feature is BalanceFeature =>
  (BALANCE_FEATURES as readonly string[]).includes(feature);

export type GrantRequest =
  /** A new period of `plan`: what is left of the plan bucket expires, then the plan's grant. */
  | { source: 'plan'; plan: string; action: PlanChangeAction | null; key: string }
  /** Credits bought (a top-up) or given (a referral or gift reward): added, never reset. */
  | { source: 'purchased' | 'reward'; amount: number; key: string; reason: string };

type Movement = {
  operationKey: string;
  kind: 'charge' | 'refund' | 'grant' | 'expire';
  feature: string;
  bucket: CreditBucket;
  amount: number;
  reason: string;
  action?: string | null;
  cause?: RefundCause | null;
  taskId?: string | null;
  jobId?: string | null;
};

const REFUSALS: Record<(typeof CHARGE_REFUSALS)[BalanceFeature], string> = {
  EXPORT_LIMIT_REACHED: 'You have used all the exports of your plan. Upgrade to export more clips.',
  BALANCE_NOT_ENOUGH:
    'Not enough credits for this video. Upgrade your plan or add credits to process it.',
};

/**
 * The error a balance that cannot cover a charge answers with (its code picks the dialog), from
 * the table routes declare their charges with.
 */
function notEnough(feature: BalanceFeature): AppError {
  const code = CHARGE_REFUSALS[feature];
  return new AppError(code, ERROR_STATUS[code], REFUSALS[code]);
}

/**
 * The ledger: the only way credits move. Four entry points: `charge`, `refund`,
 * `grant` and `expire`; each is keyed (a second call with the same key is a no-op, also when
 * concurrent), runs under the user's lock, moves buckets in the documented spending order
 * (packages/domain buckets.ts) and writes one ledger row per bucket moved, with the balance after
 * and the work it belongs to. Nothing else writes credit_buckets or credit_ledger.
 */
export interface LedgerOptions {
  /** false with BILLING=off: charges are recorded but never refused (no plans, no limits). */
  limits?: boolean;
  /**
   * Told after credits of a user moved (each screen's balance follows it live). Inside a
   * caller's transaction it is told when the ledger's part is done, before the caller commits:
   * a listener reads the balance again a moment later, never from this call.
   */
  onMoved?: (userId: string) => void;
}

export class Ledger {
  private readonly limits: boolean;
  private readonly onMoved: (userId: string) => void;

  constructor(
    private readonly repo: LedgerRepository,
    options: LedgerOptions = {},
  ) {
    this.limits = options.limits ?? true;
    this.onMoved = options.onMoved ?? (() => undefined);
  }

  /** Runs a movement and tells the listener whose credits moved, when any did. */
  private async moving(
    userId: () => string | undefined,
    tx: Tx | undefined,
    work: (tx: Tx) => Promise<boolean>,
  ): Promise<boolean> {
    const moved = await this.repo.transaction(tx, work);
    const who = userId();
    if (moved && who) this.onMoved(who);
    return moved;
  }

  /**
   * Takes `amount` units of `feature` for the work `key` names; throws BALANCE_NOT_ENOUGH
   * (EXPORT_LIMIT_REACHED for exports) and changes nothing when the buckets cannot cover it.
   * Returns false when this work was charged before.
   */
  async charge(
    userId: string,
    key: ChargeKey,
    feature: BalanceFeature,
    amount: number,
    options: { tx?: Tx; reason?: string } = {},
  ): Promise<boolean> {
    const opKey = operationKey(key);
    const reason = options.reason ?? CHARGE_KIND_LABELS[key.kind];
    const work = workOf(key);
    return this.moving(
      () => userId,
      options.tx,
      async (tx) => {
        await this.repo.lockUser(tx, userId);
        const claimed = await this.repo.claim(tx, {
          key: opKey,
          userId,
          kind: 'charge',
          chargeKind: key.kind,
          feature,
          amount,
          reason,
          ...work,
        });
        if (!claimed) return false;
        const buckets = this.limits
          ? await this.repo.buckets(tx, userId, feature)
          : [{ bucket: 'plan' as const, balance: 0, unlimited: true }];
        const parts = splitCharge(buckets, amount);
        if (!parts) throw notEnough(feature);
        for (const part of parts) {
          await this.move(tx, userId, buckets, {
            operationKey: opKey,
            kind: 'charge',
            feature,
            bucket: part.bucket,
            amount: -part.amount,
            reason,
            ...work,
          });
        }
        await this.repo.addPeriodUse(tx, userId, feature, amount);
        return true;
      },
    );
  }

  /**
   * Gives back what the charge `key` took, to the buckets it came from, once. Returns false when
   * there was nothing to refund (never charged, or refunded before). `cause` says why, for the
   * credit history.
   */
  async refund(
    key: ChargeKey | string,
    options: { tx?: Tx; cause?: RefundCause } = {},
  ): Promise<boolean> {
    const opKey = typeof key === 'string' ? key : operationKey(key);
    let owner: string | undefined;
    return this.moving(
      () => owner,
      options.tx,
      async (tx) => {
        const charge = await this.repo.operation(tx, opKey);
        if (!charge || charge.kind !== 'charge') return false;
        owner = charge.userId;
        await this.repo.lockUser(tx, charge.userId);
        const reason = `${LEDGER_REASONS.refundPrefix}${charge.reason}`;
        const claimed = await this.repo.claim(tx, {
          key: `refund:${opKey}`,
          userId: charge.userId,
          kind: 'refund',
          chargeKind: charge.chargeKind,
          feature: charge.feature,
          amount: charge.amount,
          reason,
          taskId: charge.taskId,
          jobId: charge.jobId,
        });
        if (!claimed) return false;
        const taken = await this.repo.chargedParts(tx, opKey);
        const buckets = await this.repo.buckets(tx, charge.userId, charge.feature);
        for (const part of taken) {
          await this.move(tx, charge.userId, buckets, {
            operationKey: `refund:${opKey}`,
            kind: 'refund',
            feature: charge.feature,
            bucket: part.bucket as CreditBucket,
            amount: -part.amount,
            reason,
            cause: options.cause ?? null,
            taskId: charge.taskId,
            jobId: charge.jobId,
          });
        }
        await this.repo.addPeriodUse(tx, charge.userId, charge.feature, -charge.amount);
        return true;
      },
    );
  }

  /** Adds credits (a plan period, a top-up, a reward), once per key. False when seen before. */
  async grant(userId: string, request: GrantRequest, options: { tx?: Tx } = {}): Promise<boolean> {
    return this.moving(
      () => userId,
      options.tx,
      async (tx) => {
        await this.repo.lockUser(tx, userId);
        if (request.source !== 'plan') {
          const claimed = await this.repo.claim(tx, {
            key: request.key,
            userId,
            kind: 'grant',
            feature: 'CREDIT',
            amount: request.amount,
            reason: request.reason,
          });
          if (!claimed) return false;
          const buckets = await this.repo.buckets(tx, userId, 'CREDIT');
          await this.move(tx, userId, buckets, {
            operationKey: request.key,
            kind: 'grant',
            feature: 'CREDIT',
            bucket: request.source,
            amount: request.amount,
            reason: request.reason,
            action: request.source === 'purchased' ? 'CREDIT' : null,
          });
          return true;
        }
        const grants = entitlementsForPlan(request.plan).filter((g) => isBalanceFeature(g.feature));
        const credit = grants.find((g) => g.feature === 'CREDIT')?.limit ?? 0;
        const reason = planGrantReason(request.action, request.plan);
        const claimed = await this.repo.claim(tx, {
          key: request.key,
          userId,
          kind: 'grant',
          feature: 'CREDIT',
          amount: Math.max(0, credit),
          reason,
        });
        if (!claimed) return false;
        await this.expireIn(tx, userId, `${request.key}:expire`, LEDGER_REASONS.planPeriodEnd);
        for (const grant of grants) {
          await this.setPlanBucket(tx, userId, grant.feature, grant.limit, {
            operationKey: request.key,
            reason,
            action: request.action,
          });
        }
        return true;
      },
    );
  }

  /** What is left of the plan's grant expires (the end of a period). Once per key. */
  async expire(userId: string, key: string, reason: string, options: { tx?: Tx } = {}) {
    return this.moving(
      () => userId,
      options.tx,
      async (tx) => {
        await this.repo.lockUser(tx, userId);
        return this.expireIn(tx, userId, key, reason);
      },
    );
  }

  private async expireIn(tx: Tx, userId: string, key: string, reason: string) {
    const claimed = await this.repo.claim(tx, {
      key,
      userId,
      kind: 'expire',
      feature: 'CREDIT',
      amount: 0,
      reason,
    });
    if (!claimed) return false;
    for (const feature of BALANCE_FEATURES) {
      const buckets = await this.repo.buckets(tx, userId, feature);
      const plan = buckets.find((b) => b.bucket === 'plan');
      if (!plan || plan.unlimited || plan.balance === 0) continue;
      await this.move(tx, userId, buckets, {
        operationKey: key,
        kind: 'expire',
        feature,
        bucket: 'plan',
        amount: -plan.balance,
        reason,
      });
    }
    return true;
  }

  /** The plan bucket starts a period: `limit` (-1 unlimited) to spend, nothing used yet. */
  private async setPlanBucket(
    tx: Tx,
    userId: string,
    feature: string,
    limit: number,
    row: { operationKey: string; reason: string; action: string | null },
  ) {
    const unlimited = limit === -1;
    const balance = unlimited ? 0 : limit;
    await this.repo.resetPlanBucket(tx, userId, feature, balance, unlimited);
    await this.repo.insertLedgerRow(tx, {
      userId,
      operationKey: row.operationKey,
      kind: 'grant',
      feature,
      bucket: 'plan',
      amount: balance,
      balanceAfter: unlimited ? null : balance,
      reason: row.reason,
      action: row.action,
    });
  }

  /** Moves one bucket by `movement.amount` and writes its ledger row. */
  private async move(tx: Tx, userId: string, buckets: BucketBalance[], movement: Movement) {
    const known = buckets.find((b) => b.bucket === movement.bucket);
    let balanceAfter: number | null = null;
    if (known?.unlimited) {
      balanceAfter = null;
    } else {
      balanceAfter = await this.repo.addToBucket(
        tx,
        userId,
        movement.feature,
        movement.bucket,
        movement.amount,
      );
      if (known) known.balance = balanceAfter ?? known.balance;
      else buckets.push({ bucket: movement.bucket, balance: balanceAfter ?? 0, unlimited: false });
    }
    await this.repo.insertLedgerRow(tx, { userId, ...movement, balanceAfter });
  }
}
