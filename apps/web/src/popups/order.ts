import { periodOfPlan, tierOfPlan } from '@moments/domain/plans';

/** The home pop-ups, in priority order. */
export const HOME_POPUPS = ['welcome', 'community', 'yearly'] as const;
export type HomePopup = (typeof HOME_POPUPS)[number];

export interface PopupState {
  welcomeSeen: boolean;
  communityClosed: boolean;
  /** The plan the yearly guard was dismissed for (it shows again after a plan change). */
  yearlyDismissedFor: string | null;
  /** The user's plan (user info's current_plan). */
  plan: string | null;
  /** The pop-up this visit already showed, if any: a visit shows one at most. */
  shownThisVisit: HomePopup | null;
  /** Whether this visit's pop-up was closed. */
  closedThisVisit: boolean;
}

/**
 * Which pop-up this visit shows (one per visit, in priority order): the welcome offer
 * until it was seen, then the community chat until it was closed, then the not-yearly guard for a
 * plan that is missing or not yearly, once per plan. A visit that showed one shows no other.
 */
export function popupForVisit(state: PopupState): HomePopup | null {
  if (state.shownThisVisit) return state.closedThisVisit ? null : state.shownThisVisit;
  if (!state.welcomeSeen) return 'welcome';
  if (!state.communityClosed) return 'community';
  const plan = state.plan ?? 'none';
  if (periodOfPlan(state.plan) !== 'year' && state.yearlyDismissedFor !== plan) return 'yearly';
  return null;
}

/** The update banner's message for a visitor (it links to the yearly plans). */
export type BannerKind = 'new-member-offer' | 'switch-to-yearly';

/**
 * Banner rules by plan and period: the new-member offer (50% off the annual plan) only
 * to visitors and free users; paying monthly users are told yearly billing costs less; yearly and
 * enterprise users get no banner.
 */
export function bannerFor(plan: string | null | undefined): BannerKind | null {
  if (plan?.toLowerCase().includes('enterprise')) return null;
  if (!plan || tierOfPlan(plan) === 'FREE') return 'new-member-offer';
  return periodOfPlan(plan) === 'year' ? null : 'switch-to-yearly';
}
