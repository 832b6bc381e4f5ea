import { z } from 'zod';
import { Email, TrimmedText } from './schemas.js';

// ---------- invites ----------

export const InviteInfo = z.object({
  code: z.string(),
  /** Absolute link to /invite/landing carrying the code. */
  link: z.string(),
  /** Credit units (shown divided by 10). */
  reward: z.object({ referrer: z.number().int(), friend: z.number().int() }),
  invited: z.number().int(),
  rewarded: z.number().int(),
});
export type InviteInfo = z.infer<typeof InviteInfo>;

/** What the anonymous landing page may show about a code: only whether it is valid and who sent it. */
export const InviteLanding = z.object({
  valid: z.boolean(),
  inviter: z.string().nullable(),
  reward: z.object({ referrer: z.number().int(), friend: z.number().int() }),
});
export type InviteLanding = z.infer<typeof InviteLanding>;

// ---------- mail preferences and unsubscribe ----------

/** Mail categories a user can stop; operator mail is not the user's. */
export const USER_MAIL_CATEGORIES = ['account', 'task', 'export', 'billing', 'referral'] as const;
export type UserMailCategory = (typeof USER_MAIL_CATEGORIES)[number];

export const MAIL_CATEGORY_LABELS: Record<UserMailCategory, string> = {
  account: 'Account mail (welcome and account notices)',
  task: 'Video task finished or failed',
  export: 'Export ready or failed',
  billing: 'Receipts and plan changes',
  referral: 'Invite rewards',
};

export const MailPreferences = z.object({
  categories: z.array(
    z.object({ category: z.enum(USER_MAIL_CATEGORIES), label: z.string(), enabled: z.boolean() }),
  ),
});
export type MailPreferences = z.infer<typeof MailPreferences>;

export const MailPreferenceUpdate = z.object({
  category: z.enum(USER_MAIL_CATEGORIES),
  enabled: z.boolean(),
});
export type MailPreferenceUpdate = z.infer<typeof MailPreferenceUpdate>;

export const UnsubscribeInfo = z.object({
  category: z.enum(USER_MAIL_CATEGORIES),
  label: z.string(),
  /** The address, partly masked, so the page can say whose mail stops. */
  email: z.string(),
  stopped: z.boolean(),
});
export type UnsubscribeInfo = z.infer<typeof UnsubscribeInfo>;

// ---------- help feedback ----------

export const HelpFeedbackBody = z.object({
  content: TrimmedText(5, 5000),
  /** Needed when not logged in; a logged-in user's account email is used otherwise. */
  email: Email.optional(),
});
export type HelpFeedbackBody = z.infer<typeof HelpFeedbackBody>;
