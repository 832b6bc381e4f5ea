import { describe, expect, it } from 'vitest';
import { describePlan, hasNoCreditsLeft } from './plan';

describe('plan names (spec §3)', () => {
  it('describes a plan by its tier and period markers', () => {
    expect(describePlan('edu_vip_year')).toBe('Standard, education (yearly)');
    expect(describePlan('svip_month')).toBe('Pro (monthly)');
    expect(describePlan('ssvip_year')).toBe('Pro plus (yearly)');
    expect(describePlan(null)).toBe('Free');
  });
});

describe('credits (spec §2 community pop-up)', () => {
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
