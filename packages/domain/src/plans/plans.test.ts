import { describe, expect, it } from 'vitest';
import {
  canvasExportRemaining,
  describePlan,
  isFeatureUsable,
  isUpgradeAllowed,
  maxClipExportMs,
  PLANS,
  remainingUnits,
  tierOfPlan,
} from './index.js';

describe('plan rules', () => {
  it('reads tiers from plan names', () => {
    expect(tierOfPlan('free')).toBe('FREE');
    expect(tierOfPlan('vip_month')).toBe('VIP');
    expect(tierOfPlan('svip_year')).toBe('SVIP');
    expect(tierOfPlan('ssvip_month')).toBe('SSVIP');
    expect(tierOfPlan('edu_vip_year')).toBe('VIP');
    expect(tierOfPlan(null)).toBe('FREE');
  });

  it('names a plan by its tier, education marker and period, as pages and receipts show it', () => {
    expect(describePlan('edu_vip_year')).toBe('Standard, education (yearly)');
    expect(describePlan('svip_month')).toBe('Pro (monthly)');
    expect(describePlan('ssvip_year')).toBe('Pro plus (yearly)');
    expect(describePlan('vip_month')).toBe('Standard (monthly)');
    expect(describePlan('free')).toBe('Free');
    expect(describePlan(null)).toBe('Free');
  });

  it('tells what is left of an entitlement, unlimited as null', () => {
    expect(remainingUnits({ limit: 10, usage: 3 })).toBe(7);
    expect(remainingUnits({ limit: 10, usage: 12 })).toBe(0);
    expect(remainingUnits({ limit: -1, usage: 500 })).toBeNull();
  });

  it('applies the upgrade rule', () => {
    expect(isUpgradeAllowed('vip_month', 'svip_month')).toBe(true);
    expect(isUpgradeAllowed('svip_month', 'vip_month')).toBe(false);
    expect(isUpgradeAllowed('vip_month', 'vip_month')).toBe(false);
    expect(isUpgradeAllowed('vip_month', 'vip_year')).toBe(true);
    expect(isUpgradeAllowed('svip_month', 'vip_year')).toBe(false);
    expect(isUpgradeAllowed('vip_year', 'ssvip_month')).toBe(false);
    expect(isUpgradeAllowed('free', 'vip_month')).toBe(true);
  });

  it('decides usability and canvas export remaining', () => {
    expect(isFeatureUsable({ limit: -1, usage: 999 })).toBe(true);
    expect(isFeatureUsable({ limit: 3, usage: 2 })).toBe(true);
    expect(isFeatureUsable({ limit: 3, usage: 3 })).toBe(false);
    expect(canvasExportRemaining('vip_month', { limit: 3, usage: 9 })).toBe(-1);
    expect(canvasExportRemaining('free', { limit: 3, usage: 1 })).toBe(2);
    expect(canvasExportRemaining('free', { limit: 3, usage: 7 })).toBe(0);
    expect(canvasExportRemaining('free', { limit: -1, usage: 7 })).toBe(-1);
  });

  it('gives every plan a finite longest clip, longer on the higher tiers', () => {
    expect(maxClipExportMs('free')).toBe(3 * 60_000);
    expect(maxClipExportMs('a plan nobody sells')).toBe(3 * 60_000);
    expect(maxClipExportMs('vip_month')).toBeGreaterThan(maxClipExportMs('free'));
    expect(maxClipExportMs('svip_year')).toBeGreaterThan(maxClipExportMs('vip_year'));
    expect(maxClipExportMs('ssvip_month')).toBeGreaterThan(maxClipExportMs('svip_month'));
    for (const plan of PLANS) expect(maxClipExportMs(plan.plan)).toBeGreaterThan(0);
  });
});
