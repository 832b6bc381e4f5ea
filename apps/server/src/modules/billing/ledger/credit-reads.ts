import type { CreditHistory, Entitlement } from '@moments/contract';
import { CHARGE_REFUSALS, ERROR_CODES, ERROR_STATUS, type ChargedFeature } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import {
  MAX_VIDEO_MINUTES,
  maxClipExportMs,
  entitlementOf,
  entitlementsForPlan,
  spendable,
  type CreditBucket,
} from '@moments/domain';
import type { Db } from '../../../db/client.js';
import { AppError } from '../../../http/errors.js';
import type { Tx } from './ledger.js';
import type { LedgerRepository } from './ledger.repository.js';

const BUCKET_ORDER: Record<string, number> = { plan: 0, reward: 1, purchased: 2 };

/** Reads of the ledger: balances, the entitlements in user info, credit history, what work cost. */
export class CreditReads {
  constructor(
    private readonly repo: LedgerRepository,
    /** false with BILLING=off: every balance reads unlimited and nothing is refused. */
    private readonly limits = true,
  ) {}

  /**
   * The entitlements of user info, derived from the buckets: for balances, usage is what was
   * spent this period and limit - usage what is left in every bucket; ceilings (the longest
   * video) come from the plan.
   */
  async entitlements(userId: string, plan: string): Promise<Entitlement[]> {
    const rows = await this.repo.allBuckets(userId);
    if (!this.limits) {
      return entitlementsForPlan(plan).map((grant) => ({
        feature: grant.feature,
        limit: -1,
        usage: 0,
      }));
    }
    return entitlementsForPlan(plan).map((grant) => {
      const own = rows.filter((row) => row.feature === grant.feature);
      if (!own.length) return { feature: grant.feature, limit: grant.limit, usage: 0 };
      const used = own.find((row) => row.bucket === 'plan')?.periodUsed ?? 0;
      const balances = own.map((row) => ({
        bucket: row.bucket as CreditBucket,
        balance: row.balance,
        unlimited: row.unlimited,
      }));
      return { feature: grant.feature, ...entitlementOf(balances, used) };
    });
  }

  /** Units of `feature` the user can spend now; null when unlimited. */
  async spendable(userId: string, feature: string, tx?: Db | Tx): Promise<number | null> {
    return spendable(await this.repo.buckets(tx ?? this.repo.db, userId, feature));
  }

  /** Refuses work the balance cannot cover, before anything is stored (credits dialog code). */
  async assertCanSpend(userId: string, feature: string, amount: number, tx?: Db | Tx) {
    const left = this.limits ? await this.spendable(userId, feature, tx) : null;
    if (left !== null && left < amount) {
      throw new AppError(
        ERROR_CODES.BALANCE_NOT_ENOUGH,
        402,
        `This needs ${amount / 10} credits and you have ${left / 10} left. Upgrade your plan or add credits.`,
      );
    }
  }

  /**
   * Refuses several pieces of work at once when the balance cannot cover them all (export all),
   * with the feature's own refusal code, before anything is stored or charged.
   */
  async assertCanCoverAll(
    userId: string,
    feature: ChargedFeature,
    amount: number,
    describe: (left: number) => string,
  ) {
    const left = this.limits ? await this.spendable(userId, feature) : null;
    if (left !== null && left < amount) {
      const code = CHARGE_REFUSALS[feature];
      throw new AppError(code, ERROR_STATUS[code], describe(left));
    }
  }

  /** The user's plan, which prices and limits their work ('free' for an unknown user). */
  planOf(userId: string): Promise<string> {
    return this.repo.planOf(userId);
  }

  /** The plan's longest video (a ceiling: the "video too long" dialog). */
  assertVideoLength(plan: string, durationMs: number) {
    const limit = entitlementsForPlan(plan).find((g) => g.feature === MAX_VIDEO_MINUTES)?.limit;
    const minutes = Math.ceil(durationMs / 60_000);
    if (this.limits && limit !== undefined && limit !== -1 && minutes > limit) {
      throw new AppError(
        ERROR_CODES.VIDEO_TOO_LONG,
        402,
        `This video (${minutes} min) is longer than your plan's limit of ${limit} minutes. Upgrade your plan to process it.`,
      );
    }
  }

  /**
   * The plan's longest clip (MAX_CLIP_MINUTES): a moment's export counts as one export whatever
   * its span, so a longer span would buy the whole video, which the caption export prices by length.
   */
  assertClipLength(plan: string, spanMs: number) {
    const limitMs = maxClipExportMs(plan);
    if (this.limits && spanMs > limitMs) {
      throw new AppError(
        ERROR_CODES.CLIP_TOO_LONG,
        422,
        `A clip on your plan is at most ${formatDuration(limitMs)} long (this one is ${formatDuration(spanMs)}). Trim it, or export the whole video from its captions page.`,
        { limit_ms: limitMs, span_ms: spanMs },
      );
    }
  }

  /** Net credit units the work still holds (charges minus refunds): the cost it shows. */
  async netCharged(work: { taskId: string } | { jobId: string }, tx?: Db | Tx) {
    return Math.max(0, await this.repo.netCharged(work, tx));
  }

  /** Credit history: every movement, newest first, with the work it belongs to; paginated. */
  async history(userId: string, page: number, size: number): Promise<CreditHistory> {
    const rows = await this.repo.movements(userId, size + 1, (page - 1) * size);
    const balances = (await this.repo.allBuckets(userId))
      .map((row) => ({
        feature: row.feature,
        bucket: row.bucket as CreditBucket,
        balance: row.balance,
        unlimited: row.unlimited,
      }))
      .sort(
        (a, b) =>
          a.feature.localeCompare(b.feature) || BUCKET_ORDER[a.bucket]! - BUCKET_ORDER[b.bucket]!,
      );
    return {
      balances,
      movements: rows.slice(0, size).map(({ movement, chargeKind, taskVideo, jobTitle }) => ({
        id: movement.id,
        created_at: movement.createdAt.getTime(),
        kind: movement.kind as 'charge' | 'refund' | 'grant' | 'expire',
        feature: movement.feature,
        bucket: movement.bucket as CreditBucket,
        amount: movement.amount,
        balance_after: movement.balanceAfter,
        reason: movement.reason,
        action: movement.action,
        charge_kind: chargeKind ?? null,
        refund_cause: movement.cause,
        task_id: movement.taskId,
        job_id: movement.jobId,
        work_title: jobTitle ?? (taskVideo as { title?: string } | null)?.title ?? null,
      })),
      page_num: page,
      page_size: size,
      last: rows.length <= size,
    };
  }
}
