import * as en from '@moments/domain/format';
import * as plans from '@moments/domain/plans';
import { describe, expect, it } from 'vitest';
import * as web from './domain';

// The screens word the domain's codes through the catalogue; in English they read exactly as the
// server's English does (receipts, mails, API answers), so a person sees one wording everywhere.
describe("the web's words for the domain's codes", () => {
  it('names plans and billing lines as the server does', () => {
    for (const plan of [
      null,
      'free',
      'vip_month',
      'svip_year',
      'ssvip_edu_year',
      'vip_edu_month',
      'svip',
    ]) {
      expect(web.describePlan(plan)).toBe(plans.describePlan(plan));
    }
    expect(web.describePlan('ssvip_edu_year')).toBe('Pro plus, education (yearly)');
    const items: Array<Pick<plans.PricingItem, 'interval' | 'unit_amount' | 'renewal_amount'>> = [
      { interval: 'month', unit_amount: null },
      { interval: 'month', unit_amount: 0 },
      { interval: 'month', unit_amount: 1250 },
      { interval: 'year', unit_amount: 9900 },
      { interval: 'year', unit_amount: 4950, renewal_amount: 9900 },
    ];
    for (const item of items) expect(web.billingText(item)).toBe(plans.billingText(item));
    expect(web.billingText(items[4]!)).toBe(
      'Billed $49.50 for the first year, $99.00 after the first year',
    );
  });

  it('words cancel reasons and form errors as the server does', () => {
    for (const reason of plans.CANCEL_REASONS) {
      expect(web.cancelReasonLabel(reason.id)).toBe(reason.label);
    }
    for (const [code, text] of Object.entries(plans.SURVEY_ERRORS_EN)) {
      expect(web.surveyErrorText(code as plans.SurveyError)).toBe(text);
    }
    for (const [code, text] of Object.entries(plans.ENTERPRISE_ERRORS_EN)) {
      expect(web.enterpriseErrorText(code as plans.EnterpriseError)).toBe(text);
    }
    expect(web.passwordProblemText({ code: 'tooShort', min: 8 })).toBe('Use at least 8 characters');
  });

  it('says how long ago and how many as the spec words them', () => {
    const now = Date.UTC(2026, 10, 25);
    const ago = [0, 61e3, 2 * 3600e3, 86400e3, 3 * 86400e3, 40 * 86400e3, 800 * 86400e3];
    for (const ms of ago)
      expect(web.formatRelativeTime(now - ms, now)).toBe(en.formatRelativeTime(now - ms, now));
    expect(web.formatRelativeTime(now - 3 * 86400e3, now)).toBe('3 days ago');
    for (const count of [999, 1000, 1234, 2_500_000, 3e9]) {
      expect(web.formatViewCount(count)).toBe(en.formatViewCount(count));
    }
    expect(web.formatViewCount(1234)).toBe('1.2K');
    for (const seconds of [1, 45, 60, 61, 600, 3574, 3601, 7200]) {
      expect(web.formatWait(seconds)).toBe(en.formatWait(seconds));
    }
  });

  it('shows the catalogue text for a known code and the server words for any other', () => {
    expect(web.apiErrorText('INVALID_CREDENTIALS', 'Mauvais mot de passe')).toBe(
      'Wrong email or password',
    );
    expect(web.apiErrorText('LINK_NOT_FOUND', 'No video at that link')).toBe(
      'No video at that link',
    );
    // An upload whose picture is too large says so, never that it is not a video.
    expect(web.apiErrorText('VIDEO_FRAME_TOO_LARGE', 'x')).toMatch(/larger than 8K \(7680x4320\)/);
    expect(web.mailCategoryLabel('billing', 'x')).toBe('Receipts and plan changes');
    expect(web.mailCategoryLabel('digest', 'Weekly digest')).toBe('Weekly digest');
  });

  it('says in words what a credit movement was: the work charged, or why it went back', () => {
    const line = (
      kind: 'charge' | 'refund' | 'grant',
      charge_kind: string | null,
      refund_cause: string | null = null,
    ) => web.creditMovementText({ kind, charge_kind, refund_cause, reason: 'Refund: Summary' });
    expect(line('charge', 'summary')).toBe('Summary');
    expect(line('refund', 'summary', 'no_speech')).toBe(
      'Summary given back: the video has no speech, so there was nothing to summarise',
    );
    expect(line('refund', 'task-run', 'failed')).toBe(
      'Viral moments given back: it failed, so it cost nothing',
    );
    expect(line('refund', 'export', 'deleted')).toBe(
      'Clip export given back: deleted before it was finished',
    );
    expect(line('refund', 'summary-refresh', 'not_made')).toBe(
      'Summary refresh given back: no summary could be made',
    );
    // Older refunds kept no cause; no line shows a code.
    expect(line('refund', 'question')).toBe('Question given back');
    expect(line('refund', 'question', 'SOMETHING_NEW')).toBe('Question given back');
    for (const kind of plans.CHARGE_KINDS) {
      for (const cause of [...plans.REFUND_CAUSES, null]) {
        const text = line('refund', kind, cause);
        expect(text).not.toMatch(/[a-z]+[-_][a-z]+|domain\./);
      }
    }
    // Plan grants keep the server's line (it names the plan).
    expect(
      web.creditMovementText({ kind: 'grant', charge_kind: null, reason: 'Pro (monthly)' }),
    ).toBe('Pro (monthly)');
  });
});
