import { ERROR_CODES, type PlanChangeAction } from '@moments/contract';
import { entitlementsForPlan } from '@moments/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { creditLedger, entitlements } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';

/** A transaction handle, so billing can move the ledger inside its own transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Credits move only through here. A charge is keyed (`task:<id>`), so a handler that runs twice
 * charges once; a failed task or export is refunded by the same key (design: failed work costs no
 * credits). Plan changes, renewals and top-ups are ledger rows too, tagged with the spec §4 action.
 */
export class CreditsService {
  constructor(private readonly db: Db) {}

  /**
   * Charges `amount` units of `feature`; throws BALANCE_NOT_ENOUGH when the limit would be passed.
   * The ledger row is claimed first with ON CONFLICT DO NOTHING: a second charge with the same key,
   * even a concurrent one, waits on the unique index and then finds the key taken, so it is a no-op
   * instead of a unique-violation error. A refused charge rolls its claim back.
   */
  async charge(userId: string, feature: string, amount: number, chargeKey: string, reason: string) {
    await this.db.transaction(async (tx) => {
      const claimed = await tx
        .insert(creditLedger)
        .values({ userId, feature, amount: -amount, chargeKey, reason })
        .onConflictDoNothing({ target: creditLedger.chargeKey })
        .returning({ id: creditLedger.id });
      if (!claimed.length) return;
      // Conditional update: the row lock it takes serialises concurrent charges on one balance,
      // and the WHERE re-checks the limit against the committed usage.
      const updated = await tx
        .update(entitlements)
        .set({ usage: sql`${entitlements.usage} + ${amount}` })
        .where(
          and(
            eq(entitlements.userId, userId),
            eq(entitlements.feature, feature),
            sql`(${entitlements.limit} = -1 or ${entitlements.usage} + ${amount} <= ${entitlements.limit})`,
          ),
        )
        .returning({ usage: entitlements.usage });
      if (!updated.length) {
        throw new AppError(
          ERROR_CODES.BALANCE_NOT_ENOUGH,
          402,
          'Not enough credits for this video. Upgrade your plan to process it.',
        );
      }
    });
  }

  /**
   * A plan limit that is a ceiling rather than a balance (e.g. MAX_VIDEO_MINUTES): throws
   * USAGE_LIMIT_REACHED when `value` is over it. Users without the entitlement are not limited.
   */
  async assertWithinLimit(userId: string, feature: string, value: number, what: string) {
    const [grant] = await this.db
      .select({ limit: entitlements.limit })
      .from(entitlements)
      .where(and(eq(entitlements.userId, userId), eq(entitlements.feature, feature)))
      .limit(1);
    if (grant && grant.limit !== -1 && value > grant.limit) {
      throw new AppError(
        ERROR_CODES.USAGE_LIMIT_REACHED,
        402,
        `${what} is over your plan's limit of ${grant.limit}. Upgrade your plan to process it.`,
      );
    }
  }

  /** Gives back what `chargeKey` took, once (also under concurrent refunds). */
  async refund(chargeKey: string) {
    await this.db.transaction(async (tx) => {
      const [charge] = await tx
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.chargeKey, chargeKey))
        .limit(1);
      if (!charge || charge.amount >= 0) return;
      const claimed = await tx
        .insert(creditLedger)
        .values({
          userId: charge.userId,
          feature: charge.feature,
          amount: -charge.amount,
          chargeKey: `refund:${chargeKey}`,
          reason: `refund: ${charge.reason}`,
        })
        .onConflictDoNothing({ target: creditLedger.chargeKey })
        .returning({ id: creditLedger.id });
      if (!claimed.length) return;
      await tx
        .update(entitlements)
        .set({ usage: sql`greatest(${entitlements.usage} + ${charge.amount}, 0)` })
        .where(
          and(eq(entitlements.userId, charge.userId), eq(entitlements.feature, charge.feature)),
        );
    });
  }

  /**
   * A new billing period of `plan` (start, upgrade, renewal, end of a paid plan): every feature's
   * limit becomes the plan's grant and usage starts again from zero. Keyed like a charge, so a
   * replayed webhook grants once. Returns false when `key` was applied before.
   */
  async grantPlan(
    userId: string,
    plan: string,
    action: PlanChangeAction,
    key: string,
    tx?: Tx,
  ): Promise<boolean> {
    const run = async (t: Tx) => {
      const grants = entitlementsForPlan(plan);
      const claimed = await t
        .insert(creditLedger)
        .values(
          grants.map((grant) => ({
            userId,
            feature: grant.feature,
            amount: grant.limit,
            chargeKey: `${key}:${grant.feature}`,
            reason: `${action} ${plan}`,
            action,
          })),
        )
        .onConflictDoNothing({ target: creditLedger.chargeKey })
        .returning({ id: creditLedger.id });
      if (!claimed.length) return false;
      for (const grant of grants) {
        await t
          .insert(entitlements)
          .values({ userId, feature: grant.feature, limit: grant.limit, usage: 0 })
          .onConflictDoUpdate({
            target: [entitlements.userId, entitlements.feature],
            set: { limit: grant.limit, usage: 0 },
          });
      }
      return true;
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  /** A credit top-up (spec action CREDIT): raises the CREDIT limit by `units`, once per key. */
  async topUp(userId: string, units: number, key: string, tx?: Tx): Promise<boolean> {
    const run = async (t: Tx) => {
      const claimed = await t
        .insert(creditLedger)
        .values({
          userId,
          feature: 'CREDIT',
          amount: units,
          chargeKey: key,
          reason: 'credit top-up',
          action: 'CREDIT',
        })
        .onConflictDoNothing({ target: creditLedger.chargeKey })
        .returning({ id: creditLedger.id });
      if (!claimed.length) return false;
      // An unlimited balance stays unlimited.
      await t
        .update(entitlements)
        .set({
          limit: sql`case when ${entitlements.limit} = -1 then -1 else ${entitlements.limit} + ${units} end`,
        })
        .where(and(eq(entitlements.userId, userId), eq(entitlements.feature, 'CREDIT')));
      return true;
    };
    return tx ? run(tx) : this.db.transaction(run);
  }
}
