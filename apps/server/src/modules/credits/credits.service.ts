import { ERROR_CODES } from '@moments/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { creditLedger, entitlements } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';

/**
 * Credits move only through here. A charge is keyed (`task:<id>`), so a handler that runs twice
 * charges once; a failed task or export is refunded by the same key (design: failed work costs no
 * credits).
 */
export class CreditsService {
  constructor(private readonly db: Db) {}

  /** Charges `amount` units of `feature`; throws BALANCE_NOT_ENOUGH when the limit would be passed. */
  async charge(userId: string, feature: string, amount: number, chargeKey: string, reason: string) {
    await this.db.transaction(async (tx) => {
      const existing = await tx
        .select({ id: creditLedger.id })
        .from(creditLedger)
        .where(eq(creditLedger.chargeKey, chargeKey))
        .limit(1);
      if (existing.length) return;
      // Row lock so two concurrent charges cannot both pass the limit check.
      const [grant] = await tx
        .select()
        .from(entitlements)
        .where(and(eq(entitlements.userId, userId), eq(entitlements.feature, feature)))
        .for('update');
      if (!grant || (grant.limit !== -1 && grant.usage + amount > grant.limit)) {
        throw new AppError(
          ERROR_CODES.BALANCE_NOT_ENOUGH,
          402,
          'Not enough credits for this video. Upgrade your plan to process it.',
        );
      }
      await tx
        .update(entitlements)
        .set({ usage: sql`${entitlements.usage} + ${amount}` })
        .where(and(eq(entitlements.userId, userId), eq(entitlements.feature, feature)));
      await tx.insert(creditLedger).values({ userId, feature, amount: -amount, chargeKey, reason });
    });
  }

  /** Gives back what `chargeKey` took, once. */
  async refund(chargeKey: string) {
    await this.db.transaction(async (tx) => {
      const [charge] = await tx
        .select()
        .from(creditLedger)
        .where(eq(creditLedger.chargeKey, chargeKey))
        .limit(1);
      if (!charge) return;
      const refundKey = `refund:${chargeKey}`;
      const already = await tx
        .select({ id: creditLedger.id })
        .from(creditLedger)
        .where(eq(creditLedger.chargeKey, refundKey))
        .limit(1);
      if (already.length) return;
      await tx
        .update(entitlements)
        .set({ usage: sql`greatest(${entitlements.usage} + ${charge.amount}, 0)` })
        .where(
          and(eq(entitlements.userId, charge.userId), eq(entitlements.feature, charge.feature)),
        );
      await tx.insert(creditLedger).values({
        userId: charge.userId,
        feature: charge.feature,
        amount: -charge.amount,
        chargeKey: refundKey,
        reason: `refund: ${charge.reason}`,
      });
    });
  }
}
