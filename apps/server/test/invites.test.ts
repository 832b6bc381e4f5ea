import path from 'node:path';
import { REFERRAL_REWARD } from '@moments/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/http/types.js';
import { OutboxMailer } from '../src/modules/mail/index.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const creditLimit = async (app: App, headers: Record<string, string>) => {
  const info = await app.inject({ method: 'GET', url: '/api/user/info', headers });
  const credit = (info.json().data.entitlements as { feature: string; limit: number }[]).find(
    (grant) => grant.feature === 'CREDIT',
  );
  return credit?.limit ?? 0;
};

/** Signs up through the HTTP flow the landing page leads to, carrying the referral code. */
async function signUpReferred(app: App, who: string, referral: string) {
  const email = `${who}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email, password: 'a sturdy passphrase', username: who, referral },
  });
  expect(response.statusCode).toBe(200);
  const data = response.json().data as { token: string; user: { id: string } };
  return { email, userId: data.user.id, headers: { authorization: `Bearer ${data.token}` } };
}

describe.each(DATABASE_TARGETS)('invites and referral rewards on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), { PUBLIC_URL: 'https://moments.test' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rewards both sides once when an invited friend takes a first paid plan', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const ana = await signUp(t.app, 'ana');
    const info = (
      await t.app.inject({ method: 'GET', url: '/api/invite/info', headers: ana.headers })
    ).json().data;
    expect(info.link).toBe(`https://moments.test/invite/landing?ref=${info.code}`);
    expect(info.reward).toEqual(REFERRAL_REWARD);
    // The same code every visit.
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/invite/info',
      headers: ana.headers,
    });
    expect(again.json().data.code).toBe(info.code);

    const landing = await t.app.inject({
      method: 'GET',
      url: `/api/invite/landing?ref=${info.code}`,
    });
    expect(landing.json().data).toMatchObject({ valid: true, inviter: 'ana' });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/invite/landing?ref=nope-nope' });
    expect(unknown.json().data).toMatchObject({ valid: false, inviter: null });

    const ben = await signUpReferred(t.app, 'ben', info.code);
    const anaBefore = await creditLimit(t.app, ana.headers);
    const benBefore = await creditLimit(t.app, ben.headers);

    // Billing's hook may fire twice (webhook retry) or concurrently: one reward only.
    await Promise.all([
      t.services.referrals.rewardFirstPaidPlan(ben.userId, info.code),
      t.services.referrals.rewardFirstPaidPlan(ben.userId, info.code),
    ]);
    await t.services.referrals.rewardFirstPaidPlan(ben.userId);

    expect(await creditLimit(t.app, ana.headers)).toBe(anaBefore + REFERRAL_REWARD.referrer);
    expect(await creditLimit(t.app, ben.headers)).toBe(benBefore + REFERRAL_REWARD.friend);
    const counts = (
      await t.app.inject({ method: 'GET', url: '/api/invite/info', headers: ana.headers })
    ).json().data;
    expect(counts).toMatchObject({ invited: 1, rewarded: 1 });

    const outbox = await new OutboxMailer(path.join(t.dataDir, 'outbox')).list();
    const rewardMails = outbox.filter((mail) => mail.category === 'referral');
    expect(rewardMails).toHaveLength(1);
    expect(rewardMails[0]).toMatchObject({ to: ana.email, subject: 'You earned 50 credits' });
    expect(rewardMails[0]!.text).toContain('ben took a paid plan');
  });

  it('never rewards a self-referral or a user who came without an invite', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const cleo = await signUp(t.app, 'cleo');
    const code = (
      await t.app.inject({ method: 'GET', url: '/api/invite/info', headers: cleo.headers })
    ).json().data.code as string;
    const before = await creditLimit(t.app, cleo.headers);
    await t.services.referrals.rewardFirstPaidPlan(cleo.userId, code);
    expect(await creditLimit(t.app, cleo.headers)).toBe(before);

    const dan = await signUp(t.app, 'dan');
    const danBefore = await creditLimit(t.app, dan.headers);
    await t.services.referrals.rewardFirstPaidPlan(dan.userId);
    await t.services.referrals.rewardFirstPaidPlan(dan.userId, 'not-a-code');
    expect(await creditLimit(t.app, dan.headers)).toBe(danBefore);
    const counts = (
      await t.app.inject({ method: 'GET', url: '/api/invite/info', headers: cleo.headers })
    ).json().data;
    expect(counts).toMatchObject({ invited: 0, rewarded: 0 });
  });

  it('keeps the first referrer when a later checkout names another code', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const first = await signUp(t.app, 'first');
    const second = await signUp(t.app, 'second');
    const codeOf = async (headers: Record<string, string>) =>
      (await t.app.inject({ method: 'GET', url: '/api/invite/info', headers })).json().data
        .code as string;
    const friend = await signUpReferred(t.app, 'eve', await codeOf(first.headers));
    const secondBefore = await creditLimit(t.app, second.headers);
    const firstBefore = await creditLimit(t.app, first.headers);
    await t.services.referrals.rewardFirstPaidPlan(friend.userId, await codeOf(second.headers));
    expect(await creditLimit(t.app, first.headers)).toBe(firstBefore + REFERRAL_REWARD.referrer);
    expect(await creditLimit(t.app, second.headers)).toBe(secondBefore);
  });
});
