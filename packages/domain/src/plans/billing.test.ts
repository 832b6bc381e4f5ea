import { COMPANY_SIZES, TIERS, type Tier } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { formatCredits } from '../format/index.js';
import {
  CONTENT_REQUIRED,
  FEEDBACK_REQUIRED,
  PLANS,
  billingText,
  canvasExportRemaining,
  entitlementsForPlan,
  findPlan,
  formatDollars,
  yearlySaving,
  isFeatureUsable,
  isUpgradeAllowed,
  monthlyDisplayCents,
  pricingTable,
  proratedAmount,
  taskCost,
  taskQuote,
  taskRunCost,
  exportQuote,
  validateCancelDetails,
  validateCancelSurvey,
  validateEnterpriseForm,
  workCost,
} from './index.js';

const MARKER: Record<Tier, string> = { FREE: 'free', VIP: 'vip', SVIP: 'svip', SSVIP: 'ssvip' };
const planName = (tier: Tier, period: 'month' | 'year' | null) =>
  tier === 'FREE' ? 'free' : `${MARKER[tier]}_${period}`;

describe('upgrade rule, every tier pair x every period pair', () => {
  const periods = ['month', 'year'] as const;
  for (const fromTier of TIERS) {
    for (const fromPeriod of fromTier === 'FREE' ? [null] : periods) {
      for (const toTier of TIERS.filter((t) => t !== 'FREE')) {
        for (const toPeriod of periods) {
          const from = planName(fromTier, fromPeriod);
          const to = planName(toTier, toPeriod);
          const higher = TIERS.indexOf(toTier) > TIERS.indexOf(fromTier);
          const sameOrHigher = TIERS.indexOf(toTier) >= TIERS.indexOf(fromTier);
          const expected =
            fromPeriod === 'year' && toPeriod === 'month'
              ? false
              : fromPeriod === toPeriod
                ? higher
                : sameOrHigher;
          it(`${from} -> ${to} is ${expected ? 'allowed' : 'refused'}`, () => {
            expect(isUpgradeAllowed(from, to)).toBe(expected);
          });
        }
      }
    }
  }
  it('treats the edu standard plan as the VIP tier', () => {
    expect(isUpgradeAllowed('edu_vip_month', 'vip_month')).toBe(false);
    expect(isUpgradeAllowed('edu_vip_month', 'svip_month')).toBe(true);
    expect(isUpgradeAllowed('edu_vip_year', 'vip_month')).toBe(false);
  });
  it('never allows moving to free', () => {
    expect(isUpgradeAllowed('vip_month', 'free')).toBe(false);
    expect(isUpgradeAllowed('free', 'free')).toBe(false);
  });
});

describe('pricing table', () => {
  const table = pricingTable();
  const item = (plan: string) => table.find((entry) => entry.plan === plan)!;

  it('shows the spec yearly per-month prices as the yearly amount divided by 12', () => {
    expect(monthlyDisplayCents(item('vip_year'))).toBe(499);
    expect(monthlyDisplayCents(item('edu_vip_year'))).toBe(399);
    expect(monthlyDisplayCents(item('svip_year'))).toBe(1349);
    expect(monthlyDisplayCents(item('ssvip_year'))).toBe(6999);
    expect(item('vip_year').unit_amount).toBe(5988);
    expect(formatDollars(monthlyDisplayCents(item('svip_year')))).toBe('13.49');
  });

  it('crosses out 13.99 on yearly standard and bills 83.88 after the first year', () => {
    expect(item('vip_year').compare_at_monthly).toBe(1399);
    expect(billingText(item('vip_year'))).toContain('83.88 after the first year');
    expect(item('svip_year').compare_at_monthly).toBeUndefined();
  });

  it('says what yearly standard saves against its monthly price, not against the crossed-out 13.99', () => {
    expect(yearlySaving('vip_year')).toEqual({
      monthlyCents: 999,
      perMonthCents: 499,
      savedCents: 500,
      percent: 50,
    });
    expect(yearlySaving('edu_vip_year')).toMatchObject({ monthlyCents: 799, perMonthCents: 399 });
    expect(yearlySaving('vip_month')).toBeNull();
    expect(yearlySaving('free')).toBeNull();
    expect(yearlySaving('enterprise')).toBeNull();
  });

  it('yearly is at least 50% cheaper per month than monthly for every paid tier', () => {
    for (const marker of ['vip', 'svip', 'ssvip', 'edu_vip']) {
      const monthly = item(`${marker}_month`).unit_amount!;
      expect(monthlyDisplayCents(item(`${marker}_year`))).toBeLessThanOrEqual(monthly / 2);
    }
  });

  it('lists free, every paid tier monthly and yearly, edu and enterprise, with entitlements', () => {
    expect(table.map((entry) => entry.plan)).toEqual(PLANS.map((plan) => plan.plan));
    expect(item('enterprise').type).toBe('enterprise');
    expect(item('free').unit_amount).toBe(0);
    for (const entry of table) {
      expect(entry.currency).toBe('usd');
      expect(entry.interval_count).toBe(1);
      const features = entry.entitlements.map((grant) => grant.feature);
      expect(features).toEqual(
        expect.arrayContaining(['CREDIT', 'FREE_TOOL_CREDIT', 'CANVAS_EXPORT']),
      );
    }
    // A yearly plan grants twelve months of credits; exports stay unlimited on paid plans.
    const credit = (plan: string) => entitlementsForPlan(plan).find((g) => g.feature === 'CREDIT')!;
    expect(credit('svip_year').limit).toBe(credit('svip_month').limit * 12);
    expect(findPlan('free')!.entitlements.find((g) => g.feature === 'CANVAS_EXPORT')!.limit).toBe(
      3,
    );
  });

  it('prorates an upgrade by the unused part of the current period', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const end = new Date('2026-01-31T00:00:00Z');
    const half = new Date('2026-01-16T00:00:00Z');
    expect(
      proratedAmount({ unitAmount: 1000, periodStart: start, periodEnd: end }, 3000, half),
    ).toBe(2500);
    expect(proratedAmount(null, 3000, half)).toBe(3000);
    expect(
      proratedAmount({ unitAmount: 9000, periodStart: start, periodEnd: end }, 1000, start),
    ).toBe(0);
  });
});

describe('entitlements and credits', () => {
  it('is usable when the limit is -1 or usage is below the limit', () => {
    expect(isFeatureUsable({ limit: -1, usage: 10_000 })).toBe(true);
    expect(isFeatureUsable({ limit: 3, usage: 2 })).toBe(true);
    expect(isFeatureUsable({ limit: 3, usage: 3 })).toBe(false);
  });

  it('counts canvas exports left only on the free plan', () => {
    expect(canvasExportRemaining('vip_month', { limit: 3, usage: 3 })).toBe(-1);
    expect(canvasExportRemaining('free', { limit: 3, usage: 1 })).toBe(2);
    expect(canvasExportRemaining('free', { limit: 3, usage: 5 })).toBe(0);
    expect(canvasExportRemaining('free', { limit: -1, usage: 5 })).toBe(-1);
    expect(canvasExportRemaining(null, { limit: 3, usage: 0 })).toBe(3);
  });

  it('displays credits as amount / 10 with at most one decimal', () => {
    expect(formatCredits(600)).toBe('60');
    expect(formatCredits(545)).toBe('54.5');
    expect(formatCredits(5)).toBe('0.5');
    expect(formatCredits(1234)).toBe('123.4');
  });

  it('charges by started minute with the documented price list', () => {
    const tenMinutes = 10 * 60_000;
    expect(workCost('summary', tenMinutes)).toBe(100);
    expect(workCost('captions', tenMinutes)).toBe(200);
    expect(workCost('transcript', tenMinutes)).toBe(200);
    expect(taskRunCost('viral', tenMinutes)).toBe(50);
    expect(taskRunCost('search', tenMinutes)).toBe(50);
    expect(taskRunCost('caption', tenMinutes)).toBe(200);
    expect(taskRunCost('viral', 61_000)).toBe(10); // two started minutes
    expect(taskRunCost('viral', 0)).toBe(5); // a minimum of one minute
  });

  it('prices a task as its run plus the summary, and a follow-up on a transcribed video as its run', () => {
    // The worked example: a 3-minute viral task is 1.5 credits of moments and 3 of summary.
    expect(taskQuote('viral', 3 * 60_000)).toEqual({
      run: 15,
      runKind: 'task-run',
      summary: 30,
      total: 45,
    });
    expect(taskCost('search', 3 * 60_000, true)).toBe(15);
    expect(taskCost('caption', 21 * 60_000)).toBe(630);
    expect(exportQuote('ANIMATED_CAPTION_EXPORT', 90_000)).toEqual({
      kind: 'caption-export',
      feature: 'CREDIT',
      amount: 20,
    });
    expect(exportQuote('VIRAL_MOMENT_EXPORT', 90_000)).toMatchObject({
      feature: 'CANVAS_EXPORT',
      amount: 1,
    });
  });
});

describe('cancel survey', () => {
  it('needs at least one reason', () => {
    expect(validateCancelSurvey([]).error).toBe('feedbackRequired');
  });
  it('needs text for reasons 1-5, not for 6, optionally for 7', () => {
    for (const id of [1, 2, 3, 4, 5]) {
      expect(validateCancelSurvey([{ id, text: '  ' }]).reasonErrors[id]).toBe('contentRequired');
      expect(validateCancelSurvey([{ id, text: 'why' }]).reasonErrors[id]).toBeUndefined();
    }
    const six = validateCancelSurvey([{ id: 6, text: 'ignored' }]);
    expect(six.reasonErrors).toEqual({});
    expect(six.details).toEqual(['I only needed it for one project']);
    expect(validateCancelSurvey([{ id: 7 }]).reasonErrors).toEqual({});
    expect(validateCancelSurvey([{ id: 7, text: 'moving' }]).details).toEqual(['Other: moving']);
  });
  it('validates the details the server receives the same way', () => {
    expect(validateCancelDetails([])).toBe(FEEDBACK_REQUIRED);
    expect(validateCancelDetails(['It is too expensive:'])).toBe(CONTENT_REQUIRED);
    expect(validateCancelDetails(['It is too expensive: $$$', 'Other'])).toBeNull();
    expect(validateCancelDetails(['made up'])).toMatch(/Unknown reason/);
  });
});

describe('enterprise form', () => {
  const valid = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    business_email: 'ada@engines.example',
    company_name: 'Engines Ltd',
    company_size: '51 - 200',
    company_social_channel: 'youtube.com/@engines',
    message: 'We need 200 seats.',
  };
  it('accepts a complete form with each of the six company sizes', () => {
    for (const size of COMPANY_SIZES) {
      expect(validateEnterpriseForm({ ...valid, company_size: size })).toEqual({});
    }
  });
  it('requires every field, a valid email and a known company size', () => {
    expect(Object.keys(validateEnterpriseForm({})).length).toBe(7);
    expect(validateEnterpriseForm({ ...valid, message: ' ' }).message).toBeTruthy();
    expect(
      validateEnterpriseForm({ ...valid, business_email: 'ada@' }).business_email,
    ).toBeTruthy();
    expect(validateEnterpriseForm({ ...valid, company_size: '2 - 3' }).company_size).toBeTruthy();
  });
});
