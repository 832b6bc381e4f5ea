/**
 * Every enum value and constant the product spec names, under the spec's names, so a search for
 * `TASK_STATUS_UPDATE` or `VIRAL_MOMENT_EXPORT` lands on its single definition.
 */

/** Where a video can come from. */
export const VIDEO_SOURCES = [
  'youtube',
  'upload',
  'google_drive',
  'dailymotion',
  'vimeo',
  'tiktok',
  'facebook',
  'twitch',
  'bilibili',
] as const;
export type VideoSource = (typeof VIDEO_SOURCES)[number];

/** Any other http(s) media address that yt-dlp's generic extractor can fetch. */
export const URL_SOURCES = [...VIDEO_SOURCES, 'direct'] as const;
export type UrlSource = (typeof URL_SOURCES)[number];

/** Task states. */
export const TASK_STATUSES = ['START', 'IN_PROGRESS', 'DONE', 'ERROR'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Where a running task is; shown next to its progress percent. */
export const TASK_STAGES = [
  'queued',
  'downloading',
  'probing',
  'transcribing',
  'analysing',
  'summary',
  'finishing',
] as const;
export type TaskStage = (typeof TASK_STAGES)[number];

/** What a task does: find viral moments, answer a query, or make captions. */
export const TASK_KINDS = ['viral', 'search', 'caption'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** Input types of the home box. */
export const INPUT_TYPES = ['KEYWORD', 'URL'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/** Caption display modes; `all` stacks source and translation. */
export const CAPTION_DISPLAYS = ['all', 'source', 'translate', 'none'] as const;
export type CaptionDisplay = (typeof CAPTION_DISPLAYS)[number];

/** Moment list types. */
export const MOMENT_LIST_TYPES = ['video_snippet', 'search_snippet'] as const;
export type MomentListType = (typeof MOMENT_LIST_TYPES)[number];

/** Feedback actions. */
export const FEEDBACK_ACTIONS = ['THUMB_UP', 'THUMB_DOWN'] as const;
export type FeedbackAction = (typeof FEEDBACK_ACTIONS)[number];

/** Entitlement features named by the spec. */
export const FEATURES = ['CREDIT', 'FREE_TOOL_CREDIT', 'CANVAS_EXPORT'] as const;
export type Feature = (typeof FEATURES)[number];

/** Tier order FREE < VIP < SVIP < SSVIP. */
export const TIERS = ['FREE', 'VIP', 'SVIP', 'SSVIP'] as const;
export type Tier = (typeof TIERS)[number];

/** Notification types, the main ones and those "also seen". */
export const NOTIFICATION_TYPES = [
  'JOB_VIRAL_MOMENT_EXPORT',
  'JOB_ANIMATED_CAPTION_EXPORT',
  /** An export-all batch ended: one notification for all its clips. */
  'JOB_BATCH_EXPORT',
  'NOTIFY_DELETED',
  'NOTIFY_VIEWED',
  'TASK_STATUS_UPDATE',
  'MOMENT_EXPORT',
  'VIDEO_EXPORT',
  'SYNC_NOTIFY_VIEW',
  'SYNC_NOTIFY_DELETE',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Export job states and types. */
export const JOB_STATUSES = ['IN_PROGRESS', 'DONE', 'ERROR'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_TYPES = [
  'VIRAL_MOMENT_EXPORT',
  'VIRAL_FIND_MOMENT_EXPORT',
  'ANIMATED_CAPTION_EXPORT',
] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** Plan change actions. */
export const PLAN_CHANGE_ACTIONS = [
  'CREATE',
  'Recharge',
  'UPGRADE',
  'UNSUBSCRIBE',
  'RESUBSCRIBE',
  'CREDIT',
] as const;
export type PlanChangeAction = (typeof PLAN_CHANGE_ACTIONS)[number];

/** Accepted upload extensions. */
export const UPLOAD_EXTENSIONS = ['mp4', 'mov', 'webm'] as const;

/** Enterprise form company sizes. */
export const COMPANY_SIZES = [
  '1 - 50',
  '51 - 200',
  '201 - 1000',
  '1001 - 5000',
  '5001 - 10000',
  '10000 or more',
] as const;

/** Library tabs and settings tabs. */
export const LIBRARY_TABS = ['videoTasks', 'moments', 'projects', 'notes'] as const;
export type LibraryTab = (typeof LIBRARY_TABS)[number];
export const SETTINGS_TABS = ['profile', 'plan', 'credits', 'brand', 'api', 'faq'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** The logged-out Tools dropdown opens these external pages in a new tab. */
export const EXTERNAL_TOOLS = [
  'video-summarizer',
  'video-translator',
  'subtitle-translator',
  'auto-subtitle-generator',
  'auto-caption-generator',
] as const;

/** Business constants. */
export const SEARCH_PAGE_SIZE = 24;
export const NOTIFICATION_PAGE_SIZE = 20;
export const CREDIT_DISPLAY_DIVISOR = 10;
export const REALTIME_RECONNECT_DELAY_MS = 5000;
export const REALTIME_HEARTBEAT_MS = 4000;
export const UPDATE_BANNER_HEIGHT_PX = 36;
export const PAYMENT_SESSION_HISTORY_SIZE = 30;
export const PAYMENT_SUCCESS_MESSAGE_MS = 5000;
export const SUBSCRIPTION_RELOAD_DELAY_MS = 1500;
export const CANCEL_SURVEY_MODAL_WIDTH = 446;
export const PAYMENT_SUCCESS_MESSAGE =
  'Enjoy your subscription! Refresh the page to see the latest data.';

/** Realtime endpoint and the per-user destination. */
export const STOMP_ENDPOINT = '/stomp-ws';
export const STOMP_USER_DESTINATION = '/user/queue/msg';

/**
 * Several calls carry a header that suppresses automatic error messages.
 * The client's global error handler skips its dialogs for requests that send it.
 */
export const SUPPRESS_ERROR_HEADER = 'X-Suppress-Error-Message';

/**
 * Calls that start paid work take this header (Stripe's semantics): the same user and key within
 * IDEMPOTENCY_KEY_TTL_HOURS get the first reply again and no second charge, so a double click or
 * a retry after a lost reply does the work once.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

/** An uploaded video's `VideoMeta.url` is this prefix plus the upload id (upload answers it). */
export const UPLOAD_URL_PREFIX = 'upload://';

/**
 * The clip length a user prefers for viral moments. `auto` lets the judge choose (15-90 s);
 * the others bound every moment's length (CLIP_LENGTH_RANGES_MS).
 */
export const CLIP_LENGTHS = ['auto', 'under_30', '30_60', '60_90'] as const;
export type ClipLength = (typeof CLIP_LENGTHS)[number];
export const CLIP_LENGTH_RANGES_MS: Record<ClipLength, { minMs: number; maxMs: number }> = {
  auto: { minMs: 15_000, maxMs: 90_000 },
  under_30: { minMs: 10_000, maxMs: 30_000 },
  '30_60': { minMs: 30_000, maxMs: 60_000 },
  '60_90': { minMs: 60_000, maxMs: 90_000 },
};

/**
 * Every picture the app shows is a file the server stored (a frame of the video, of the
 * moment or of the export, or a link's preview image fetched once through the link guard) and
 * serves itself at `/api/thumbnail/{kind}/{id}`, to the owner, and to visitors of what was shared.
 */
export const THUMBNAIL_KINDS = ['task', 'moment', 'job', 'preview'] as const;
export type ThumbnailKind = (typeof THUMBNAIL_KINDS)[number];
export const thumbnailPath = (kind: ThumbnailKind, id: string) => `/api/thumbnail/${kind}/${id}`;

/**
 * How a clip is framed. `auto` lets the footage decide stretch by stretch; `speaker` is
 * a close-up that follows whoever speaks, `split` two people one above the other, `fit` the whole
 * frame over a blurred fill, `slide_speaker` the slide on top with the speaker below it.
 * `blur_fit` is the older name of `fit`, still accepted.
 */
export const EXPORT_LAYOUTS = [
  'auto',
  'speaker',
  'split',
  'fit',
  'slide_speaker',
  'blur_fit',
] as const;
export type ExportLayout = (typeof EXPORT_LAYOUTS)[number];
