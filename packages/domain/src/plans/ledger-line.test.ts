import { describe, expect, it } from 'vitest';
import {
  CHARGE_KIND_LABELS,
  CHARGE_KINDS,
  LEDGER_REASONS,
  ledgerLine,
  planGrantReason,
} from './credits.js';

// The credit history words what the ledger stored; every reason the ledger writes reads back as
// what it is, so no stored English (or "CREATE vip_year") reaches the screen.
describe('ledgerLine', () => {
  it('reads every charge and its refund back to the kind of work', () => {
    for (const kind of CHARGE_KINDS) {
      const reason = CHARGE_KIND_LABELS[kind];
      expect(ledgerLine({ kind: 'charge', reason, action: null })).toEqual({
        what: 'charge',
        work: kind,
      });
      expect(
        ledgerLine({
          kind: 'refund',
          reason: `${LEDGER_REASONS.refundPrefix}${reason}`,
          action: null,
        }),
      ).toEqual({ what: 'refund', work: kind });
    }
  });

  it('reads a plan grant as its action and plan, whether or not an action was given', () => {
    expect(
      ledgerLine({
        kind: 'grant',
        reason: planGrantReason('CREATE', 'vip_year'),
        action: 'CREATE',
      }),
    ).toEqual({ what: 'plan', action: 'CREATE', plan: 'vip_year' });
    expect(
      ledgerLine({ kind: 'grant', reason: planGrantReason(null, 'free'), action: null }),
    ).toEqual({ what: 'plan', action: null, plan: 'free' });
  });

  it('names the period end, a top-up and an invite reward, and anything else only as a change', () => {
    const line = (kind: string, reason: string) => ledgerLine({ kind, reason, action: null }).what;
    expect(line('expire', LEDGER_REASONS.planPeriodEnd)).toBe('plan-end');
    expect(line('grant', LEDGER_REASONS.topUp)).toBe('top-up');
    expect(line('grant', LEDGER_REASONS.inviteReward)).toBe('invite-reward');
    expect(line('grant', 'Manual adjustment by the operator')).toBe('other');
    expect(line('charge', 'Something new')).toBe('charge');
    expect(ledgerLine({ kind: 'charge', reason: 'Something new', action: null })).toEqual({
      what: 'charge',
      work: null,
    });
  });
});
