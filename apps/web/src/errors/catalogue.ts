import { ERROR_CODES, USAGE_LIMIT_CODES } from '@moments/contract';
import { tierOfPlan } from '@moments/domain/plans';

/**
 * spec §8 error catalogue: which dialog an API error opens. Pure, so the mapping is unit-tested;
 * later issues extend it by adding codes here.
 */

export type LimitAudience = 'free' | 'paid' | 'pro-plus';
/** What ran out: credits (balance), the plan's exports, or another plan limit (e.g. video length). */
export type LimitCause = 'credits' | 'exports' | 'usage';

export type ErrorDialog =
  | { kind: 'network-disconnected' }
  /** audience decides the wording; `pro-plus` users are asked to write to us instead (spec §6). */
  | { kind: 'usage-limit'; audience: LimitAudience; cause: LimitCause }
  | { kind: 'not-yearly-plan' }
  | { kind: 'sensitive-information' };

export interface ErrorLike {
  code: string;
  /** Set when the request carried SUPPRESS_ERROR_HEADER. */
  suppressed?: boolean;
}

export function limitCauseOf(code: string): LimitCause {
  if (code === ERROR_CODES.EXPORT_LIMIT_REACHED) return 'exports';
  if (code === ERROR_CODES.USAGE_LIMIT_REACHED) return 'usage';
  return 'credits';
}

export function limitAudienceOf(currentPlan: string | null | undefined): LimitAudience {
  const tier = tierOfPlan(currentPlan);
  return tier === 'SSVIP' ? 'pro-plus' : tier === 'FREE' ? 'free' : 'paid';
}

/** The plan of the signed-in user, or null when signed out. */
export function errorDialogFor(
  error: ErrorLike,
  currentPlan: string | null | undefined,
): ErrorDialog | null {
  if (error.suppressed) return null;
  if (error.code === ERROR_CODES.NETWORK_DISCONNECTED) return { kind: 'network-disconnected' };
  if (USAGE_LIMIT_CODES.has(error.code)) {
    return {
      kind: 'usage-limit',
      audience: limitAudienceOf(currentPlan),
      cause: limitCauseOf(error.code),
    };
  }
  if (error.code === ERROR_CODES.NOT_YEARLY_PLAN) return { kind: 'not-yearly-plan' };
  if (error.code === ERROR_CODES.SENSITIVE_INFORMATION) return { kind: 'sensitive-information' };
  return null;
}

/** Title and text of the usage-limit dialog: names what ran out, worded for the user's plan. */
export function limitDialogWording(
  cause: LimitCause,
  audience: LimitAudience,
): { title: string; text: string; action: string } {
  const title = {
    credits: "You're out of credits",
    exports: "You've reached your export limit",
    usage: "You've reached a limit of your plan",
  }[cause];
  const what = {
    credits: 'the credits',
    exports: 'all the exports',
    usage: 'the limits',
  }[cause];
  const text = {
    free: `You have used ${what} included in the free plan. Upgrade to ${
      cause === 'exports' ? 'export more clips' : 'keep finding moments and exporting clips'
    }.`,
    paid: `You have used ${what} of your current plan for this period. Move to a bigger plan${
      cause === 'credits' ? ' or add credits' : ''
    } to continue.`,
    'pro-plus': `You have used ${what} of the Pro plus plan. Write to us and we'll raise your limits.`,
  }[audience];
  const action =
    audience === 'pro-plus' ? 'Contact us' : audience === 'free' ? 'Upgrade' : 'See plans';
  return { title, text, action };
}
