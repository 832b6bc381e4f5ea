import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    eduVerified: boolean('edu_verified').notNull().default(false),
    /** Plan name with tier and period markers, e.g. `free`, `vip_month`. */
    currentPlan: text('current_plan').notNull().default('free'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    createdAt: createdAt(),
    /** Set when the account was deleted: the row stays, anonymised, for the ledger's sake. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/** Opaque session tokens; only their SHA-256 is stored, so a database leak leaks no sessions. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Credit buckets: what a user can spend, per feature (CREDIT, FREE_TOOL_CREDIT,
 * CANVAS_EXPORT) and source: `plan` (this period's grant, resets each period), `reward` (referral
 * and gift rewards) and `purchased` (top-ups, never lost at a plan change). Only the ledger
 * (modules/billing/ledger) writes here; the entitlements in user info are derived from it.
 */
export const creditBuckets = pgTable(
  'credit_buckets',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    feature: text('feature').notNull(),
    bucket: text('bucket').notNull(),
    balance: integer('balance').notNull().default(0),
    /** A plan grant of -1: nothing is counted down. */
    unlimited: boolean('unlimited').notNull().default(false),
    /** Plan bucket: what was spent this period from every bucket (the entitlement's usage). */
    periodUsed: integer('period_used').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.feature, t.bucket] }),
    check('credit_buckets_balance_check', sql`${t.balance} >= 0`),
  ],
);

/**
 * One credit operation (a charge, refund, grant or expiry) per key: `task:<id>:<attempt>`,
 * `summary:<id>:<attempt>`, `job:<id>`, `checkout:<session>`, ... Its unique key makes a retried
 * or concurrent operation a no-op; its ledger rows say which buckets it moved.
 */
export const creditOperations = pgTable(
  'credit_operations',
  {
    key: text('key').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** charge, refund, grant, expire */
    kind: text('kind').notNull(),
    /** What was charged (packages/domain CHARGE_KINDS); null for other operations. */
    chargeKind: text('charge_kind'),
    feature: text('feature').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    taskId: uuid('task_id'),
    jobId: uuid('job_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_operations_task_idx').on(t.taskId),
    index('credit_operations_job_idx').on(t.jobId),
  ],
);

/**
 * Every movement of credits, one row per bucket moved: the credit history page reads it. Amounts
 * are in credit units (displayed divided by 10): negative for charges and expiries.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    operationKey: text('operation_key').notNull(),
    /** charge, refund, grant, expire */
    kind: text('kind').notNull(),
    feature: text('feature').notNull(),
    bucket: text('bucket').notNull(),
    amount: integer('amount').notNull(),
    /** The bucket's balance after this movement; null when the bucket is unlimited. */
    balanceAfter: integer('balance_after'),
    reason: text('reason').notNull(),
    /** The plan change action (CREATE, Recharge, UPGRADE, ...) for plan grants. */
    action: text('action'),
    /** Why a refund gave credits back (packages/domain REFUND_CAUSES); null otherwise. */
    cause: text('cause'),
    /** The work this movement belongs to. */
    taskId: uuid('task_id'),
    jobId: uuid('job_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_ledger_user_idx').on(t.userId, t.createdAt),
    index('credit_ledger_operation_idx').on(t.operationKey),
  ],
);

export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storageKey: text('storage_key').notNull(),
    originalName: text('original_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    durationMs: integer('duration_ms'),
    width: integer('width'),
    height: integer('height'),
    thumbnailKey: text('thumbnail_key'),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_user_idx').on(t.userId)],
);

export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rootTaskId: uuid('root_task_id'),
    kind: text('kind').notNull(),
    urlSource: text('url_source').notNull(),
    video: jsonb('video').notNull(),
    sourceLang: text('source_lang').notNull().default('auto'),
    targetLang: text('target_lang'),
    captionDisplay: text('caption_display').notNull().default('source'),
    actAs: text('act_as'),
    query: text('query'),
    /** Preferred clip length (CLIP_LENGTHS). */
    clipLength: text('clip_length').notNull().default('auto'),
    status: text('status').notNull().default('START'),
    stage: text('stage').notNull().default('queued'),
    progress: real('progress').notNull().default(0),
    errorReason: text('error_reason'),
    /** What the analysis wants the user to know, e.g. that the LLM failed and scoring fell back. */
    warnings: jsonb('warnings')
      .notNull()
      .default(sql`'[]'::jsonb`),
    detectedLang: text('detected_lang'),
    durationMs: integer('duration_ms'),
    /** Key of the processed media file in storage, once downloaded or uploaded. */
    mediaKey: text('media_key'),
    /** The video's thumbnail as the server stored it (never a remote address). */
    thumbnailKey: text('thumbnail_key'),
    /**
     * Why no frame can ever be taken from the media (FramelessReason: 'audio-only', 'no-frame'):
     * the thumbnail backfill passes the video and its moments by instead of probing it again.
     */
    framelessReason: text('frameless_reason'),
    costCredits: integer('cost_credits').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** A follow-up that reuses its root's transcript and summary: it costs only its run. */
    reusesTranscript: boolean('reuses_transcript').notNull().default(false),
    /** Identifies the current run; a worker holding an older token stops touching the task. */
    runToken: text('run_token'),
    /** Refreshed by the running worker; a stale one means the worker died and the run is resumed. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when a worker claims the run; null while queued. A fresh heart-beat here refuses a 2nd run. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tasks_status_idx').on(t.status, t.heartbeatAt),
    index('tasks_user_idx').on(t.userId, t.createdAt),
    index('tasks_root_idx').on(t.rootTaskId),
  ],
);

export const transcripts = pgTable('transcripts', {
  taskId: uuid('task_id')
    .primaryKey()
    .references(() => tasks.id, { onDelete: 'cascade' }),
  language: text('language').notNull(),
  durationMs: integer('duration_ms').notNull(),
  engine: text('engine').notNull(),
  segments: jsonb('segments').notNull(),
  createdAt: createdAt(),
});

export const moments = pgTable(
  'moments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    rank: integer('rank').notNull(),
    startMs: integer('start_ms').notNull(),
    endMs: integer('end_ms').notNull(),
    score: integer('score').notNull(),
    reasons: jsonb('reasons')
      .notNull()
      .default(sql`'[]'::jsonb`),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    hashtags: jsonb('hashtags')
      .notNull()
      .default(sql`'[]'::jsonb`),
    transcript: text('transcript').notNull().default(''),
    favorite: boolean('favorite').notNull().default(false),
    feedback: text('feedback'),
    feedbackContent: text('feedback_content'),
    feedbackReason: text('feedback_reason'),
    shareId: text('share_id'),
    /** Shown on the public home shelf and in anonymous search: an explicit choice, off by default. */
    published: boolean('published').notNull().default(false),
    clipped: boolean('clipped').notNull().default(false),
    /** The framing layout kept with the clip (the studio's choice, or its last export's); null: auto. */
    layout: text('layout'),
    /** Found by the task's latest analysis for the first time; kept moments are not new. */
    isNew: boolean('is_new').notNull().default(false),
    /** A frame from inside the moment, stored by the server. */
    thumbnailKey: text('thumbnail_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('moments_task_idx').on(t.taskId, t.rank),
    index('moments_user_idx').on(t.userId),
    uniqueIndex('moments_share_key').on(t.shareId),
    // The anonymous home list: published moments of one type, best first. The predicate is the
    // query's own (0017): PostgreSQL multiplies the two conditions' selectivities as if they were
    // independent, so with `share_id IS NOT NULL` alone it preferred another index and a sort.
    index('moments_shared_type_idx')
      .on(t.type, t.score.desc(), t.createdAt.desc())
      .where(sql`${t.shareId} IS NOT NULL AND ${t.published}`),
  ],
);

/*
 * Search columns (migration 0002_security), generated by PostgreSQL and read only by the search
 * query's SQL. They are left out of the Drizzle tables on purpose, so that `select()` of a row does
 * not carry its text vector and a second copy of its transcript:
 * - moments.search_text (description, hashtags, transcript) and moments.search_vec (title weight A,
 *   the rest weight B; GIN index moments_search_idx);
 * - tasks.search_title (the video title);
 * - transcripts.search_text (the segments' text) and transcripts.search_vec (weight B; GIN index
 *   transcripts_search_idx).
 */

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    momentId: uuid('moment_id').references(() => moments.id, { onDelete: 'set null' }),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    status: text('status').notNull().default('IN_PROGRESS'),
    progress: real('progress').notNull().default(0),
    title: text('title').notNull().default(''),
    options: jsonb('options')
      .notNull()
      .default(sql`'{}'::jsonb`),
    fileKey: text('file_key'),
    /** A frame of the exported MP4, its poster. */
    posterKey: text('poster_key'),
    /** Unlisted public clip page /s/{shareId}?clip=1; null when not shared (unsharing clears it). */
    shareId: text('share_id'),
    errorReason: text('error_reason'),
    durationMs: integer('duration_ms'),
    costCredits: integer('cost_credits').notNull().default(0),
    runToken: text('run_token'),
    /** The export-all batch this clip was rendered in; null for a single export. */
    batchId: uuid('batch_id').references((): AnyPgColumn => exportBatches.id, {
      onDelete: 'set null',
    }),
    /** Set when a worker picks the render up; a queued job whose heartbeat goes stale is resumed too. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('jobs_user_idx').on(t.userId, t.createdAt),
    // The orphan reaper's poll, and the foreign keys set null on delete.
    index('jobs_orphan_idx')
      .on(t.heartbeatAt)
      .where(sql`${t.status} = 'IN_PROGRESS'`),
    index('jobs_moment_idx').on(t.momentId),
    index('jobs_task_idx').on(t.taskId),
    uniqueIndex('jobs_share_key').on(t.shareId),
    index('jobs_batch_idx')
      .on(t.batchId)
      .where(sql`${t.batchId} IS NOT NULL`),
  ],
);

/** Export all: several clips of a task rendered with one set of options (each clip a job). */
export const exportBatches = pgTable(
  'export_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    /** The export options every clip was made with, as the request gave them. */
    options: jsonb('options')
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The clips' jobs, best moment first (a deleted clip's job leaves a gap the reads skip). */
    jobIds: jsonb('job_ids')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Set once, when the last clip ended: the batch's one notification goes out then. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('export_batches_user_idx').on(t.userId, t.createdAt),
    index('export_batches_task_idx').on(t.taskId),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order: breaks ties between notifications created within one clock tick. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    viewed: boolean('viewed').notNull().default(false),
    data: jsonb('data')
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt)],
);

export const comingSoonSignups = pgTable('coming_soon_signups', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  types: jsonb('types').notNull(),
  createdAt: createdAt(),
});

/**
 * Single-use tickets for the realtime CONNECT: the web app never holds the
 * httpOnly session token; it asks for a ticket that lives a minute and dies with its session.
 * Only the ticket's SHA-256 is stored.
 */
export const realtimeTickets = pgTable(
  'realtime_tickets',
  {
    ticketHash: text('ticket_hash').primaryKey(),
    sessionHash: text('session_hash')
      .notNull()
      .references(() => sessions.tokenHash, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('realtime_tickets_expires_idx').on(t.expiresAt)],
);
/* Billing: provider-side state, checkout sessions, invoices, plan changes, webhooks. */

/** The user's paid subscription as the payment provider knows it; absent while on free. */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    plan: text('plan').notNull(),
    /** active, canceled (ended) */
    status: text('status').notNull(),
    customerId: text('customer_id'),
    subscriptionId: text('subscription_id'),
    cardLast4: text('card_last4'),
    unitAmount: integer('unit_amount').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    /** A downgrade or period switch that starts with the next period. */
    scheduledPlan: text('scheduled_plan'),
    /** `created` (unix seconds) of the last subscription event applied: older events are stale. */
    lastEventAt: bigint('last_event_at', { mode: 'number' }).notNull().default(0),
    /** Kept when the plan ends, so a later plan is not the "first paid plan" again (referrals). */
    firstPaidAt: timestamp('first_paid_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('billing_subscriptions_subscription_key').on(t.subscriptionId)],
);

export const billingCheckoutSessions = pgTable('billing_checkout_sessions', {
  id: text('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** subscription or credits */
  kind: text('kind').notNull(),
  plan: text('plan'),
  price: text('price'),
  quantity: integer('quantity').notNull().default(1),
  referral: text('referral'),
  amount: integer('amount').notNull(),
  /** open, pending (paid later by an async method), paid, failed */
  status: text('status').notNull().default('open'),
  /** The provider's checkout page, so a second click on the same item gets the same session. */
  url: text('url'),
  createdAt: createdAt(),
  completedAt: timestamp('completed_at', { withTimezone: true }),
});

export const billingInvoices = pgTable(
  'billing_invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerInvoiceId: text('provider_invoice_id'),
    description: text('description').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('usd'),
    paymentMethod: text('payment_method').notNull(),
    hostedUrl: text('hosted_url'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('billing_invoices_provider_key').on(t.providerInvoiceId),
    index('billing_invoices_user_idx').on(t.userId, t.createdAt),
  ],
);

/** Plan change actions, one row per change; `event_key` makes replays no-ops. */
export const planChanges = pgTable(
  'plan_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    fromPlan: text('from_plan'),
    toPlan: text('to_plan'),
    eventKey: text('event_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('plan_changes_event_key').on(t.eventKey)],
);

/** Webhook events already handled (Stripe event ids). */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

export const contactRequests = pgTable('contact_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  form: jsonb('form').notNull(),
  createdAt: createdAt(),
});

export const subscriptionFeedback = pgTable('subscription_feedback', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  email: text('email').notNull(),
  details: jsonb('details').notNull(),
  createdAt: createdAt(),
});

/** One summary per task: made by the task's summary stage, refreshable. */
export const summaries = pgTable(
  'summaries',
  {
    taskId: uuid('task_id')
      .primaryKey()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    overview: text('overview').notNull().default(''),
    chapters: jsonb('chapters')
      .notNull()
      .default(sql`'[]'::jsonb`),
    keyPoints: jsonb('key_points')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** `extractive` or `llm`. */
    method: text('method').notNull(),
    warnings: jsonb('warnings')
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Unlisted public link /s/{shareId}; null when not shared (unsharing clears it). */
    shareId: text('share_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('summaries_share_key').on(t.shareId)],
);

/** A user's notes: rich text (sanitised HTML) with timestamp links into a task's video. */
export const notes = pgTable(
  'notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: uuid('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    momentId: uuid('moment_id').references(() => moments.id, { onDelete: 'set null' }),
    title: text('title').notNull().default(''),
    contentHtml: text('content_html').notNull().default(''),
    /** The text without markup, for search. */
    plainText: text('plain_text').notNull().default(''),
    /** Unlisted public link /s/{shareId}?note=1; null when not shared. */
    shareId: text('share_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('notes_user_idx').on(t.userId, t.updatedAt),
    uniqueIndex('notes_share_key').on(t.shareId),
  ],
);

// --- invites, mail preferences and feedback ---

/** Each user's shareable referral code, made on first visit to /invite. */
export const referralCodes = pgTable(
  'referral_codes',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('referral_codes_code_key').on(t.code)],
);

/** Who invited whom, recorded at sign-up; `rewardedAt` is set once, when the friend first pays. */
export const referrals = pgTable(
  'referrals',
  {
    referredId: uuid('referred_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    referrerId: uuid('referrer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    rewardedAt: timestamp('rewarded_at', { withTimezone: true }),
  },
  (t) => [index('referrals_referrer_idx').on(t.referrerId)],
);

/** Mail categories a user stopped (unsubscribe link or settings); absent row = mail is sent. */
export const mailOptOuts = pgTable(
  'mail_opt_outs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    category: text('category').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.category] })],
);

/** Help-page feedback (/settings/faq?feedback=1), also mailed to the operator. */
export const feedback = pgTable('feedback', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  email: text('email').notNull(),
  content: text('content').notNull(),
  createdAt: createdAt(),
});

/**
 * What the workers measured about a stored source, kept so no process measures it twice: the
 * framing plan of a span (shared by the editor's preview and the export across processes), the
 * loudness of a span, and the face detections of an analysed stretch (shared by every span that
 * overlaps it). `span_key` names what the result depends on besides the media.
 */
export const mediaAnalyses = pgTable(
  'media_analyses',
  {
    mediaKey: text('media_key').notNull(),
    /**
     * `framing` (a plan per span and options), `loudness` (per span), or `faces`: per analysed
     * stretch, the shot analysis shared by every span of the source (faces and mouths, slide and
     * screen measures, brightness under the captions, speech energy); `probe`: the source's
     * facts (ffprobe), read once for every export of it.
     */
    kind: text('kind').notNull(),
    spanKey: text('span_key').notNull(),
    data: jsonb('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.mediaKey, t.kind, t.spanKey] })],
);

/**
 * A task's audio cut at silences into chunks of a few minutes, each transcribed by any
 * worker (an `asr-chunk` job). The row is the chunk's lease (run token and heart-beat, so a dead
 * worker's chunk is redone once) and, when DONE, its transcript on the chunk's own clock.
 */
export const asrChunks = pgTable(
  'asr_chunks',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    idx: integer('idx').notNull(),
    startMs: integer('start_ms').notNull(),
    endMs: integer('end_ms').notNull(),
    audioKey: text('audio_key').notNull(),
    /** The language every chunk is heard in (detected once, on the first speech). */
    language: text('language'),
    /** QUEUED, RUNNING, DONE or ERROR. */
    status: text('status').notNull().default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    runToken: text('run_token'),
    /** host:pid of the worker that took it last. */
    worker: text('worker'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    result: jsonb('result'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.idx] })],
);

/**
 * A link's preview image stored for its user before any task exists. A task of the
 * same image adopts the file (and the row goes); housekeeping removes the ones left a day.
 */
export const linkPreviews = pgTable(
  'link_previews',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The hash of the image URL that names the file (`/api/thumbnail/preview/{id}`). */
    id: text('id').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.id] }),
    index('link_previews_created_idx').on(t.createdAt),
  ],
);

/**
 * Replies of calls that start paid work, by the caller's Idempotency-Key: a second request with
 * the same key gets the first reply again instead of a second charge. `status` is null while the
 * first request runs; rows older than a day are ignored and removed by housekeeping.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** A hash of the route and its input: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    /** The reply's JSON text as it was sent. */
    body: text('body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/**
 * The clip editor's settings of a moment (contract ClipSettings), saved as its owner edits, so
 * the editor opens the clip as it was left, after a reload and on another device.
 */
export const clipDrafts = pgTable(
  'clip_drafts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    momentId: uuid('moment_id')
      .notNull()
      .references(() => moments.id, { onDelete: 'cascade' }),
    settings: jsonb('settings').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.momentId] }),
    index('clip_drafts_moment_idx').on(t.momentId),
  ],
);

/**
 * Personal API tokens (`Authorization: Bearer mom_…`) for scripts and agents. Only the token's
 * SHA-256 is kept, like sessions; `prefix` is its first characters, to tell tokens apart on the
 * settings screen. A deleted user's tokens go with the user.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    /** The scopes granted (`read`, `write`, `billing`). */
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_key').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
  ],
);

/**
 * A user's webhooks: where finished work and low balances are announced, signed with `secret`
 * (Standard Webhooks, `whsec_…`). `creditsLowSent` holds back a second `credits.low` until the
 * balance has risen above the threshold again.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    creditsLowSent: boolean('credits_low_sent').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhooks_user_idx').on(t.userId)],
);

/**
 * One event for one webhook, sent by a `webhook-deliver` job (retried with backoff); `payload`
 * is the exact body every attempt sends, `attemptLog` what each attempt got back.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The `webhook-id` header (`msg_…`): receivers use it to drop repeats. */
    id: text('id').primaryKey(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    /** `pending` until an attempt succeeds or the last one fails. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseCode: integer('response_code'),
    attemptLog: jsonb('attempt_log')
      .$type<
        { at: number; response_code: number | null; error: string | null; duration_ms: number }[]
      >()
      .notNull()
      .default([]),
    createdAt: createdAt(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (t) => [index('webhook_deliveries_webhook_created_idx').on(t.webhookId, t.createdAt)],
);

/** A change of email waiting for its link (mailed to the new address) to be opened. */
export const emailChanges = pgTable(
  'email_changes',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when the link was opened: a second opening is refused. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('email_changes_user_idx').on(t.userId)],
);

/** Every upload a user started, for the per-plan upload rate (packages/domain UPLOAD_LIMITS). */
export const uploadStarts = pgTable(
  'upload_starts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('upload_starts_user_idx').on(t.userId, t.createdAt)],
);

/**
 * The server processes on this database, each heart-beating its row (modules/deployment): the
 * settings every process must share are compared against the live rows at start.
 */
export const serverProcesses = pgTable(
  'server_processes',
  {
    id: text('id').primaryKey(),
    hostname: text('hostname').notNull(),
    pid: integer('pid').notNull(),
    roles: jsonb('roles').$type<string[]>().notNull(),
    /** The job queues its workers take; empty for an API-only process. */
    queues: jsonb('queues').$type<string[]>().notNull(),
    bus: text('bus').notNull(),
    publicUrl: text('public_url').notNull(),
    /** An HMAC of a constant under APP_SECRET: equal secrets give equal fingerprints. */
    secretFingerprint: text('secret_fingerprint').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('server_processes_seen_idx').on(t.seenAt)],
);

/** Users with a browser connected to an API process, for the workers that mail. */
export const realtimePresence = pgTable(
  'realtime_presence',
  {
    processId: text('process_id')
      .notNull()
      .references(() => serverProcesses.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'realtime_presence_pk', columns: [t.userId, t.processId] })],
);

/**
 * A user's brand kits: a logo (a PNG in storage, `logoKey`; null for none) placed in a corner,
 * a caption style, and intro and outro card texts, applied to a clip as one. `lastUsedAt` is when
 * the kit last went into a preview or an export: the studio opens the next clip with it.
 */
export const brandKits = pgTable(
  'brand_kits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    logoKey: text('logo_key'),
    logoWidth: integer('logo_width'),
    logoHeight: integer('logo_height'),
    logoPosition: text('logo_position').notNull(),
    logoOpacity: real('logo_opacity').notNull(),
    logoScale: real('logo_scale').notNull(),
    style: jsonb('style').notNull(),
    introText: text('intro_text'),
    outroText: text('outro_text'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('brand_kits_user_idx').on(t.userId, t.createdAt)],
);
