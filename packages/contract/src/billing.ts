import { z } from 'zod';
import { COMPANY_SIZES } from './constants.js';
import { Email, NonBlank } from './schemas.js';

/* Request and reply shapes of the subscription and account calls. */

const PlanName = NonBlank(40);

export const CreateSubscriptionBody = z.object({
  plan: PlanName,
  /** An invite code or inviter id; passed to the referral hook when the first paid plan starts. */
  referral: z.string().trim().max(100).optional().nullable(),
});
export const PlanBody = z.object({ plan: PlanName });
export const TopUpBody = z.object({
  price: NonBlank(40),
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
  email: Email,
  /** 'reason: text' lines; the survey's rules answer their own messages. */
  details: z.array(z.string().max(2000)).max(7),
});

/** The enterprise contact form; the domain rule gives the per-field messages. */
export const ContactUsBody = z.object({
  first_name: NonBlank(100),
  last_name: NonBlank(100),
  business_email: Email,
  company_name: NonBlank(200),
  company_size: z.enum(COMPANY_SIZES),
  company_social_channel: NonBlank(500),
  message: NonBlank(5000),
});
export const COMPANY_SIZE_VALUES = COMPANY_SIZES;

/* Credit history: every movement of the ledger, newest first, and the balance by bucket. */
export const CreditBucketName = z.enum(['plan', 'reward', 'purchased']);
export const CreditMovement = z.object({
  id: z.string(),
  /** Milliseconds since the epoch. */
  created_at: z.number().int(),
  kind: z.enum(['charge', 'refund', 'grant', 'expire']),
  feature: z.string(),
  bucket: CreditBucketName,
  /** Credit units (shown divided by 10); negative when credits left the bucket. */
  amount: z.number().int(),
  /** The bucket's balance after the movement; null when the plan's grant is unlimited. */
  balance_after: z.number().int().nullable(),
  reason: z.string(),
  /** The plan change action of a plan grant. */
  action: z.string().nullable(),
  /** What was charged or given back (packages/domain CHARGE_KINDS); null for grants and expiries. */
  charge_kind: z.string().nullable().optional(),
  /** Why a refund gave credits back (packages/domain REFUND_CAUSES); null when not said. */
  refund_cause: z.string().nullable().optional(),
  task_id: z.string().nullable(),
  job_id: z.string().nullable(),
  /** The title of the task or export it belongs to, while it exists. */
  work_title: z.string().nullable(),
});
export type CreditMovement = z.infer<typeof CreditMovement>;
export const CreditBalance = z.object({
  feature: z.string(),
  bucket: CreditBucketName,
  balance: z.number().int(),
  unlimited: z.boolean(),
});
export const CreditHistory = z.object({
  balances: z.array(CreditBalance),
  movements: z.array(CreditMovement),
  page_num: z.number().int(),
  page_size: z.number().int(),
  /** The paging convention: no more pages after this one. */
  last: z.boolean(),
});
export type CreditHistory = z.infer<typeof CreditHistory>;
/**
 * What a question on an already started video costs: the server decides whether its
 * transcript is reused (then only the question is charged), so the box shows what Start charges.
 */
export const QuestionQuote = z.object({
  root_task_id: z.string(),
  reuses_transcript: z.boolean(),
  /** Credit units (tenths of a credit), from packages/domain taskQuote; null while the length is unknown. */
  run: z.number().int().nullable(),
  summary: z.number().int().nullable(),
  total: z.number().int().nullable(),
});
export type QuestionQuote = z.infer<typeof QuestionQuote>;
export const CreditHistoryQuery = z.object({
  page_num: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
