import { describe, expect, it } from 'vitest';
import { formatViewCount, formatDuration } from '../lib/format';
import { describePlan, formatCredits, hasNoCreditsLeft, isYearlyPlan, planTier } from './plan';

describe('plan markers (spec §3)', () => {
  it('reads the tier from the plan name, longest marker first', () => {
    expect(planTier(null)).toBe('FREE');
    expect(planTier('free')).toBe('FREE');
    expect(planTier('vip_month')).toBe('VIP');
    expect(planTier('edu_vip_year')).toBe('VIP');
    expect(planTier('svip_month')).toBe('SVIP');
    expect(planTier('ssvip_year')).toBe('SSVIP');
    expect(isYearlyPlan('svip_year')).toBe(true);
    expect(isYearlyPlan('svip_month')).toBe(false);
    expect(isYearlyPlan(null)).toBe(false);
    expect(describePlan('edu_vip_year')).toBe('Standard, education (yearly)');
    expect(describePlan(null)).toBe('Free');
  });
});

describe('credits and counts (spec §9)', () => {
  it('shows credits divided by 10 with at most one decimal', () => {
    expect(formatCredits(300)).toBe('30');
    expect(formatCredits(125)).toBe('12.5');
    expect(formatCredits(7)).toBe('0.7');
    expect(formatCredits(0)).toBe('0');
    expect(formatCredits(1234)).toBe('123.4');
  });

  it('abbreviates view counts and formats durations', () => {
    expect(formatViewCount(999)).toBe('999');
    expect(formatViewCount(1500)).toBe('1.5K');
    expect(formatViewCount(2_000_000)).toBe('2M');
    expect(formatViewCount(3_450_000_000)).toBe('3.4B');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
  });

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
