import { relativeTime, viewCountParts, waitParts } from '@moments/domain/format';
import {
  billingLine,
  planParts,
  type CancelReasonId,
  type EnterpriseError,
  type PricingItem,
  type SurveyError,
} from '@moments/domain/plans';
import type { CreditMovement, Tier } from '@moments/contract';
import type { PasswordProblem } from '@moments/domain/password';
import { MESSAGES, t, type MessageKey } from './catalogue';

/*
 * The domain's codes and numbers in the reader's words: the domain keeps English only for what the
 * server writes; screens word its answers here, through the catalogue (areas/domain.ts).
 */

export const tierLabel = (tier: Tier) => t(`domain.tier.${tier}`);

/** A plan name as "Pro (yearly)" or "Standard, education (monthly)". */
export function describePlan(plan: string | null | undefined): string {
  const { tier, edu, period } = planParts(plan);
  const name = edu ? t('domain.plan.edu', { tier: tierLabel(tier) }) : tierLabel(tier);
  return period ? t(`domain.plan.${period}`, { plan: name }) : name;
}

/** The billing line under a plan card's price. */
export function billingText(
  item: Pick<PricingItem, 'interval' | 'unit_amount' | 'renewal_amount'>,
): string {
  const { kind, ...values } = billingLine(item);
  return t(`domain.billing.${kind}`, values);
}

export const cancelReasonLabel = (id: CancelReasonId) => t(`domain.cancelReason.${id}`);
/** A survey error's text; none where there is no error. */
export const surveyErrorText = (error: SurveyError | null | undefined) =>
  error ? t(`domain.survey.${error}`) : undefined;
export const enterpriseErrorText = (error: EnterpriseError) => t(`domain.enterprise.${error}`);

/** Why a password is refused (the estimator's advice for guessable ones is its own English). */
export function passwordProblemText(problem: PasswordProblem): string {
  if (problem.code === 'tooShort') return t('domain.password.tooShort', { min: problem.min });
  if (problem.code === 'isEmail') return t('domain.password.isEmail');
  return problem.advice;
}

/** A mail category's name by its id; the server's label for an id this web does not know. */
export function mailCategoryLabel(category: string, serverLabel: string): string {
  return textOf(`domain.mailCategory.${category}`) ?? serverLabel;
}

/** An API error's text by its code; the server's message for codes without a fixed text. */
export function apiErrorText(code: string, serverMessage: string): string {
  return textOf(`domain.apiError.${code}`) ?? serverMessage;
}

const textOf = (key: string, values?: Record<string, string | number>) =>
  key in MESSAGES ? t(key as MessageKey, values) : undefined;

/** "just now", "3 days ago". */
export function formatRelativeTime(thenMs: number, nowMs: number = Date.now()): string {
  const { unit, count } = relativeTime(thenMs, nowMs);
  if (unit === 'now') return t('domain.ago.now');
  return t(`domain.ago.${unit}.${count === 1 ? 'one' : 'other'}`, { count });
}

/** A wait in seconds as "1 hour and 5 minutes" (never shorter than it is). */
export function formatWait(seconds: number): string {
  const [first, second] = waitParts(seconds).map(({ unit, count }) =>
    t(`domain.wait.${unit}.${count === 1 ? 'one' : 'other'}`, { count }),
  );
  return second ? t('domain.wait.and', { first: first!, second }) : first!;
}

/** A view count shortened as 1.2K, 3M, 1B. */
export function formatViewCount(count: number): string {
  const { value, scale } = viewCountParts(count);
  return scale ? t(`domain.count.${scale}`, { value }) : value;
}

/**
 * A credit history line in words: what was charged, or what went back and why; the server's own
 * line for grants, expiries and kinds of work this web does not know.
 */
export function creditMovementText(
  movement: Pick<CreditMovement, 'kind' | 'reason' | 'charge_kind' | 'refund_cause'>,
): string {
  const work = movement.charge_kind ? textOf(`domain.chargeKind.${movement.charge_kind}`) : null;
  if (!work) return movement.reason;
  if (movement.kind === 'charge') return work;
  if (movement.kind !== 'refund') return movement.reason;
  return (
    textOf(`domain.refund.${movement.refund_cause ?? 'unsaid'}`, { work }) ??
    t('domain.refund.unsaid', { work })
  );
}
