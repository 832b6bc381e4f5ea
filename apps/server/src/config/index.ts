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
const EnvSchema = z.object({
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
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool(true),
  REALTIME_BUS: z.enum(['memory', 'postgres', 'redis']).default('memory'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Signs file links; absent: a random secret kept in DATA_DIR/secret. */
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
  WEB_DIST_DIR: z.string().default(path.join(REPO_ROOT, 'apps/web/dist')),
  TOOLS_DIR: z.string().default(path.join(REPO_ROOT, '.tools')),
  EXTERNAL_TOOLS_BASE_URL: z.string().optional(),
  ASR_BASE_URL: z.string().optional(),
  ASR_API_KEY: z.string().optional(),
  ASR_MODEL: z.string().optional(),
  ASR_MODEL_DIR: z.string().optional(),
  LLM_BASE_URL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
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
   * How often an idle worker asks the queue for a job sent by another process; a job sent by
   * this process wakes its own workers at once.
   */
  JOB_POLL_SECONDS: z.coerce.number().int().min(1).max(300).default(1),
  /** Tasks one user may have queued or running at once; more answer 429 TOO_MANY_RUNNING. */
  MAX_RUNNING_TASKS_PER_USER: z.coerce.number().int().min(1).max(1000).default(5),
  /** Framing analyses (editor previews) one user may have under way at once. */
  MAX_FRAMING_ANALYSES_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** Which job queues a worker takes: `asr` (tasks: download, transcribe, find moments), `render` (exports). */
  WORKER_QUEUES: csv
    .pipe(z.array(z.enum(['asr', 'render'])))
    .transform((queues) => (queues.length ? queues : (['asr', 'render'] as const))),
  /** `cuda` runs faster-whisper on the GPU; refused at start when no CUDA device is visible. */
  ASR_DEVICE: z.enum(['cpu', 'cuda']).default('cpu'),
  /** `nvenc` encodes exports with h264_nvenc; refused at start when ffmpeg cannot use it. */
  VIDEO_ENCODER: z.enum(['x264', 'nvenc']).default('x264'),
  /** Absent: mail is written to DATA_DIR/outbox (and the log) instead of being sent. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Moments <no-reply@localhost>'),
  /** Where enterprise contact requests and feedback go; absent: the outbox only. */
  OPERATOR_EMAIL: z.string().optional(),
  /** Billing (issue 9): both set switches payments from the built-in TEST MODE checkout to Stripe. */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Where the Stripe SDK sends API calls (tests point it at a local server); absent: Stripe's. */
  STRIPE_API_BASE: z.url().optional(),
});

export type AppConfig = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {}

/** Reads and validates the environment; throws one message listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.STORAGE_DRIVER === 's3' && !config.S3_BUCKET) {
    throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER=s3');
  }
  return config;
}
