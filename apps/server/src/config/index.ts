import cluster from 'node:cluster';
import path from 'node:path';
import { z } from 'zod';

/** Where the repository lives, so default paths do not depend on the working directory. */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

/**
 * Every knob the server reads from the environment, validated once at start. Defaults give the
 * embedded one-machine setup: PGlite under DATA_DIR, local file storage, in-process realtime.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `api`, `worker` or both (the default), comma separated. */
  ROLES: csv
    .pipe(z.array(z.enum(['api', 'worker'])))
    .transform((roles) => (roles.length ? roles : (['api', 'worker'] as const))),
  DATA_DIR: z.string().default(path.join(REPO_ROOT, 'data')),
  /** Absent: embedded PGlite in DATA_DIR/pglite. */
  DATABASE_URL: z.string().optional(),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().optional(),
  /**
   * The S3 address browsers download from (presigned links), when it is not S3_ENDPOINT (a
   * bucket the servers reach on a private network); absent: S3_ENDPOINT.
   */
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool(true),
  REALTIME_BUS: z.enum(['memory', 'postgres', 'redis']).default('memory'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /**
   * Realtime (STOMP) connections one user may hold at once, counted per API process: with
   * API_PROCESSES > 1 a user may hold this many on each, since the processes do not share the count.
   */
  REALTIME_MAX_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * Signs file, picture and unsubscribe links and page cursors. Absent: a random secret kept in
   * DATA_DIR/secret, which only one machine has; required (the same on every machine) when the
   * roles run in separate processes (ROLES=api or ROLES=worker).
   */
  APP_SECRET: z.string().min(32).optional(),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  LOGIN_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  LOGIN_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(8 * 1024 ** 3),
  /** Hosts (or host:port) that links may point at although they resolve to private addresses. */
  MEDIA_FETCH_ALLOW_HOSTS: csv,
  /**
   * Webhooks may point at private and loopback addresses (a receiver on the operator's LAN, a
   * test); off, such addresses are refused when a webhook is saved and again at each delivery.
   */
  WEBHOOK_ALLOW_PRIVATE: bool(false),
  /** How long a webhook receiver has to answer one delivery attempt, in milliseconds. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * The wait before a failed delivery's first retry, in seconds; each next retry waits about
   * twice as long (8 retries: from 30 s, two to four hours in all).
   */
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Requests one API token may make per window (each token counted on its own). */
  API_TOKEN_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(600),
  API_TOKEN_RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  /**
   * Which proxies' X-Forwarded-* headers to believe (Fastify `trustProxy`): unset trusts none (the
   * client address is the socket's), `true` every hop, a number that many hops, otherwise a comma
   * list of addresses/CIDRs such as `127.0.0.1,10.0.0.0/8`.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value): boolean | number | string[] => {
      const text = (value ?? '').trim();
      if (text === '' || text === 'false') return false;
      if (text === 'true') return true;
      if (/^\d+$/.test(text)) return Number(text);
      return text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    }),
  /** Sign-ups per client address per window (each new account gets free credits). */
  SIGNUP_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(10),
  SIGNUP_RATE_LIMIT_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60_000),
  /** Posts of the forms that need no account (coming soon, help feedback) per client address. */
  FORM_RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(5),
  FORM_RATE_LIMIT_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(10 * 60_000),
  WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
  ASR_BASE_URL: z.string().optional(),
  ASR_API_KEY: z.string().optional(),
  ASR_MODEL: z.string().optional(),
  ASR_MODEL_DIR: z.string().optional(),
  LLM_BASE_URL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  /** A running task heart-beats; one silent this long is resumed by another worker. */
  TASK_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  DOWNLOAD_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(30 * 60_000),
  /** Downloads are capped at this height: exports are at most 1080p. */
  PROCESSING_MAX_HEIGHT: z.coerce.number().int().min(144).max(4320).default(1080),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  /**
   * HTTP API processes sharing the port (node:cluster), one per core is the usual choice; they
   * share realtime through REALTIME_BUS, so more than one needs PostgreSQL and a postgres or redis bus.
   */
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /**
   * How often an idle worker asks the queue for a job sent by another process; a job sent by
   * this process wakes its own workers at once.
   */
  JOB_POLL_SECONDS: z.coerce.number().int().min(1).max(300).default(1),
  /**
   * How often the job clock looks for periodic work that is due (housekeeping, reaping,
   * renewals) and hands it to the queues.
   */
  JOB_CLOCK_SECONDS: z.coerce.number().int().min(1).max(45).default(10),
  /** Tasks one user may have queued or running at once; more answer 429 TOO_MANY_RUNNING. */
  MAX_RUNNING_TASKS_PER_USER: z.coerce.number().int().min(1).max(1000).default(5),
  /** Framing analyses (editor previews) one user may have under way at once. */
  MAX_FRAMING_ANALYSES_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /**
   * How many of a DONE task's best moments get their framing analysed in the background, so
   * their exports only render (0: none, exports analyse when they run).
   */
  FRAMING_PREPARE_MOMENTS: z.coerce.number().int().min(0).max(50).default(3),
  /** Which job queues a worker takes: `asr` (tasks: download, transcribe, find moments), `render` (exports). */
  WORKER_QUEUES: csv
    .pipe(z.array(z.enum(['asr', 'render'])))
    .transform((queues) => (queues.length ? queues : (['asr', 'render'] as const))),
  /** `cuda` runs faster-whisper on the GPU; refused at start when no CUDA device is visible. */
  ASR_DEVICE: z.enum(['cpu', 'cuda']).default('cpu'),
  /**
   * `fast` hears English with Whisper tiny.en (batched, about 2x faster, a few points of
   * WER worse on real readings), `accurate` (the default) with the main model.
   */
  ASR_ACCURACY: z.enum(['fast', 'accurate']).optional(),
  /** Long audio is cut at silences into chunks of about this many seconds, one job each. */
  ASR_CHUNK_SECONDS: z.coerce.number().int().min(10).max(3600).default(180),
  /**
   * Whisper processes a worker keeps, each transcribing one chunk at a time with
   * cores / ASR_PROCESSES threads (ASR_THREADS overrides). Absent: 2 on a CPU, 1 on a GPU.
   */
  ASR_PROCESSES: z.coerce.number().int().min(1).max(16).optional(),
  // The local engine's finer knobs (packages/ai faster-whisper); absent, its own defaults.
  ASR_THREADS: z.coerce.number().int().min(1).optional(),
  ASR_BEAM_SIZE: z.coerce.number().int().min(1).max(10).optional(),
  ASR_BATCH_SIZE: z.coerce.number().int().min(0).optional(),
  ASR_COMPUTE_TYPE: z.string().optional(),
  ASR_PYTHON: z.string().optional(),
  ASR_ENGLISH_MODEL_DIR: z.string().optional(),
  ASR_ENGLISH_BATCH_SIZE: z.coerce.number().int().min(1).max(64).optional(),
  ASR_ENGLISH_BEAM_SIZE: z.coerce.number().int().min(1).max(10).optional(),
  ASR_ENGLISH_CLIP_SECONDS: z.coerce.number().int().min(5).max(30).optional(),
  ASR_PROCESS_MAX_MB: z.coerce.number().int().min(200).optional(),
  ASR_PROCESS_MAX_GROWTH_MB: z.coerce.number().int().min(0).optional(),
  /** The sentence model of search and moments; absent: the packages' own default folder. */
  EMBEDDING_MODEL_DIR: z.string().trim().optional(),
  // The media tools; absent, the media package's defaults (packages/media/src/tools).
  FFMPEG_PATH: z.string().trim().optional(),
  FFPROBE_PATH: z.string().trim().optional(),
  YTDLP_PATH: z.string().trim().optional(),
  FFMPEG_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  FFMPEG_NICENESS: z.coerce.number().int().min(0).max(19).optional(),
  FFMPEG_TIMEOUT_MS: z.coerce.number().int().min(1000).optional(),
  /** Colon list of folders holding the caption fonts. */
  CAPTION_FONT_DIRS: z
    .string()
    .optional()
    .transform((value) => {
      const dirs = (value ?? '').split(':').filter(Boolean);
      return dirs.length ? dirs : undefined;
    }),
  /** `nvenc` encodes exports with h264_nvenc; refused at start when ffmpeg cannot use it. */
  VIDEO_ENCODER: z.enum(['x264', 'nvenc']).default('x264'),
  /** Absent: mail is written to DATA_DIR/outbox (and the log) instead of being sent. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Moments <no-reply@localhost>'),
  /** Where enterprise contact requests and feedback go; absent: the outbox only. */
  OPERATOR_EMAIL: z.string().optional(),
  /**
   * Billing: `off` (no plans and no limits: a team's own instance), `test` (the labelled
   * TEST MODE checkout; nothing is charged) or `stripe` (needs both Stripe secrets). Unset: `stripe`
   * when a Stripe secret is set, `test` while listening on loopback, otherwise start refuses.
   */
  BILLING: z.enum(['off', 'test', 'stripe']).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Where the Stripe SDK sends API calls (tests point it at a local server); absent: Stripe's. */
  STRIPE_API_BASE: z.url().optional(),
});

export type AppConfig = Omit<z.infer<typeof EnvSchema>, 'BILLING'> & {
  BILLING: 'off' | 'test' | 'stripe';
};

/** BILLING, decided explicitly: nothing about money is left to a silent default. */
function billingMode(config: z.infer<typeof EnvSchema>): AppConfig['BILLING'] {
  const stripeSecrets = !!(config.STRIPE_SECRET_KEY || config.STRIPE_WEBHOOK_SECRET);
  const mode =
    config.BILLING ?? (stripeSecrets ? 'stripe' : isLoopback(config.HOST) ? 'test' : undefined);
  if (!mode) {
    throw new ConfigError(
      `Invalid configuration:\n  BILLING: must be set when the server listens on HOST=${config.HOST} (not loopback): ` +
        'off (no plans and no limits), test (the TEST MODE checkout, nothing is charged) or stripe (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)',
    );
  }
  if (mode === 'stripe') {
    const missing = (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const).filter(
      (name) => !config[name],
    );
    if (missing.length) {
      throw new ConfigError(
        `Invalid configuration:\n${missing
          .map((name) => `  ${name}: required for BILLING=stripe (Stripe payments)`)
          .join('\n')}`,
      );
    }
  }
  return mode;
}

/** Where links in mails and previews point: PUBLIC_URL, else the address the server listens on. */
/**
 * Where links point (mail, checkout, invoices, share previews): PUBLIC_URL, else the address the
 * server listens on (only a loopback address may go without PUBLIC_URL; see loadConfig). Never the
 * request's Host header.
 */
export function publicUrlOf(config: AppConfig): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}`;
}

export class ConfigError extends Error {}

/** 127.0.0.0/8, ::1 and localhost: only this machine can connect. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Reads and validates the environment; throws one message listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // Reachable from other machines, links (checkout, invoices, mail, share previews) must name
  // the address people use; the request's Host header is anyone's to set. Said in
  // one message with what billing needs on such a server.
  const { ROLES, PUBLIC_URL, HOST } = parsed.data;
  const problems: string[] = [];
  // Roles in separate processes (the API children a cluster forks share their parent's
  // DATA_DIR, and so its secret file): each machine would make its own secret, and links one
  // signs the other refuses.
  const rolesSplit = ROLES.length === 1 && !cluster.isWorker;
  if (rolesSplit && !parsed.data.APP_SECRET) {
    problems.push(
      `  APP_SECRET: required when the roles run in separate processes (ROLES=${ROLES[0]}): set the ` +
        'same secret on every machine, e.g. APP_SECRET=$(openssl rand -hex 32) once, kept in ' +
        '/etc/moments/moments.env',
    );
  }
  if (rolesSplit && ROLES[0] === 'worker' && !PUBLIC_URL) {
    problems.push(
      '  PUBLIC_URL: required for ROLES=worker: workers send the mails, whose links must open on ' +
        'the API; set the same PUBLIC_URL as the API machine (e.g. https://moments.example.org)',
    );
  }
  if (!!parsed.data.S3_ACCESS_KEY_ID !== !!parsed.data.S3_SECRET_ACCESS_KEY) {
    problems.push(
      '  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both (the key pair of the bucket) or neither ' +
        '(an instance role or AWS_* credentials)',
    );
  }
  if (ROLES.includes('api') && !PUBLIC_URL && !isLoopback(HOST)) {
    problems.push(
      `  PUBLIC_URL: required when HOST=${HOST} is not a loopback address: set it to the ` +
        'address people open, e.g. PUBLIC_URL=https://moments.example.org',
    );
  }
  let billing: AppConfig['BILLING'] | undefined;
  try {
    billing = billingMode(parsed.data);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.message.split('\n').slice(1));
  }
  if (problems.length > 0 || !billing) {
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const config = { ...parsed.data, BILLING: billing };
  if (config.STORAGE_DRIVER === 's3' && !config.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER=s3');
  }
  if (config.API_PROCESSES > 1 && (!config.DATABASE_URL || config.REALTIME_BUS === 'memory')) {
    throw new ConfigError(
      'Invalid configuration:\n  API_PROCESSES: more than one API process needs DATABASE_URL ' +
        '(PostgreSQL; the embedded database belongs to one process) and REALTIME_BUS=postgres or redis',
    );
  }
  return config;
}

/** The keys the speech engine is configured by (packages/ai createSpeechEngine reads these names). */
const SPEECH_KEYS = [
  'ASR_BASE_URL',
  'ASR_API_KEY',
  'ASR_MODEL',
  'ASR_MODEL_DIR',
  'ASR_DEVICE',
  'ASR_ACCURACY',
  'ASR_PROCESSES',
  'ASR_THREADS',
  'ASR_BEAM_SIZE',
  'ASR_BATCH_SIZE',
  'ASR_COMPUTE_TYPE',
  'ASR_PYTHON',
  'ASR_ENGLISH_MODEL_DIR',
  'ASR_ENGLISH_BATCH_SIZE',
  'ASR_ENGLISH_BEAM_SIZE',
  'ASR_ENGLISH_CLIP_SECONDS',
  'ASR_PROCESS_MAX_MB',
  'ASR_PROCESS_MAX_GROWTH_MB',
] as const satisfies readonly (keyof AppConfig)[];

/** The speech engine's settings as the validated config holds them, by the names the engine reads. */
export function speechSettings(
  config: Pick<AppConfig, (typeof SPEECH_KEYS)[number]>,
): Record<string, string | undefined> {
  return Object.fromEntries(
    SPEECH_KEYS.map((key) => [key, config[key] === undefined ? undefined : String(config[key])]),
  );
}
