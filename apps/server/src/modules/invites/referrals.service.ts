import { randomBytes } from 'node:crypto';
import type { InviteInfo, InviteLanding } from '@moments/contract';
import { REFERRAL_CODE_PATTERN, REFERRAL_QUERY_PARAM, REFERRAL_REWARD } from '@moments/domain';
import type { ReferralsRepository } from './referrals.repository.js';

export interface ReferralEvents {
  /** The referrer was credited `credits` (display units) because `friendName` paid. */
  rewarded(referrerId: string, friendName: string, credits: number): Promise<void>;
}

/**
 * Invites: every user has a referral code; a sign-up through it is recorded,
 * and the first paid plan of the invited friend credits both once. No self-referral.
 */
export class ReferralsService {
  constructor(
    private readonly repo: ReferralsRepository,
    private readonly publicUrl: string,
    private readonly events?: ReferralEvents,
    private readonly usernameOf?: (userId: string) => Promise<string | undefined>,
  ) {}

  async codeFor(userId: string): Promise<string> {
    for (;;) {
      const existing = await this.repo.codeOf(userId);
      if (existing) return existing;
      // 9 random bytes: 12 URL-safe characters; a clash only means one more try.
      await this.repo.insertCode(userId, randomBytes(9).toString('base64url'));
    }
  }

  async info(userId: string): Promise<InviteInfo> {
    const code = await this.codeFor(userId);
    const link = new URL('/invite/landing', this.publicUrl);
    link.searchParams.set(REFERRAL_QUERY_PARAM, code);
    return {
      code,
      link: link.toString(),
      reward: { ...REFERRAL_REWARD },
      ...(await this.repo.counts(userId)),
    };
  }

  async landing(code: string | undefined): Promise<InviteLanding> {
    const owner =
      code && REFERRAL_CODE_PATTERN.test(code) ? await this.repo.ownerOfCode(code) : undefined;
    return { valid: !!owner, inviter: owner?.username ?? null, reward: { ...REFERRAL_REWARD } };
  }

  /** At sign-up: remembers who invited the new user. Unknown codes and self-referral are ignored. */
  async recordSignup(userId: string, referral: string | undefined): Promise<void> {
    const referrerId = await this.referrerOf(referral);
    if (referrerId && referrerId !== userId) await this.repo.record(userId, referrerId);
  }

  /**
   * Billing's onFirstPaidPlan hook: `userId` just started a first paid plan, with the
   * `referral` of subscription create if any. Rewards the referral once; later calls do nothing.
   */
  async rewardFirstPaidPlan(userId: string, referral?: string): Promise<void> {
    // A code given at checkout counts when sign-up recorded none (the referral table keeps the first).
    await this.recordSignup(userId, referral);
    const referrerId = await this.repo.rewardOnce(userId, REFERRAL_REWARD);
    if (!referrerId) return;
    const friendName = (await this.usernameOf?.(userId)) ?? 'A friend';
    await this.events?.rewarded(referrerId, friendName, REFERRAL_REWARD.referrer / 10);
  }

  private async referrerOf(code: string | undefined): Promise<string | undefined> {
    if (!code || !REFERRAL_CODE_PATTERN.test(code)) return undefined;
    return (await this.repo.ownerOfCode(code))?.id;
  }
}
