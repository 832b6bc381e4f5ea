import { ERROR_CODES, USAGE_LIMIT_CODES } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { errorDialogFor, limitCauseOf, limitDialogWording } from './catalogue';

describe('errorDialogFor (global error handler)', () => {
  it('opens the Network Disconnected dialog when the server cannot be reached', () => {
    expect(errorDialogFor({ code: ERROR_CODES.NETWORK_DISCONNECTED }, null)).toEqual({
      kind: 'network-disconnected',
    });
  });

  it('words the usage dialog for free, paid and pro-plus users', () => {
    for (const code of USAGE_LIMIT_CODES) {
      const cause = limitCauseOf(code);
      expect(errorDialogFor({ code }, null)).toEqual({
        kind: 'usage-limit',
        audience: 'free',
        cause,
      });
      expect(errorDialogFor({ code }, 'free')).toEqual({
        kind: 'usage-limit',
        audience: 'free',
        cause,
      });
      expect(errorDialogFor({ code }, 'vip_month')).toEqual({
        kind: 'usage-limit',
        audience: 'paid',
        cause,
      });
      expect(errorDialogFor({ code }, 'svip_year')).toEqual({
        kind: 'usage-limit',
        audience: 'paid',
        cause,
      });
      expect(errorDialogFor({ code }, 'ssvip_year')).toEqual({
        kind: 'usage-limit',
        audience: 'pro-plus',
        cause,
      });
    }
  });

  it('names what ran out: credits, the export limit or another plan limit', () => {
    expect(limitCauseOf(ERROR_CODES.BALANCE_NOT_ENOUGH)).toBe('credits');
    expect(limitCauseOf(ERROR_CODES.CREDIT_LIMIT_REACHED)).toBe('credits');
    expect(limitCauseOf(ERROR_CODES.EXPORT_LIMIT_REACHED)).toBe('exports');
    expect(limitCauseOf(ERROR_CODES.USAGE_LIMIT_REACHED)).toBe('usage');

    const exportsFree = limitDialogWording('exports', 'free');
    expect(exportsFree.title).toMatch(/export limit/);
    expect(exportsFree.text).toMatch(/exports included in the free plan/);
    expect(exportsFree.text).not.toMatch(/credit/i);
    expect(exportsFree.action).toBe('Upgrade');

    const creditsFree = limitDialogWording('credits', 'free');
    expect(creditsFree.text).toMatch(/credits included in the free plan/);
    const creditsPaid = limitDialogWording('credits', 'paid');
    expect(creditsPaid.text).toMatch(/credits of your current plan/);
    expect(creditsPaid.text).toMatch(/add credits/);
    expect(limitDialogWording('exports', 'paid').text).not.toMatch(/credit/i);
    expect(limitDialogWording('usage', 'paid').title).toMatch(/limit of your plan/);
    const proPlus = limitDialogWording('credits', 'pro-plus');
    expect(proPlus.action).toBe('Contact us');
    expect(proPlus.text).toMatch(/Write to us/);
  });

  it('prompts for the yearly plan and warns about restricted videos', () => {
    // The dialog names the feature the server refused, not "this feature".
    expect(
      errorDialogFor(
        { code: ERROR_CODES.NOT_YEARLY_PLAN, message: 'Batch exports need a yearly plan' },
        'vip_month',
      ),
    ).toEqual({ kind: 'not-yearly-plan', feature: 'Batch exports need a yearly plan' });
    expect(errorDialogFor({ code: ERROR_CODES.SENSITIVE_INFORMATION }, null)).toEqual({
      kind: 'sensitive-information',
    });
  });

  it('stays silent for suppressed requests and for codes pages handle themselves', () => {
    expect(
      errorDialogFor({ code: ERROR_CODES.NETWORK_DISCONNECTED, suppressed: true }, null),
    ).toBeNull();
    expect(
      errorDialogFor({ code: ERROR_CODES.USAGE_LIMIT_REACHED, suppressed: true }, 'free'),
    ).toBe(null);
    expect(errorDialogFor({ code: ERROR_CODES.INVALID_CREDENTIALS }, null)).toBeNull();
    expect(errorDialogFor({ code: ERROR_CODES.UNAUTHORIZED }, null)).toBeNull();
  });
});
