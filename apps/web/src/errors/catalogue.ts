import { ERROR_CODES, USAGE_LIMIT_CODES } from '@moments/contract';
import { tierOfPlan } from '@moments/domain/plans';
import { t } from '../messages/catalogue';

/**
 * The error catalogue: which dialog an API error opens. Pure, so the mapping is unit-tested;
 * new features extend it by adding codes here.
 */

export type LimitAudience = 'free' | 'paid' | 'pro-plus';
/** What ran out: credits (balance), the plan's exports, the longest video, or another plan limit. */
export type LimitCause = 'credits' | 'exports' | 'usage' | 'too-long';

export type ErrorDialog =
  | { kind: 'network-disconnected' }
  /** audience decides the wording; `pro-plus` users are asked to write to us instead. */
  | { kind: 'usage-limit'; audience: LimitAudience; cause: LimitCause }
  /** `feature` names what the user tried (the server's message says it). */
  | { kind: 'not-yearly-plan'; feature: string }
  | { kind: 'sensitive-information' };

export interface ErrorLike {
  code: string;
  message?: string;
  /** Set when the request carried SUPPRESS_ERROR_HEADER. */
  suppressed?: boolean;
}

export function limitCauseOf(code: string): LimitCause {
  if (code === ERROR_CODES.EXPORT_LIMIT_REACHED) return 'exports';
  if (code === ERROR_CODES.USAGE_LIMIT_REACHED) return 'usage';
  if (code === ERROR_CODES.VIDEO_TOO_LONG) return 'too-long';
  return 'credits';
}

function limitAudienceOf(currentPlan: string | null | undefined): LimitAudience {
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
  if (error.code === ERROR_CODES.NOT_YEARLY_PLAN) {
    return { kind: 'not-yearly-plan', feature: error.message || t('errors.notYearly.thisFeature') };
  }
  if (error.code === ERROR_CODES.SENSITIVE_INFORMATION) return { kind: 'sensitive-information' };
  return null;
}

/** Title and text of the usage-limit dialog: names what ran out, worded for the user's plan. */
export function limitDialogWording(
  cause: LimitCause,
  audience: LimitAudience,
): { title: string; text: string; action: string } {
  const causeKey = cause === 'too-long' ? 'tooLong' : cause;
  const audienceKey = audience === 'pro-plus' ? 'proPlus' : audience;
  const action =
    audience === 'pro-plus'
      ? 'errors.limit.action.contact'
      : audience === 'free'
        ? 'errors.limit.action.upgrade'
        : 'errors.limit.action.seePlans';
  return {
    title: t(`errors.limit.title.${causeKey}`),
    text: t(`errors.limit.text.${causeKey}.${audienceKey}`),
    action: t(action),
  };
}
