import { LEDGER_REASONS } from '@moments/domain/plans';
import { and, count, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { referralCodes, referrals, users } from '../../db/schema.js';
import type { Ledger } from '../billing/index.js';

export class ReferralsRepository {
  constructor(
    private readonly db: Db,
    /** Rewards go into the reward bucket through the ledger. */
    private readonly ledger: Pick<Ledger, 'grant'>,
  ) {}

  async codeOf(userId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ code: referralCodes.code })
      .from(referralCodes)
      .where(eq(referralCodes.userId, userId))
      .limit(1);
    return row?.code;
  }

  /** Inserts the code unless the user has one already; false when the code is taken. */
  async insertCode(userId: string, code: string): Promise<boolean> {
    const rows = await this.db
      .insert(referralCodes)
      .values({ userId, code })
      .onConflictDoNothing()
      .returning({ code: referralCodes.code });
    return rows.length > 0;
  }

  async ownerOfCode(code: string): Promise<{ id: string; username: string } | undefined> {
    const [row] = await this.db
      .select({ id: users.id, username: users.username })
      .from(referralCodes)
      .innerJoin(users, eq(users.id, referralCodes.userId))
      .where(eq(referralCodes.code, code))
      .limit(1);
    return row;
  }

  /** Records who invited `referredId`; a user is referred at most once (first wins). */
  async record(referredId: string, referrerId: string): Promise<void> {
    await this.db.insert(referrals).values({ referredId, referrerId }).onConflictDoNothing();
  }

  async counts(referrerId: string): Promise<{ invited: number; rewarded: number }> {
    const [invited] = await this.db
      .select({ n: count() })
      .from(referrals)
      .where(eq(referrals.referrerId, referrerId));
    const [rewarded] = await this.db
      .select({ n: count() })
      .from(referrals)
      .where(and(eq(referrals.referrerId, referrerId), isNotNull(referrals.rewardedAt)));
    return { invited: invited?.n ?? 0, rewarded: rewarded?.n ?? 0 };
  }

  /**
   * Marks the referral of `referredId` rewarded and credits both sides, in one transaction; the
   * conditional update is what makes a second call (or a concurrent one) a no-op. Returns the
   * referrer when this call did the reward.
   */
  async rewardOnce(
    referredId: string,
    amounts: { referrer: number; friend: number },
  ): Promise<string | undefined> {
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(referrals)
        .set({ rewardedAt: new Date() })
        .where(and(eq(referrals.referredId, referredId), isNull(referrals.rewardedAt)))
        .returning({ referrerId: referrals.referrerId });
      if (!claimed) return undefined;
      const reward = (userId: string, amount: number, key: string) =>
        this.ledger.grant(
          userId,
          { source: 'reward', amount, key, reason: LEDGER_REASONS.inviteReward },
          { tx },
        );
      await reward(claimed.referrerId, amounts.referrer, `referral:${referredId}:referrer`);
      await reward(referredId, amounts.friend, `referral:${referredId}:friend`);
      return claimed.referrerId;
    });
  }
}
