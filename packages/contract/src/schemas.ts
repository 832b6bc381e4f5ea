import { z } from 'zod';
import {
  CAPTION_DISPLAYS,
  CLIP_LENGTHS,
  EXPORT_LAYOUTS,
  FEATURES,
  FEEDBACK_ACTIONS,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  JOB_STATUSES,
  JOB_TYPES,
  MOMENT_LIST_TYPES,
  NOTIFICATION_TYPES,
  TASK_KINDS,
  TASK_STAGES,
  TASK_STATUSES,
  URL_SOURCES,
} from './constants.js';
import type { ErrorCode } from './errors.js';

/** Every reply: `{ code, message, data }`; code 0 on success, a stable string code on error. */
export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal(0), message: z.string(), data });
export const ErrorEnvelope = z.object({
  code: z.string(),
  message: z.string(),
  data: z.null(),
});
/**
 * The error reply of one status with the codes a route answers under it (the OpenAPI document's
 * error responses). `details` carries the failing fields of a VALIDATION_FAILED.
 */
export const errorEnvelopeOf = (
  codes: readonly [ErrorCode, ...ErrorCode[]] | readonly ErrorCode[],
) =>
  z.object({
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    data: z.null(),
    details: z.unknown().optional(),
  });
export type ApiEnvelope<T> = { code: 0 | string; message: string; data: T };

/** Notification pages hold `content` and `last`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ content: z.array(item), last: z.boolean() });

// ---------- accounts (user info) ----------

/**
 * Text that must hold something besides white space, then trimmed. The rule is one explicit
 * character class, so the document's `pattern` means the same to every client's regex engine
 * (JavaScript's and Python's `\\s` differ) and a blank value is a 400 by the schema itself.
 */
// The class names the separators \x1c-\x1f on purpose: Python counts them as white space.
const BLANK =
  ' \\t\\n\\v\\f\\r\\x1c-\\x1f\\x85\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
export const NOT_BLANK = new RegExp(`[^${BLANK}]`);
export const NonBlank = (max: number) =>
  z.string().max(max).regex(NOT_BLANK, 'must not be blank').trim();
/**
 * Text of at least `min` characters once trimmed (`min` >= 2): a visible character, at least
 * `min - 2` of any kind, then another visible one, the same rule as a pattern a client can read.
 */
export const TrimmedText = (min: number, max: number) =>
  z
    .string()
    .max(max)
    .regex(
      new RegExp(`[^${BLANK}][\\s\\S]{${min - 2},}[^${BLANK}]`),
      `must hold at least ${min} characters besides white space at either end`,
    )
    .trim();

/**
 * An email address: the HTML5 `<input type=email>` rule with the local part a dot-atom of at most
 * 64 characters (RFC 5321), so what the document's `format: email` calls valid is exactly what is
 * accepted. Trimmed and lower-cased.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .email({ pattern: EMAIL_PATTERN })
  .max(254)
  .refine((email) => email.indexOf('@') <= 64, 'The part before @ is at most 64 characters');

export const Password = z.string().min(1).max(256);
export const Username = TrimmedText(2, 40).regex(
  /^[\p{L}\p{N}_.\- ]+$/u,
  'letters, digits, spaces, _ . - only',
);

export const SignupBody = z.object({
  email: Email,
  password: Password,
  username: Username,
  /** The inviting user's referral code, kept from /invite/landing. */
  referral: z.string().trim().max(64).optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;
export const LoginBody = z.object({ email: Email, password: Password });
export type LoginBody = z.infer<typeof LoginBody>;

export const Entitlement = z.object({
  feature: z.enum(FEATURES).or(z.string()),
  limit: z.number().int(), // -1 means unlimited
  usage: z.number().int(),
});
export type Entitlement = z.infer<typeof Entitlement>;

export const UserInfo = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  edu_verified: z.boolean(),
  entitlements: z.array(Entitlement),
  subscription: z.object({
    current_plan: z.string().nullable(),
    cancel_at_period_end: z.boolean(),
  }),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const AuthResult = z.object({ token: z.string(), user: UserInfo });
export type AuthResult = z.infer<typeof AuthResult>;

export const ComingSoonBody = z.object({
  types: z.array(NonBlank(60)).min(1).max(20),
  email: Email,
});
export type ComingSoonBody = z.infer<typeof ComingSoonBody>;

// ---------- video metadata ----------

export const VideoMeta = z.object({
  url: z.string().min(1).max(4096),
  title: z.string().max(1000).default(''),
  thumbnail: z.string().max(4096).nullable().default(null),
  /** seconds */
  duration: z.number().nonnegative().nullable().default(null),
  video_platform: z.enum(URL_SOURCES).nullable().default(null),
  channel_title: z.string().max(500).nullable().default(null),
  // Bounded so odd values (1e15 views, -1e308 as a date) are refused, not shown.
  view_count: z.number().int().nonnegative().max(1e12).nullable().default(null),
  /** seconds since epoch (for non-YouTube sources), 1970 to 2100 */
  published_at: z.number().int().min(0).max(4_102_444_800).nullable().default(null),
});
export type VideoMeta = z.infer<typeof VideoMeta>;
export const VideoMetaInput = z.object({ url: z.string().min(1).max(4096) });
export const GetVideoMetaBody = z.object({ video_url: z.string().min(1).max(4096) });

// ---------- tasks ----------

export const Language = z
  .string()
  .trim()
  .regex(/^(auto|[a-z]{2,3}(-[A-Za-z0-9]{2,8})?)$/, 'an ISO 639 code or auto');

/** `target_lang=` (empty) means "no translation", as clients send it. */
export const OptionalTargetLanguage = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  Language.optional(),
);

export const TaskStartParams = z.object({
  url_source: z.enum(URL_SOURCES),
  source_lang: Language.default('auto'),
  target_lang: OptionalTargetLanguage,
  caption_display: z.enum(CAPTION_DISPLAYS).default('source'),
  act_as: z.string().trim().max(200).optional(),
  reset_language: z.coerce.boolean().optional(),
  query: z.string().trim().max(500).optional(),
  root_task_id: z.string().min(1).max(100).optional(),
  /** Preferred clip length of the moments (default auto, 15-90 s). */
  clip_length: z.enum(CLIP_LENGTHS).default('auto'),
});
export type TaskStartParams = z.infer<typeof TaskStartParams>;

export const TaskRetryParams = z.object({
  id: z.string().min(1).max(100),
  source_lang: Language.optional(),
  target_lang: OptionalTargetLanguage,
  caption_display: z.enum(CAPTION_DISPLAYS).optional(),
  reset_language: z.coerce.boolean().optional(),
});

export const Task = z.object({
  id: z.string(),
  root_task_id: z.string().nullable(),
  kind: z.enum(TASK_KINDS),
  url_source: z.enum(URL_SOURCES),
  source_lang: z.string(),
  target_lang: z.string().nullable(),
  caption_display: z.enum(CAPTION_DISPLAYS),
  act_as: z.string().nullable(),
  query: z.string().nullable(),
  /** The task's preferred clip length (optional so older clients and fixtures still parse). */
  clip_length: z.enum(CLIP_LENGTHS).optional(),
  status: z.enum(TASK_STATUSES),
  stage: z.enum(TASK_STAGES),
  progress: z.number().min(0).max(100),
  error_reason: z.string().nullable(),
  /** Things the user should know about a DONE result (e.g. the LLM failed, scoring fell back). */
  warnings: z.array(z.string()),
  video: VideoMeta,
  detected_lang: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  cost_credits: z.number().int(),
  /** A follow-up on a transcribed video, charged only its run (optional for fixtures). */
  reuses_transcript: z.boolean().optional(),
  created_at: z.number(),
  updated_at: z.number(),
  // result flags
  done: z.boolean(),
  error: z.boolean(),
  completed: z.boolean(),
});
export type Task = z.infer<typeof Task>;

export const TranscriptWord = z.object({
  text: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  confidence: z.number().min(0).max(1),
});
export const TranscriptSegment = z.object({
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  words: z.array(TranscriptWord),
});
export const Transcript = z.object({
  task_id: z.string(),
  language: z.string(),
  duration_ms: z.number().int(),
  segments: z.array(TranscriptSegment),
});
export type Transcript = z.infer<typeof Transcript>;

/**
 * What a long task has heard so far while it still transcribes (times in ms): pushed
 * per chunk with `added` the new words, or loaded by a page opened late with all of them.
 */
export const TaskPartial = z.object({
  transcribed_ms: z.number().int(),
  chunks_done: z.number().int(),
  chunk_count: z.number().int(),
  added: z.array(z.object({ start_ms: z.number(), end_ms: z.number(), text: z.string() })),
  moments: z.array(
    z.object({ start_ms: z.number(), end_ms: z.number(), title: z.string(), score: z.number() }),
  ),
});
export type TaskPartial = z.infer<typeof TaskPartial>;

// ---------- moments ----------

export const MomentReason = z.object({ kind: z.string(), detail: z.string(), weight: z.number() });
export const Moment = z.object({
  id: z.string(),
  task_id: z.string(),
  type: z.enum(MOMENT_LIST_TYPES),
  start: z.number().int(),
  end: z.number().int(),
  score: z.number().int().min(0).max(100),
  reasons: z.array(MomentReason),
  title: z.string(),
  description: z.string(),
  hashtags: z.array(z.string()),
  transcript: z.string(),
  favorite: z.boolean(),
  feedback: z.enum(FEEDBACK_ACTIONS).nullable(),
  share_id: z.string().nullable(),
  created_at: z.number(),
  /** Found by the task's latest analysis for the first time (a re-analysis keeps older ones). */
  is_new: z.boolean().optional(),
  /** A frame from inside the moment, served by the app; null until it is made. */
  thumbnail: z.string().nullable().optional(),
  /** The framing kept with this clip in the studio; null: never chosen (auto). */
  layout: z.enum(EXPORT_LAYOUTS).nullable().optional(),
});
export type Moment = z.infer<typeof Moment>;

/** A moment with what a viewer needs to play it: its video and a signed media address. */
export const MomentView = Moment.extend({
  video: VideoMeta,
  /** Signed address of the source media (seek to start..end); null when it is gone. */
  media_url: z.string().nullable(),
  /** Whether the requester owns it (owners get actions; others only view a shared moment). */
  owned: z.boolean(),
  /** Where media_url's time 0 lies in the video: 0 for the whole source, the span's start for a shared span. */
  media_start: z.number().int().optional(),
  /** Listed on the public home shelf and in anonymous search (owner's explicit choice). */
  published: z.boolean().optional(),
});
export type MomentView = z.infer<typeof MomentView>;

export const FeedbackBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('THUMB_UP'), content: z.string().max(2000).optional() }),
  z.object({
    action: z.literal('THUMB_DOWN'),
    content: z.string().max(2000).default(''),
    reason: NonBlank(200),
  }),
]);
export const SearchVideosBody = z.object({
  query: NonBlank(500),
  num: z.number().int().min(1).max(100).default(24),
  search_id: z.string().optional(),
});

// ---------- notifications and jobs ----------

export const Notification = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  viewed: z.boolean(),
  data: z.record(z.string(), z.unknown()),
  created: z.number(),
});
export type Notification = z.infer<typeof Notification>;

export const Job = z.object({
  job_id: z.string(),
  moment_id: z.string().nullable(),
  task_id: z.string().nullable(),
  type: z.enum(JOB_TYPES),
  status: z.enum(JOB_STATUSES),
  progress: z.number().min(0).max(100),
  title: z.string(),
  file_url: z.string().nullable(),
  error_reason: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  cost_credits: z.number().int(),
  created_at: z.number(),
  /** A frame of the finished MP4, served by the app; null until it is made. */
  poster_url: z.string().nullable().optional(),
  /** Set while the clip is shared as an unlisted /s/{share_id}?clip=1 page. */
  share_id: z.string().nullable().optional(),
});
export type Job = z.infer<typeof Job>;

export const HealthReply = z.object({ status: z.literal('ok'), version: z.string() });

/** The `Idempotency-Key` of a call that starts paid work: printable ASCII, as Stripe takes it. */
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX_LENGTH)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
