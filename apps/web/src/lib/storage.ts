/**
 * Flags the spec says are "remembered locally", under one prefix so they are easy to find
 * and clear. Storage can be unavailable (private mode, quotas): reads then fall back to "not set".
 */
export const STORAGE_KEYS = {
  authToken: 'moments.authToken',
  updateBannerDismissed: 'moments.updateBannerDismissed',
  welcomeOfferSeen: 'moments.welcomeOfferSeen',
  communityChatClosed: 'moments.communityChatClosed',
  /** Payment-return session ids already celebrated (last 30). */
  paymentSessions: 'moments.paymentSessions',
  /** The not-yearly-plan guard was dismissed (remembered locally). */
  yearlyGuardDismissed: 'moments.yearlyGuardDismissed',
  /** The banner variant last dismissed (a new variant, after a plan change, shows again). */
  bannerDismissedFor: 'moments.bannerDismissedFor',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage blocked (private mode, disabled cookies): as if nothing was stored.
    return null;
  }
}

export function writeStored(key: StorageKey, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Not remembering a flag is harmless: the pop-up simply shows again next time.
  }
}

/** Flags that last one visit (this tab's session), such as the one pop-up a visit shows. */
export const SESSION_KEYS = {
  /** `welcome`, `community` or `yearly`, then `:closed` once the visit's pop-up was closed. */
  popupThisVisit: 'moments.popupThisVisit',
} as const;
export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];

export function readSession(key: SessionKey): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    // Storage blocked (private mode, disabled cookies): as if nothing was stored.
    return null;
  }
}

export function writeSession(key: SessionKey, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // Without session storage every page load is a new visit: at most one pop-up each still.
  }
}
