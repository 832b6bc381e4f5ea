/**
 * Stable error codes. Every error reply is `{ code, message, data: null }` with an HTTP 4xx/5xx status;
 * the web app's global handler maps codes to dialogs, so codes never change meaning.
 * Success replies use code 0.
 */
export const ERROR_CODES = {
  // generic
  BAD_REQUEST: 'BAD_REQUEST',
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** Well formed, but refused by a rule about its content that the schema cannot state (422). */
  INVALID_INPUT: 'INVALID_INPUT',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  /** The path exists, not with this method; the reply's `Allow` header lists the ones it has. */
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  CONFLICT: 'CONFLICT',
  /** The Idempotency-Key was used before with another request: a new action needs a new key (422). */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this Idempotency-Key is still running: ask again shortly (409). */
  IDEMPOTENCY_KEY_IN_USE: 'IDEMPOTENCY_KEY_IN_USE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  URI_TOO_LONG: 'URI_TOO_LONG',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  INTERNAL: 'INTERNAL',
  /** PostgreSQL is down or restarting: the request did nothing; try again shortly (503). */
  DATABASE_UNAVAILABLE: 'DATABASE_UNAVAILABLE',
  /** The server's disk is full: nothing was kept from the request (507). */
  DISK_FULL: 'DISK_FULL',
  NETWORK_DISCONNECTED: 'NETWORK_DISCONNECTED',
  // accounts
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  USERNAME_TAKEN: 'USERNAME_TAKEN',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  /** The account's current password, asked before a change to it or its deletion, is wrong (403). */
  WRONG_PASSWORD: 'WRONG_PASSWORD',
  /** An email confirmation link past its time: ask for a new one (410). */
  EMAIL_LINK_EXPIRED: 'EMAIL_LINK_EXPIRED',
  /** An email confirmation link already opened once (links are single-use) (410). */
  EMAIL_LINK_USED: 'EMAIL_LINK_USED',
  /** A paid subscription still renews: it is cancelled first, then the account can go (409). */
  SUBSCRIPTION_ACTIVE: 'SUBSCRIPTION_ACTIVE',
  // codes with a dialog of their own in the web catalogue
  BALANCE_NOT_ENOUGH: 'BALANCE_NOT_ENOUGH',
  USAGE_LIMIT_REACHED: 'USAGE_LIMIT_REACHED',
  CREDIT_LIMIT_REACHED: 'CREDIT_LIMIT_REACHED',
  NOT_YEARLY_PLAN: 'NOT_YEARLY_PLAN',
  SENSITIVE_INFORMATION: 'SENSITIVE_INFORMATION',
  // media and links
  UNSUPPORTED_EXTENSION: 'UNSUPPORTED_EXTENSION',
  NOT_A_VIDEO: 'NOT_A_VIDEO',
  /** A real video whose picture is larger than the server processes (8K). */
  VIDEO_FRAME_TOO_LARGE: 'VIDEO_FRAME_TOO_LARGE',
  EMPTY_FILE: 'EMPTY_FILE',
  CORRUPT_MEDIA: 'CORRUPT_MEDIA',
  INVALID_URL: 'INVALID_URL',
  PRIVATE_ADDRESS: 'PRIVATE_ADDRESS',
  LINK_NOT_FOUND: 'LINK_NOT_FOUND',
  LINK_NOT_MEDIA: 'LINK_NOT_MEDIA',
  LINK_UNREACHABLE: 'LINK_UNREACHABLE',
  TASK_NOT_RETRYABLE: 'TASK_NOT_RETRYABLE',
  TRANSLATION_UNAVAILABLE: 'TRANSLATION_UNAVAILABLE',
  TRANSLATION_FAILED: 'TRANSLATION_FAILED',
  NO_AUDIO: 'NO_AUDIO',
  DOWNLOAD_FAILED: 'DOWNLOAD_FAILED',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  TIMEOUT: 'TIMEOUT',
  // media tools the server runs (ffmpeg, ffprobe, yt-dlp) failing or missing
  TOOL_MISSING: 'TOOL_MISSING',
  FFMPEG_FAILED: 'FFMPEG_FAILED',
  FFPROBE_FAILED: 'FFPROBE_FAILED',
  INVALID_RANGE: 'INVALID_RANGE',
  /** A moment's clip is longer than the plan's longest clip (MAX_CLIP_MINUTES); details.limit_ms. */
  CLIP_TOO_LONG: 'CLIP_TOO_LONG',
  UNKNOWN_TEMPLATE: 'UNKNOWN_TEMPLATE',
  /** An export option this server does not know; the message names it (400). */
  UNKNOWN_OPTION: 'UNKNOWN_OPTION',
  /** A cut that ends before it starts or lies outside the clip (422). */
  CUT_OUT_OF_RANGE: 'CUT_OUT_OF_RANGE',
  /** Two cuts overlap: each removed stretch is sent once (422). */
  CUTS_OVERLAP: 'CUTS_OVERLAP',
  /** The cuts leave (nearly) nothing of the clip (422). */
  CUTS_REMOVE_EVERYTHING: 'CUTS_REMOVE_EVERYTHING',
  /** A caption style names a font family not installed here (GET /api/captions/fonts). */
  UNKNOWN_FONT: 'UNKNOWN_FONT',
  /** More uploads than the plan takes per hour: Retry-After says when the next is taken (429). */
  UPLOAD_RATE_LIMITED: 'UPLOAD_RATE_LIMITED',
  /** The plan's storage for uploads is full: delete uploads or change plan (413). */
  STORAGE_QUOTA_EXCEEDED: 'STORAGE_QUOTA_EXCEEDED',
  /** A task that is still running reads this upload: it cannot be deleted until it ends (409). */
  UPLOAD_IN_USE: 'UPLOAD_IN_USE',
  // reliability: one user runs at most so many tasks / framing analyses at once
  TOO_MANY_RUNNING: 'TOO_MANY_RUNNING',
  // billing
  PAYMENT_DECLINED: 'PAYMENT_DECLINED',
  PLAN_NOT_ALLOWED: 'PLAN_NOT_ALLOWED',
  NO_SUBSCRIPTION: 'NO_SUBSCRIPTION',
  INVALID_SIGNATURE: 'INVALID_SIGNATURE',
  /** The plan's CANVAS_EXPORT limit is used up (not credits: the dialog words it differently). */
  EXPORT_LIMIT_REACHED: 'EXPORT_LIMIT_REACHED',
  /** The video is longer than the plan's longest video (MAX_VIDEO_MINUTES): the limit dialog. */
  VIDEO_TOO_LONG: 'VIDEO_TOO_LONG',
  // mail
  INVALID_UNSUBSCRIBE_LINK: 'INVALID_UNSUBSCRIBE_LINK',
  // API tokens and webhooks
  /** The API token lacks the scope this call needs (`read`, `write`, `billing`) (403). */
  INSUFFICIENT_SCOPE: 'INSUFFICIENT_SCOPE',
  /** Only a signed-in session may do this (make tokens, password, email, the account) (403). */
  SESSION_REQUIRED: 'SESSION_REQUIRED',
  TOO_MANY_TOKENS: 'TOO_MANY_TOKENS',
  TOO_MANY_WEBHOOKS: 'TOO_MANY_WEBHOOKS',
  // brand kits
  /** The plan's BRAND_KITS limit is reached: delete a kit or change plan (409). */
  BRAND_KIT_LIMIT_REACHED: 'BRAND_KIT_LIMIT_REACHED',
  /** A logo that is not a PNG, JPEG or safe SVG, cannot be decoded or is too many pixels (422). */
  INVALID_LOGO: 'INVALID_LOGO',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * The one HTTP status of each code: what the server answers with it and what the OpenAPI document
 * lists it under. 400 means the request breaks its documented schema; 422 means it is well formed
 * but refused by a rule about its content the schema cannot state (a link that cannot be fetched,
 * a file that is not a video, a range outside the video); 409, 402 and 403 depend on the account's
 * state. Tests fail when a route answers a code with another status (apps/server/src/http/contract.ts).
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INVALID_INPUT: 422,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  DATABASE_UNAVAILABLE: 503,
  DISK_FULL: 507,
  /** Made by the web app itself when the server cannot be reached; the server never sends it. */
  NETWORK_DISCONNECTED: 503,
  EMAIL_TAKEN: 409,
  USERNAME_TAKEN: 409,
  WEAK_PASSWORD: 422,
  INVALID_CREDENTIALS: 401,
  WRONG_PASSWORD: 403,
  EMAIL_LINK_EXPIRED: 410,
  EMAIL_LINK_USED: 410,
  SUBSCRIPTION_ACTIVE: 409,
  BALANCE_NOT_ENOUGH: 402,
  USAGE_LIMIT_REACHED: 402,
  CREDIT_LIMIT_REACHED: 402,
  NOT_YEARLY_PLAN: 403,
  SENSITIVE_INFORMATION: 403,
  UNSUPPORTED_EXTENSION: 422,
  NOT_A_VIDEO: 422,
  VIDEO_FRAME_TOO_LARGE: 422,
  EMPTY_FILE: 422,
  CORRUPT_MEDIA: 422,
  INVALID_URL: 422,
  PRIVATE_ADDRESS: 422,
  LINK_NOT_FOUND: 422,
  LINK_NOT_MEDIA: 422,
  LINK_UNREACHABLE: 422,
  TASK_NOT_RETRYABLE: 409,
  TRANSLATION_UNAVAILABLE: 422,
  TRANSLATION_FAILED: 502,
  NO_AUDIO: 422,
  DOWNLOAD_FAILED: 422,
  FILE_TOO_LARGE: 413,
  TIMEOUT: 504,
  TOOL_MISSING: 502,
  FFMPEG_FAILED: 502,
  FFPROBE_FAILED: 502,
  INVALID_RANGE: 422,
  CLIP_TOO_LONG: 422,
  UNKNOWN_TEMPLATE: 422,
  UNKNOWN_OPTION: 400,
  CUT_OUT_OF_RANGE: 422,
  CUTS_OVERLAP: 422,
  CUTS_REMOVE_EVERYTHING: 422,
  UNKNOWN_FONT: 422,
  UPLOAD_RATE_LIMITED: 429,
  STORAGE_QUOTA_EXCEEDED: 413,
  UPLOAD_IN_USE: 409,
  TOO_MANY_RUNNING: 429,
  PAYMENT_DECLINED: 402,
  PLAN_NOT_ALLOWED: 409,
  NO_SUBSCRIPTION: 409,
  INVALID_SIGNATURE: 400,
  EXPORT_LIMIT_REACHED: 402,
  VIDEO_TOO_LONG: 402,
  INVALID_UNSUBSCRIBE_LINK: 404,
  INSUFFICIENT_SCOPE: 403,
  SESSION_REQUIRED: 403,
  TOO_MANY_TOKENS: 409,
  TOO_MANY_WEBHOOKS: 409,
  BRAND_KIT_LIMIT_REACHED: 409,
  INVALID_LOGO: 422,
} as const satisfies Record<ErrorCode, number>;

export const isErrorCode = (code: string): code is ErrorCode =>
  Object.prototype.hasOwnProperty.call(ERROR_STATUS, code);

/** "Balance not enough" is decided by membership in this set. */
export const BALANCE_NOT_ENOUGH_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.BALANCE_NOT_ENOUGH,
  ERROR_CODES.CREDIT_LIMIT_REACHED,
]);

/** Codes that open the usage / credit-limit dialog. */
export const USAGE_LIMIT_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.USAGE_LIMIT_REACHED,
  ERROR_CODES.EXPORT_LIMIT_REACHED,
  ERROR_CODES.CREDIT_LIMIT_REACHED,
  ERROR_CODES.BALANCE_NOT_ENOUGH,
  ERROR_CODES.VIDEO_TOO_LONG,
]);

export const SUCCESS_CODE = 0;

/** What checking or fetching a video link can answer (the link guard, then the platform). */
export const LINK_ERRORS = [
  ERROR_CODES.INVALID_URL,
  ERROR_CODES.PRIVATE_ADDRESS,
  ERROR_CODES.LINK_NOT_FOUND,
  ERROR_CODES.LINK_NOT_MEDIA,
  ERROR_CODES.LINK_UNREACHABLE,
  ERROR_CODES.DOWNLOAD_FAILED,
  ERROR_CODES.TIMEOUT,
  ERROR_CODES.TOOL_MISSING,
] as const satisfies readonly ErrorCode[];

/**
 * What reading an uploaded file can answer (mp4, mov, webm with a picture): ffprobe, then ffmpeg
 * reading its last second and its thumbnail, any of which can fail or run out of time.
 */
export const UPLOADED_FILE_ERRORS = [
  ERROR_CODES.UNSUPPORTED_EXTENSION,
  ERROR_CODES.EMPTY_FILE,
  ERROR_CODES.NOT_A_VIDEO,
  ERROR_CODES.VIDEO_FRAME_TOO_LARGE,
  ERROR_CODES.CORRUPT_MEDIA,
  ERROR_CODES.FFPROBE_FAILED,
  ERROR_CODES.FFMPEG_FAILED,
  ERROR_CODES.TIMEOUT,
  ERROR_CODES.TOOL_MISSING,
] as const satisfies readonly ErrorCode[];

/**
 * What a charge the balance cannot cover answers, by the feature charged. The ledger throws
 * these, and a route that charges declares them with `chargeErrors` from this same table, so
 * what it documents cannot drift from what it answers.
 */
export const CHARGE_REFUSALS = {
  CREDIT: ERROR_CODES.BALANCE_NOT_ENOUGH,
  FREE_TOOL_CREDIT: ERROR_CODES.BALANCE_NOT_ENOUGH,
  CANVAS_EXPORT: ERROR_CODES.EXPORT_LIMIT_REACHED,
} as const satisfies Record<string, ErrorCode>;
export type ChargedFeature = keyof typeof CHARGE_REFUSALS;

/** The codes a route answers when a charge of any of `features` is refused. */
export const chargeErrors = (...features: ChargedFeature[]): ErrorCode[] =>
  features.map((feature) => CHARGE_REFUSALS[feature]);

/** What preparing captions of a clip can answer (templates, trims, translation). */
export const CAPTION_ERRORS = [
  ERROR_CODES.CONFLICT,
  ERROR_CODES.UNKNOWN_TEMPLATE,
  ERROR_CODES.UNKNOWN_FONT,
  ERROR_CODES.INVALID_RANGE,
  ERROR_CODES.CLIP_TOO_LONG,
  ERROR_CODES.TRANSLATION_UNAVAILABLE,
  ERROR_CODES.TRANSLATION_FAILED,
  ERROR_CODES.UNKNOWN_OPTION,
  ERROR_CODES.CUT_OUT_OF_RANGE,
  ERROR_CODES.CUTS_OVERLAP,
  ERROR_CODES.CUTS_REMOVE_EVERYTHING,
] as const satisfies readonly ErrorCode[];
