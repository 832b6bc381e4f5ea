/**
 * Flags the spec says are "remembered locally" (spec §2), under one prefix so they are easy to find
 * and clear. Storage can be unavailable (private mode, quotas): reads then fall back to "not set".
 */
export const STORAGE_KEYS = {
  authToken: 'moments.authToken',
  updateBannerDismissed: 'moments.updateBannerDismissed',
  welcomeOfferSeen: 'moments.welcomeOfferSeen',
  communityChatClosed: 'moments.communityChatClosed',
  /** Payment-return session ids already celebrated (spec §4: last 30). */
  paymentSessions: 'moments.paymentSessions',
  /** The not-yearly-plan guard was dismissed (spec §2: remembered locally). */
  yearlyGuardDismissed: 'moments.yearlyGuardDismissed',
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export function readStored(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
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
