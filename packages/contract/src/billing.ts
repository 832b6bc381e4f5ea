import { z } from 'zod';
import { COMPANY_SIZES } from './constants.js';

/* spec §7 "Subscription and account" request and reply shapes (issue 9). */

const PlanName = z.string().trim().min(1).max(40);

export const CreateSubscriptionBody = z.object({
  plan: PlanName,
  /** An invite code or inviter id; passed to the referral hook when the first paid plan starts. */
  referral: z.string().trim().max(100).optional().nullable(),
});
export const PlanBody = z.object({ plan: PlanName });
export const TopUpBody = z.object({
  price: z.string().trim().min(1).max(40),
  quantity: z.coerce.number().int().min(1).max(20).default(1),
});

export const PricingItemSchema = z.object({
  plan: z.string(),
  interval: z.enum(['month', 'year']).nullable(),
  interval_count: z.number().int(),
  currency: z.string(),
  unit_amount: z.number().int().nullable(),
  entitlements: z.array(z.object({ feature: z.string(), limit: z.number().int() })),
  type: z.enum(['price', 'enterprise']),
  edu: z.boolean(),
  compare_at_monthly: z.number().int().optional(),
  renewal_amount: z.number().int().optional(),
});
export const PricingTable = z.object({
  pricing: z.array(PricingItemSchema),
  credit_packs: z.array(
    z.object({ price: z.string(), credits: z.number().int(), unit_amount: z.number().int() }),
  ),
  /** 'test' (built-in TEST MODE checkout) or 'stripe'. */
  provider: z.string(),
});

export const Invoice = z.object({
  id: z.string(),
  timestamp: z.number().int(),
  payment_method: z.string(),
  link: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  description: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;

export const PreviewInvoiceReply = z.object({ amount: z.number().int(), currency: z.string() });

export const SuggestionFeedbackBody = z.object({
  type: z.literal('SUBSCRIPTION_CANCEL'),
  email: z.string().trim().max(320),
  details: z.array(z.string().max(2000)).max(7),
});

/** spec §3/§5 enterprise contact form; the domain rule gives the per-field messages. */
export const ContactUsBody = z.object({
  first_name: z.string().max(100),
  last_name: z.string().max(100),
  business_email: z.string().max(320),
  company_name: z.string().max(200),
  company_size: z.string().max(40),
  company_social_channel: z.string().max(500),
  message: z.string().max(5000),
});
export const COMPANY_SIZE_VALUES = COMPANY_SIZES;
