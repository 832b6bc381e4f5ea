import { ERROR_CODES, USAGE_LIMIT_CODES } from '@moments/contract';
import { tierOfPlan } from '@moments/domain/plans';

/**
 * spec §8 error catalogue: which dialog an API error opens. Pure, so the mapping is unit-tested;
 * later issues extend it by adding codes here.
 */

export type ErrorDialog =
  | { kind: 'network-disconnected' }
  /** audience decides the wording; `pro-plus` users are asked to write to us instead (spec §6). */
  | { kind: 'usage-limit'; audience: 'free' | 'paid' | 'pro-plus' }
  | { kind: 'not-yearly-plan' }
  | { kind: 'sensitive-information' };

export interface ErrorLike {
  code: string;
  /** Set when the request carried SUPPRESS_ERROR_HEADER. */
  suppressed?: boolean;
}

/** The plan of the signed-in user, or null when signed out. */
export function errorDialogFor(
  error: ErrorLike,
  currentPlan: string | null | undefined,
): ErrorDialog | null {
  if (error.suppressed) return null;
  if (error.code === ERROR_CODES.NETWORK_DISCONNECTED) return { kind: 'network-disconnected' };
  if (USAGE_LIMIT_CODES.has(error.code)) {
    const tier = tierOfPlan(currentPlan);
    const audience = tier === 'SSVIP' ? 'pro-plus' : tier === 'FREE' ? 'free' : 'paid';
    return { kind: 'usage-limit', audience };
  }
  if (error.code === ERROR_CODES.NOT_YEARLY_PLAN) return { kind: 'not-yearly-plan' };
  if (error.code === ERROR_CODES.SENSITIVE_INFORMATION) return { kind: 'sensitive-information' };
  return null;
}
