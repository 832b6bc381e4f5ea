import { sql } from 'drizzle-orm';
import {
  bigint,
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
    /** Plan name with tier and period markers (spec §3), e.g. `free`, `vip_month`. */
    currentPlan: text('current_plan').notNull().default('free'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    createdAt: createdAt(),
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

/** spec §3 Entitlement: limit -1 means unlimited. */
export const entitlements = pgTable(
  'entitlements',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    feature: text('feature').notNull(),
    limit: integer('limit').notNull(),
    usage: integer('usage').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.feature] })],
);

/**
 * Every credit movement, so a charge is idempotent (one row per charge key) and a failed task or
 * export can be refunded by its key. Amounts are in credit units (displayed divided by 10, spec §9).
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    feature: text('feature').notNull(),
    amount: integer('amount').notNull(),
    /** e.g. `task:<id>` or `job:<id>`; unique so a retried handler charges once. */
    chargeKey: text('charge_key').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('credit_ledger_charge_key').on(t.chargeKey)],
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
    costCredits: integer('cost_credits').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    /** Identifies the current run; a worker holding an older token stops touching the task. */
    runToken: text('run_token'),
    /** Refreshed by the running worker; a stale one means the worker died and the run is resumed. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
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
    clipped: boolean('clipped').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('moments_task_idx').on(t.taskId, t.rank),
    index('moments_user_idx').on(t.userId),
    uniqueIndex('moments_share_key').on(t.shareId),
  ],
);

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
    errorReason: text('error_reason'),
    durationMs: integer('duration_ms'),
    costCredits: integer('cost_credits').notNull().default(0),
    runToken: text('run_token'),
    /** Set when a worker picks the render up; queued jobs are never "orphaned". */
    startedAt: timestamp('started_at', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('jobs_user_idx').on(t.userId, t.createdAt)],
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
