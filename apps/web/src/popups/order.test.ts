import { describe, expect, it } from 'vitest';
import { bannerFor, popupForVisit, type PopupState } from './order';

const fresh: PopupState = {
  welcomeSeen: false,
  communityClosed: false,
  yearlyDismissedFor: null,
  plan: 'free',
  shownThisVisit: null,
  closedThisVisit: false,
};

describe('one home pop-up per visit, in the spec order', () => {
  it('shows the welcome offer, then the community, then the yearly guard, one visit each', () => {
    expect(popupForVisit(fresh)).toBe('welcome');
    // Closing it ends this visit's pop-ups: nothing follows at once.
    const closed = {
      ...fresh,
      welcomeSeen: true,
      shownThisVisit: 'welcome' as const,
      closedThisVisit: true,
    };
    expect(popupForVisit(closed)).toBeNull();
    const secondVisit = { ...fresh, welcomeSeen: true };
    expect(popupForVisit(secondVisit)).toBe('community');
    const thirdVisit = { ...secondVisit, communityClosed: true };
    expect(popupForVisit(thirdVisit)).toBe('yearly');
    expect(popupForVisit({ ...thirdVisit, yearlyDismissedFor: 'free' })).toBeNull();
    // A new plan that is still not yearly asks again, once.
    expect(popupForVisit({ ...thirdVisit, yearlyDismissedFor: 'free', plan: 'vip_month' })).toBe(
      'yearly',
    );
  });

  it('keeps showing the same pop-up until it is closed, and never the guard to yearly plans', () => {
    expect(popupForVisit({ ...fresh, welcomeSeen: true, shownThisVisit: 'welcome' })).toBe(
      'welcome',
    );
    const done = { ...fresh, welcomeSeen: true, communityClosed: true };
    expect(popupForVisit({ ...done, plan: 'svip_year' })).toBeNull();
    expect(popupForVisit({ ...done, plan: null })).toBe('yearly');
  });
});

describe('the banner by plan and period', () => {
  it('offers new members 50% off, paying monthly users yearly billing, and yearly users nothing', () => {
    expect(bannerFor(null)).toBe('new-member-offer');
    expect(bannerFor('free')).toBe('new-member-offer');
    expect(bannerFor('vip_month')).toBe('switch-to-yearly');
    expect(bannerFor('edu_vip_month')).toBe('switch-to-yearly');
    expect(bannerFor('vip_year')).toBeNull();
    expect(bannerFor('ssvip_year')).toBeNull();
    expect(bannerFor('enterprise')).toBeNull();
  });
});
