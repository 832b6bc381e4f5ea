import { z } from 'zod';

/**
 * What a personal API token may do. `read` is every GET; `write` is everything else a signed-in
 * user does that changes data or spends credits (start work, export), and includes `read`;
 * `billing` is changing the plan or paying. Making tokens, the password, the email and the
 * account itself stay with a signed-in session whatever the scopes.
 */
export const API_TOKEN_SCOPES = ['read', 'write', 'billing'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
/** What a route needs from the token that calls it; `session` refuses every token. */
export type RequiredScope = ApiTokenScope | 'session';

/** Every API token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'mom_';
export const API_TOKEN_NAME_MAX = 100;
/** Tokens one user may hold at once. */
export const API_TOKENS_PER_USER_MAX = 50;

/** What a webhook can be told about. */
export const WEBHOOK_EVENTS = [
  'task.done',
  'task.error',
  'export.done',
  'export.error',
  'caption_task.done',
  'credits.low',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent by `POST /api/webhooks/{id}/test` only; a receiver can tell it from real events. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_URL_MAX = 2000;
/** Webhooks one user may hold at once. */
export const WEBHOOKS_PER_USER_MAX = 20;
/** `credits.low` is sent when the spendable credits fall below this many (once per fall). */
export const CREDITS_LOW_THRESHOLD = 10;
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

// Repeats are allowed and dropped: every refusal is one the document can state (no 400 for a
// request its schema accepts).
const Scopes = z.array(z.enum(API_TOKEN_SCOPES)).min(1).max(10);
const Events = z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(20);
/**
 * An absolute http(s) address (400 otherwise); one that still does not parse, or that the server
 * may not reach, is refused by the server with 422 (INVALID_URL, PRIVATE_ADDRESS).
 */
const WebhookUrl = z
  .string()
  .max(WEBHOOK_URL_MAX)
  .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, 'an http(s) address');

/** The end of year 9999: the latest time the database's timestamps hold. */
export const LATEST_EXPIRY_MS = 253_402_300_799_999;

export const CreateApiTokenBody = z.object({
  name: z.string().min(1).max(API_TOKEN_NAME_MAX),
  scopes: Scopes,
  /** When it stops working, in milliseconds since the epoch; absent, never. */
  expires_at: z.number().int().positive().max(LATEST_EXPIRY_MS).nullable().optional(),
});
export type CreateApiTokenBody = z.infer<typeof CreateApiTokenBody>;

/** The token itself is in this reply only; the server keeps its hash. */
export const CreatedApiToken = z.object({ id: z.string(), token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  /** The first characters of the token, to tell tokens apart (`mom_AbCd…`). */
  prefix: z.string(),
  created: z.number(),
  last_used: z.number().nullable(),
  expires_at: z.number().nullable(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const CreateWebhookBody = z.object({
  url: WebhookUrl,
  events: Events,
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;
export const UpdateWebhookBody = z.object({
  url: WebhookUrl.optional(),
  events: Events.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

/** The signing secret (`whsec_…`) is in this reply only. */
export const CreatedWebhook = z.object({ id: z.string(), secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const Webhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  created: z.number(),
  updated: z.number(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookDeliveryAttempt = z.object({
  at: z.number(),
  /** The receiver's HTTP status; null when it could not be reached or timed out. */
  response_code: z.number().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number(),
});
export const WebhookDelivery = z.object({
  /** The `webhook-id` header: the same on every attempt of one delivery. */
  id: z.string(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  response_code: z.number().nullable(),
  created: z.number(),
  last_attempt: z.number().nullable(),
  attempt_log: z.array(WebhookDeliveryAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
