/**
 * Referral reward, in credit units (shown divided by 10): paid once,
 * when the invited friend's first paid plan starts.
 */
export const REFERRAL_REWARD = {
  /** What the user who shared the link gets. */
  referrer: 500,
  /** What the friend who signed up with the link gets on top of their plan. */
  friend: 200,
} as const;

/** Query parameter that carries a referral code from /invite/landing through sign-up. */
export const REFERRAL_QUERY_PARAM = 'ref';

/** Referral codes are short, URL-safe and case-sensitive. */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{6,32}$/;
