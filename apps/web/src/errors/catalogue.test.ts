import { ERROR_CODES, USAGE_LIMIT_CODES } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { errorDialogFor } from './catalogue';

describe('errorDialogFor (spec §8 global handler)', () => {
  it('opens the Network Disconnected dialog when the server cannot be reached', () => {
    expect(errorDialogFor({ code: ERROR_CODES.NETWORK_DISCONNECTED }, null)).toEqual({
      kind: 'network-disconnected',
    });
  });

  it('words the usage dialog for free, paid and pro-plus users', () => {
    for (const code of USAGE_LIMIT_CODES) {
      expect(errorDialogFor({ code }, null)).toEqual({ kind: 'usage-limit', audience: 'free' });
      expect(errorDialogFor({ code }, 'free')).toEqual({ kind: 'usage-limit', audience: 'free' });
      expect(errorDialogFor({ code }, 'vip_month')).toEqual({
        kind: 'usage-limit',
        audience: 'paid',
      });
      expect(errorDialogFor({ code }, 'svip_year')).toEqual({
        kind: 'usage-limit',
        audience: 'paid',
      });
      expect(errorDialogFor({ code }, 'ssvip_year')).toEqual({
        kind: 'usage-limit',
        audience: 'pro-plus',
      });
    }
  });

  it('prompts for the yearly plan and warns about restricted videos', () => {
    expect(errorDialogFor({ code: ERROR_CODES.NOT_YEARLY_PLAN }, 'vip_month')).toEqual({
      kind: 'not-yearly-plan',
    });
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
