import { describe, expect, it } from 'vitest';
import {
  creditCostText,
  describePlan,
  exportAllowanceText,
  hasNoCreditsLeft,
  planButtonState,
  planChangeKind,
  trackPaymentSession,
} from './plan';

describe('plan names', () => {
  it('describes a plan by its tier and period markers', () => {
    expect(describePlan('edu_vip_year')).toBe('Standard, education (yearly)');
    expect(describePlan('svip_month')).toBe('Pro (monthly)');
    expect(describePlan('ssvip_year')).toBe('Pro plus (yearly)');
    expect(describePlan(null)).toBe('Free');
  });
});

describe('credits (community pop-up)', () => {
  it('detects users with neither paid nor free-tool credits left', () => {
    const user = (credit: number, free: number) => ({
      entitlements: [
        { feature: 'CREDIT', limit: 100, usage: 100 - credit },
        { feature: 'FREE_TOOL_CREDIT', limit: 50, usage: 50 - free },
      ],
    });
    expect(hasNoCreditsLeft(user(0, 0))).toBe(true);
    expect(hasNoCreditsLeft(user(10, 0))).toBe(false);
    expect(hasNoCreditsLeft(user(0, 5))).toBe(false);
    expect(hasNoCreditsLeft({ entitlements: [{ feature: 'CREDIT', limit: -1, usage: 9 }] })).toBe(
      false,
    );
  });
});

describe('plan card buttons', () => {
  const item = (
    plan: string,
    unit_amount: number | null = 999,
    type: 'price' | 'enterprise' = 'price',
  ) => ({
    plan,
    unit_amount,
    type,
  });
  const sub = (current_plan: string, cancel_at_period_end = false) => ({
    current_plan,
    cancel_at_period_end,
  });

  it('disables the current plan and free, selects upgrades, contacts for enterprise', () => {
    expect(planButtonState(sub('free'), item('free', 0))).toBe('current');
    expect(planButtonState(sub('vip_month'), item('free', 0))).toBe('disabled');
    expect(planButtonState(sub('vip_month'), item('vip_month'))).toBe('current');
    expect(planButtonState(sub('vip_month'), item('svip_month'))).toBe('select');
    expect(planButtonState(sub('vip_month'), item('vip_year'))).toBe('select');
    expect(planButtonState(sub('svip_year'), item('ssvip_month'))).toBe('disabled');
    expect(planButtonState(sub('svip_month'), item('vip_month'))).toBe('disabled');
    expect(planButtonState(sub('free'), item('enterprise', null, 'enterprise'))).toBe('contact');
    expect(planButtonState(null, item('vip_month'))).toBe('select');
  });

  it('lets a user with a pending cancellation keep the current plan or upgrade', () => {
    expect(planButtonState(sub('svip_year', true), item('svip_year'))).toBe('select');
    expect(planButtonState(sub('svip_year', true), item('ssvip_year'))).toBe('select');
    expect(planButtonState(sub('svip_year', true), item('vip_year'))).toBe('disabled');
  });

  it('starts a checkout for free users and a change for paid ones', () => {
    expect(planChangeKind('free')).toBe('checkout');
    expect(planChangeKind(null)).toBe('checkout');
    expect(planChangeKind('vip_month')).toBe('change');
  });
});

describe('payment return', () => {
  it('tracks a session id once and keeps the last 30', () => {
    let history: string[] = [];
    for (let i = 0; i < 35; i++) history = trackPaymentSession(history, `cs_${i}`).history;
    expect(history).toHaveLength(30);
    expect(history[0]).toBe('cs_5');
    expect(trackPaymentSession(history, 'cs_34').isNew).toBe(false);
    expect(trackPaymentSession(history, 'cs_0').isNew).toBe(true);
  });
});

describe('cost and allowance shown before the user clicks', () => {
  const user = (plan: string, exportsUsed: number, creditUsed = 0) => ({
    subscription: { current_plan: plan, cancel_at_period_end: false },
    entitlements: [
      { feature: 'CANVAS_EXPORT', limit: plan === 'free' ? 3 : -1, usage: exportsUsed },
      { feature: 'CREDIT', limit: 600, usage: creditUsed },
    ],
  });
  it('counts the free plan exports left, and says unlimited on paid plans', () => {
    expect(exportAllowanceText(user('free', 1))).toBe('2 exports left on the free plan');
    expect(exportAllowanceText(user('free', 2))).toBe('1 export left on the free plan');
    expect(exportAllowanceText(user('free', 3))).toMatch(/^No exports left/);
    expect(exportAllowanceText(user('vip_month', 40))).toBe('Unlimited exports on your plan');
    expect(exportAllowanceText(null)).toBeNull();
  });
  it('shows the cost and the credits left, and warns when they do not cover it', () => {
    expect(creditCostText(50, user('free', 0, 45))).toBe('Costs 5 credits · 55.5 credits left');
    expect(creditCostText(5, user('free', 0))).toBe('Costs 0.5 credits · 60 credits left');
    expect(creditCostText(600, user('free', 0, 100))).toMatch(/not enough for this video$/);
    expect(creditCostText(null, user('free', 0))).toBe(
      'Credits are charged by video length · 60 credits left',
    );
  });
});
