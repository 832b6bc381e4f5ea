import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { z } from 'zod';
import { EnvSchema, REPO_ROOT } from './index.js';

/** Where the operator's reference of every variable lives (`npm run docs:config` writes it). */
export const CONFIG_DOCS_FILE = path.join(REPO_ROOT, 'docs', 'configuration.md');

export type EnvKey = keyof typeof EnvSchema.shape;

const GROUPS = {
  server: {
    title: 'Server and network',
    intro: 'Where the server listens, what it believes about the proxy in front of it, its log.',
  },
  processes: {
    title: 'Processes and roles',
    intro:
      'Which work this process does. One machine runs everything in one process by default; ' +
      '[deployment.md](deployment.md) shows the same build split over several machines.',
  },
  data: {
    title: 'Database, files and realtime',
    intro:
      'The defaults keep everything in `DATA_DIR` (embedded PGlite, local files, in-process ' +
      'realtime); the others are for several processes or machines.',
  },
  limits: {
    title: 'Accounts and limits',
    intro: 'Sessions, signing, and what one client address or one user may do at once.',
  },
  work: {
    title: 'Tasks and exports',
    intro: 'How long a task may take, what it downloads, how exports are prepared and encoded.',
  },
  speech: {
    title: 'Speech recognition',
    intro:
      'The local engine is faster-whisper with the models `scripts/setup.sh` installs ' +
      '([models.md](models.md)); `ASR_BASE_URL` swaps in any OpenAI-compatible endpoint.',
  },
  llm: {
    title: 'LLM (optional)',
    intro:
      'Nothing needs an LLM. With one, it judges and titles moment candidates, writes summary ' +
      'prose and translates captions; any failure falls back to the offline result and the task says so.',
  },
  mail: {
    title: 'Mail',
    intro: 'Unset, mail is written to `DATA_DIR/outbox` and the log instead of being sent.',
  },
  tools: {
    title: 'Media tools and models',
    intro:
      'Unset, the packages use their own defaults: ffmpeg and ffprobe on the `PATH`, what ' +
      '`scripts/setup.sh` installs under `.tools`, the fonts Debian’s `fonts-noto` packages install. ' +
      'A path that does not exist fails where the tool is first run.',
  },
  billing: {
    title: 'Billing',
    intro:
      'Plans, credits and checkout are described in [features.md](features.md#plans-credits-and-billing).',
  },
} as const;

type Group = keyof typeof GROUPS;

interface VariableDoc {
  group: Group;
  /** What the variable does, for an operator. */
  meaning: string;
  /** Accepted values where the schema's own type says too little (a comma list, a proxy list). */
  values?: string;
  /** What an unset variable means, where the schema has no default and the server decides at start. */
  unset?: string;
}

/**
 * The meaning of every variable of EnvSchema. Keyed by the schema's own keys, so a variable added
 * to the schema without a line here (or a line left for a removed one) fails the type check.
 * Defaults and accepted values are not written here: they are read from the schema.
 */
const VARIABLES: Record<EnvKey, VariableDoc> = {
  HOST: {
    group: 'server',
    meaning:
      'Address the API and web app listen on. Anything but a loopback address needs `PUBLIC_URL`, ' +
      'and `BILLING` set explicitly.',
  },
  PORT: { group: 'server', meaning: 'Port the API, the web app and the STOMP endpoint share.' },
  PUBLIC_URL: {
    group: 'server',
    meaning:
      'The address people open. Links in mail, checkout returns, invoices and share previews point ' +
      'here, never at the request’s Host header. Required when `HOST` is not a loopback address, ' +
      'and for `ROLES=worker` (workers send the mails); the same on every machine (checked at start).',
    unset: 'the listen address',
  },
  TRUST_PROXY: {
    group: 'server',
    values: '`true`, a hop count, or a comma list of addresses/CIDRs',
    meaning:
      'Proxies whose `X-Forwarded-*` headers are believed (client address for rate limits, https ' +
      'for cookies and `Strict-Transport-Security`). Unset trusts none. Name the proxy that ends TLS here.',
  },
  COOKIE_SECURE: {
    group: 'server',
    meaning:
      'The session cookie’s `Secure` flag: `auto` sets it when the request came over https ' +
      '(behind a proxy, with `TRUST_PROXY`), `true` always, `false` never.',
  },
  LOG_LEVEL: {
    group: 'server',
    meaning: 'Least severe level written to the JSON log on standard output.',
  },
  NODE_ENV: {
    group: 'server',
    meaning:
      '`test` makes a reply the route does not declare an error (500 naming the fix), so tests catch ' +
      'it; otherwise it is sent as is and logged. `npm start` runs with `production`.',
  },
  WEB_DIST_DIR: {
    group: 'server',
    meaning:
      'The built web app the server serves (`npm start` builds it when its sources changed).',
  },
  ROLES: {
    group: 'processes',
    values: 'comma list of `api`, `worker`',
    meaning: 'Run the HTTP API (with realtime), the job workers, or both in this process.',
  },
  API_PROCESSES: {
    group: 'processes',
    meaning:
      'HTTP API processes sharing the port through node:cluster, one per core as a rule. More than ' +
      'one needs `DATABASE_URL` and `REALTIME_BUS=postgres` or `redis`. With `ROLES=api,worker` the ' +
      'parent runs the workers and the children serve HTTP.',
  },
  WORKER_QUEUES: {
    group: 'processes',
    values: 'comma list of `asr`, `render`',
    meaning:
      'Which jobs a worker takes: `asr` (tasks: download, transcribe, find moments) and `render` (exports).',
  },
  WORKER_CONCURRENCY: {
    group: 'processes',
    meaning:
      'Tasks or exports one worker process runs at once; each render gets `cores / WORKER_CONCURRENCY` threads.',
  },
  JOB_POLL_SECONDS: {
    group: 'processes',
    meaning:
      'How often an idle worker looks for jobs sent by other processes; a job sent by this process wakes its own workers at once.',
  },
  JOB_CLOCK_SECONDS: {
    group: 'processes',
    meaning:
      'How often the job clock looks for periodic work that is due (housekeeping, reaping, renewals, sweeps) and hands it to the queues.',
  },
  DATA_DIR: {
    group: 'data',
    meaning:
      'Embedded database (`pglite/`), local files (`files/`), resumable uploads (`tus/`), work folders ' +
      '(`tmp/`), the mail outbox and the signing secret. Must be writable; start refuses otherwise.',
  },
  DATABASE_URL: {
    group: 'data',
    meaning:
      'PostgreSQL instead of the embedded database: same schema and migrations, applied at start. ' +
      'Needed by several processes or machines.',
    unset: 'PGlite in `DATA_DIR/pglite`',
  },
  REALTIME_MAX_CONNECTIONS_PER_USER: {
    group: 'data',
    meaning:
      'Live-update (STOMP) connections one user may hold at once, one per open tab; the next is refused with a message that says so. Counted per API process.',
  },
  REALTIME_BUS: {
    group: 'data',
    meaning:
      'How live updates reach the browsers of other API processes: `postgres` (LISTEN/NOTIFY) or ' +
      '`redis` (pub/sub); `memory` is one process only. The same on every machine: a process whose ' +
      'bus differs from the running ones refuses to start.',
  },
  REDIS_URL: { group: 'data', meaning: 'The Redis server of `REALTIME_BUS=redis`.' },
  STORAGE_DRIVER: {
    group: 'data',
    meaning: 'Where files go: `DATA_DIR/files`, or an S3-compatible bucket (`S3_*`).',
  },
  S3_BUCKET: { group: 'data', meaning: 'The bucket; required with `STORAGE_DRIVER=s3`.' },
  S3_ENDPOINT: {
    group: 'data',
    meaning: 'The S3-compatible server (MinIO, Ceph, another cloud); unset: AWS.',
  },
  S3_PUBLIC_ENDPOINT: {
    group: 'data',
    meaning:
      'The S3 address browsers download from: presigned export links are signed for it, when ' +
      'browsers cannot reach `S3_ENDPOINT` (a bucket on a private network).',
    unset: '`S3_ENDPOINT`',
  },
  S3_REGION: { group: 'data', meaning: 'The bucket’s region.' },
  S3_ACCESS_KEY_ID: {
    group: 'data',
    meaning:
      'Access key; used only together with `S3_SECRET_ACCESS_KEY`, otherwise the AWS SDK’s own chain (environment, instance role) applies.',
  },
  S3_SECRET_ACCESS_KEY: { group: 'data', meaning: 'Secret of `S3_ACCESS_KEY_ID`.' },
  S3_FORCE_PATH_STYLE: {
    group: 'data',
    meaning:
      'Address the bucket as `endpoint/bucket` rather than `bucket.endpoint` (MinIO needs it).',
  },
  APP_SECRET: {
    group: 'limits',
    meaning:
      'Signs file links, picture links in mail, unsubscribe links and search cursors (at least 32 ' +
      'characters, e.g. `openssl rand -hex 32`). Required when the roles run in separate processes ' +
      '(`ROLES=api` or `ROLES=worker`), the same on every machine: a process whose secret differs ' +
      'from the running ones refuses to start.',
    unset: 'a random secret made on first start and kept in `DATA_DIR/secret`',
  },
  SESSION_TTL_DAYS: { group: 'limits', meaning: 'How long a login lasts.' },
  LOGIN_RATE_LIMIT_MAX: {
    group: 'limits',
    meaning: 'Login attempts per client address per window; more answer 429 `RATE_LIMITED`.',
  },
  LOGIN_RATE_LIMIT_WINDOW_MS: { group: 'limits', meaning: 'The window of `LOGIN_RATE_LIMIT_MAX`.' },
  SIGNUP_RATE_LIMIT_MAX: {
    group: 'limits',
    meaning: 'Sign-ups per client address per window (each new account gets free credits).',
  },
  SIGNUP_RATE_LIMIT_WINDOW_MS: {
    group: 'limits',
    meaning: 'The window of `SIGNUP_RATE_LIMIT_MAX`.',
  },
  FORM_RATE_LIMIT_MAX: {
    group: 'limits',
    meaning:
      'Posts per client address per window to the forms that need no account (coming soon, help feedback).',
  },
  FORM_RATE_LIMIT_WINDOW_MS: { group: 'limits', meaning: 'The window of `FORM_RATE_LIMIT_MAX`.' },
  UPLOAD_MAX_BYTES: { group: 'limits', meaning: 'Largest accepted upload, in bytes (8 GiB).' },
  MAX_RUNNING_TASKS_PER_USER: {
    group: 'limits',
    meaning:
      'Tasks one user may have queued or running at once; more answer 429 `TOO_MANY_RUNNING`.',
  },
  MAX_FRAMING_ANALYSES_PER_USER: {
    group: 'limits',
    meaning:
      'Framing previews (the studio’s shot analysis) one user may have under way in one process; more answer 429 `TOO_MANY_RUNNING`.',
  },
  MEDIA_FETCH_ALLOW_HOSTS: {
    group: 'limits',
    values: 'comma list of hosts or `host:port`',
    meaning:
      'Hosts a video link may reach although they resolve to private addresses (every other private address is refused).',
  },
  WEBHOOK_ALLOW_PRIVATE: {
    group: 'limits',
    meaning:
      'Webhooks may call private and loopback addresses (a receiver on your LAN, a test); off, such an address is refused when a webhook is saved (422 `PRIVATE_ADDRESS`) and at every delivery.',
  },
  WEBHOOK_TIMEOUT_MS: {
    group: 'limits',
    meaning:
      'How long a webhook receiver has to answer one delivery attempt; longer is a failed attempt.',
  },
  WEBHOOK_RETRY_DELAY_SECONDS: {
    group: 'limits',
    meaning:
      'The wait before a failed webhook delivery is tried again; each next retry waits about twice as long, 9 attempts in all.',
  },
  API_TOKEN_RATE_LIMIT_MAX: {
    group: 'limits',
    meaning:
      'Requests one personal API token may make per window, each token counted on its own; more answer 429 `RATE_LIMITED`.',
  },
  API_TOKEN_RATE_LIMIT_WINDOW_MS: {
    group: 'limits',
    meaning: 'The window of `API_TOKEN_RATE_LIMIT_MAX`.',
  },
  TASK_LEASE_MS: {
    group: 'work',
    meaning:
      'A running task or transcription chunk heart-beats; one silent this long (its worker died) is resumed by another worker, keeping the stages already done.',
  },
  DOWNLOAD_TIMEOUT_MS: {
    group: 'work',
    meaning: 'Timeout of a task’s downloading stage (30 minutes).',
  },
  PROCESSING_MAX_HEIGHT: {
    group: 'work',
    meaning: 'Downloads are capped at this height; exports are at most 1080p.',
  },
  FRAMING_PREPARE_MOMENTS: {
    group: 'work',
    meaning:
      'How many of a finished task’s best moments get their framing and loudness analysed in the background, so their exports only render (0: exports analyse when they run).',
  },
  VIDEO_ENCODER: {
    group: 'work',
    meaning:
      '`nvenc` encodes exports with h264_nvenc on an NVIDIA GPU; a worker refuses to start when ffmpeg cannot use it.',
  },
  ASR_DEVICE: {
    group: 'speech',
    meaning:
      '`cuda` runs faster-whisper on an NVIDIA GPU (float16, batched); a worker refuses to start when CTranslate2 sees no CUDA device or cannot load cuBLAS.',
  },
  ASR_ACCURACY: {
    group: 'speech',
    meaning:
      '`fast` hears English with Whisper tiny.en, batched (about twice as fast, 1-2 points more words wrong); `accurate` hears every language with the main model.',
    unset: '`accurate`',
  },
  ASR_CHUNK_SECONDS: {
    group: 'speech',
    meaning:
      'Long audio is cut at silences into chunks of about this length, one queued job each, so any worker with the `asr` queue can take one.',
  },
  ASR_PROCESSES: {
    group: 'speech',
    meaning:
      'Long-lived Whisper processes a worker keeps, each transcribing one chunk at a time with `cores / ASR_PROCESSES` threads.',
    unset: '2 on a CPU (fewer on one core), 1 on a GPU',
  },
  ASR_THREADS: {
    group: 'speech',
    meaning: 'Threads of each Whisper process.',
    unset: 'cores / processes',
  },
  ASR_BEAM_SIZE: {
    group: 'speech',
    meaning:
      'Beams of the main model (1: greedy, 1.5x faster on a CPU at the same word error rate).',
    unset: '`1` (CPU), `5` (GPU)',
  },
  ASR_BATCH_SIZE: {
    group: 'speech',
    meaning:
      'Batch size of the main model (0: sequential). Batching is faster on a CPU but mishears the first word after a pause.',
    unset: '`0` (CPU), `16` (GPU)',
  },
  ASR_COMPUTE_TYPE: {
    group: 'speech',
    meaning: 'CTranslate2 quantisation.',
    unset: '`int8` (CPU), `float16` (GPU)',
  },
  ASR_PYTHON: {
    group: 'speech',
    meaning: 'The Python with faster-whisper.',
    unset: '`.tools/venv/bin/python`',
  },
  ASR_ENGLISH_MODEL_DIR: {
    group: 'speech',
    meaning: 'The English model of `ASR_ACCURACY=fast`.',
    unset: '`.tools/models/whisper-tiny-en`',
  },
  ASR_ENGLISH_BATCH_SIZE: {
    group: 'speech',
    meaning: 'Batch size of the English model.',
    unset: '`4`',
  },
  ASR_ENGLISH_BEAM_SIZE: {
    group: 'speech',
    meaning: 'Beams of the English model.',
    unset: '`5`',
  },
  ASR_ENGLISH_CLIP_SECONDS: {
    group: 'speech',
    meaning: 'Longest stretch of speech the batched English pipeline decodes at once (5-30).',
    unset: '`30`',
  },
  ASR_PROCESS_MAX_MB: {
    group: 'speech',
    meaning: 'A Whisper process resident past this many MB is restarted after its file.',
    unset: '`1500`',
  },
  ASR_PROCESS_MAX_GROWTH_MB: {
    group: 'speech',
    meaning:
      'A Whisper process grown by more than this over its size after its first transcription is restarted after its file.',
    unset: '`120`',
  },
  ASR_MODEL_DIR: {
    group: 'speech',
    meaning:
      'A local CTranslate2 Whisper model for faster-whisper (e.g. a larger one for accuracy).',
    unset: '`.tools/models/whisper-base`',
  },
  ASR_MODEL: {
    group: 'speech',
    meaning:
      'With `ASR_BASE_URL`: the endpoint’s model name. Without it and without `ASR_MODEL_DIR`: a faster-whisper model name such as `small`, downloaded on first use (needs internet).',
  },
  ASR_BASE_URL: {
    group: 'speech',
    meaning:
      'Any OpenAI-compatible transcription endpoint instead of the local engine; chunks are sent one at a time.',
  },
  ASR_API_KEY: { group: 'speech', meaning: 'Bearer key of `ASR_BASE_URL`.' },
  LLM_BASE_URL: {
    group: 'llm',
    meaning:
      'Any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM…); used only when `LLM_MODEL` is set too. Without it, a task asking for translated captions is refused with `TRANSLATION_UNAVAILABLE` before anything is charged.',
  },
  LLM_MODEL: { group: 'llm', meaning: 'The model name sent to `LLM_BASE_URL`.' },
  LLM_API_KEY: { group: 'llm', meaning: 'Bearer key of `LLM_BASE_URL`.' },
  LLM_TIMEOUT_MS: {
    group: 'llm',
    meaning: 'How long one LLM reply may take before the offline result is used.',
  },
  SMTP_URL: {
    group: 'mail',
    meaning:
      'Send mail through this SMTP server (e.g. `smtps://user:pass@mail.example.org:465`), from a `mail-send` job retried for about a day.',
  },
  MAIL_FROM: { group: 'mail', meaning: 'Sender of every mail.' },
  OPERATOR_EMAIL: {
    group: 'mail',
    meaning: 'Receives help feedback and enterprise contact requests; unset: the outbox only.',
  },
  BILLING: {
    group: 'billing',
    meaning:
      '`off`: no plans and no limits (a team’s own instance). `test`: the built-in TEST MODE checkout, nothing is charged. `stripe`: Stripe, needs both Stripe secrets.',
    unset:
      '`stripe` when a Stripe secret is set, `test` while `HOST` is loopback, otherwise start refuses',
  },
  STRIPE_SECRET_KEY: { group: 'billing', meaning: 'Stripe API key (`BILLING=stripe`).' },
  STRIPE_WEBHOOK_SECRET: {
    group: 'billing',
    meaning: 'Verifies webhooks at `POST /api/billing/stripe/webhook` (`BILLING=stripe`).',
  },
  STRIPE_API_BASE: {
    group: 'billing',
    meaning:
      'Where the Stripe SDK sends its calls; tests point it at a local fake. Unset: Stripe’s.',
  },
  EMBEDDING_MODEL_DIR: {
    group: 'tools',
    meaning: 'The MiniLM sentence model; missing, search and moments fall back to words alone.',
    unset: '`./.tools/models/all-minilm-l6-v2`',
  },
  FFMPEG_PATH: {
    group: 'tools',
    meaning: 'The ffmpeg to run (needs libass).',
    unset: '`ffmpeg` on the `PATH`',
  },
  FFPROBE_PATH: {
    group: 'tools',
    meaning: 'The ffprobe to run.',
    unset: '`ffprobe` on the `PATH`',
  },
  YTDLP_PATH: {
    group: 'tools',
    meaning: 'The yt-dlp to run.',
    unset: '`./.tools/venv/bin/yt-dlp`',
  },
  FFMPEG_THREADS: {
    group: 'tools',
    meaning: 'Encoder and filter threads of each ffmpeg run.',
    unset: 'the number of cores',
  },
  FFMPEG_NICENESS: {
    group: 'tools',
    meaning: 'The `nice` level ffmpeg runs at (0: none), so the web server stays responsive.',
    unset: '`10`',
  },
  FFMPEG_TIMEOUT_MS: {
    group: 'tools',
    meaning: 'How long one ffmpeg run may take before it is stopped.',
    unset: '3 hours',
  },
  CAPTION_FONT_DIRS: {
    group: 'tools',
    values: 'colon list of folders',
    meaning: 'Folders holding the Noto caption fonts, tried in order.',
    unset: '`/usr/share/fonts/truetype/noto:/usr/share/fonts/opentype/noto`',
  },
};

interface OutsideVariable {
  name: string;
  default: string;
  meaning: string;
}

/** The web app reads these when it is built (`npm run build`, or `npm start` when sources changed). */
const WEB_BUILD_VARIABLES: readonly OutsideVariable[] = [
  {
    name: 'VITE_EXTERNAL_TOOLS_BASE_URL',
    default: 'the product’s own pages',
    meaning: 'Where the logged-out Tools menu’s entries point.',
  },
  {
    name: 'VITE_COMMUNITY_CHAT_URL',
    default: 'the help page’s feedback form',
    meaning: 'The community chat link.',
  },
  {
    name: 'VITE_SUPPORT_EMAIL',
    default: 'the help page’s feedback form',
    meaning: 'Where pro plus users write when they reach a limit.',
  },
];

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string): string => `\`${text}\``;

/** The value an unset variable takes, as the schema itself gives it. */
function defaultOf(key: EnvKey): string {
  const doc = VARIABLES[key];
  const parsed = (EnvSchema.shape[key] as z.ZodType).safeParse(undefined);
  if (!parsed.success) throw new Error(`${key}: the schema refuses an unset value`);
  const value: unknown = parsed.data;
  if (value === undefined) return doc.unset ?? '(unset)';
  if (doc.unset) {
    throw new Error(
      `${key}: the schema has a default, so its documentation must not say what unset means`,
    );
  }
  if (Array.isArray(value)) return value.length ? code(value.join(',')) : '(none)';
  if (typeof value === 'string' && path.isAbsolute(value) && value.startsWith(REPO_ROOT)) {
    return code(`./${path.relative(REPO_ROOT, value)}`);
  }
  return code(String(value));
}

interface InputSchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  format?: string;
}

/** What the schema accepts, read from its JSON Schema (the input side, before transforms). */
function valuesOf(key: EnvKey): string {
  const override = VARIABLES[key].values;
  if (override) return override;
  const schema = z.toJSONSchema(EnvSchema.shape[key] as z.ZodType, {
    io: 'input',
    unrepresentable: 'any',
  }) as InputSchema;
  if (schema.enum) return schema.enum.map((value) => code(String(value))).join(', ');
  if (schema.type === 'integer') {
    const { minimum, maximum } = schema;
    if (maximum !== undefined && maximum < Number.MAX_SAFE_INTEGER) {
      return `integer ${minimum}-${maximum}`;
    }
    return `integer ≥ ${minimum}`;
  }
  if (schema.format === 'uri') return 'URL';
  if (schema.minLength) return `text, ≥ ${schema.minLength} characters`;
  return 'text';
}

function variableTable(keys: EnvKey[]): string[] {
  return [
    '| variable | default | values | meaning |',
    '| --- | --- | --- | --- |',
    ...keys.map(
      (key) =>
        `| ${code(key)} | ${cell(defaultOf(key))} | ${cell(valuesOf(key))} | ${cell(VARIABLES[key].meaning)} |`,
    ),
  ];
}

function outsideTable(variables: readonly OutsideVariable[]): string[] {
  return [
    '| variable | default | meaning |',
    '| --- | --- | --- |',
    ...variables.map(
      (variable) =>
        `| ${code(variable.name)} | ${cell(variable.default)} | ${cell(variable.meaning)} |`,
    ),
  ];
}

/** docs/configuration.md, formatted as the repository's prettier settings format it. */
export async function renderConfigDocs(): Promise<string> {
  const keys = Object.keys(VARIABLES) as EnvKey[];
  const lines = [
    '<!-- Written by `npm run docs:config` from apps/server/src/config (the schema and config-docs.ts). Do not edit by hand: a test fails when this file differs from what the script writes. -->',
    '',
    '# Configuration',
    '',
    'Moments reads its settings from environment variables. The server (however it is started) ' +
      'and `npm run jobs` also read a `.env` file at the repository root when there is one (a ' +
      'variable set in the environment wins over the file); [`.env.example`](../.env.example) ' +
      'lists them all, grouped and commented. Every default gives the one-machine setup: nothing ' +
      'needs setting to start.',
    '',
    'Every section but the last is validated when the server starts: a bad value stops it ' +
      'with exit status 2 and one message naming every bad variable, and neither `npm start` nor ' +
      'systemd restarts it until it is fixed.',
    '',
  ];
  for (const [group, { title, intro }] of Object.entries(GROUPS) as [
    Group,
    (typeof GROUPS)[Group],
  ][]) {
    const inGroup = keys.filter((key) => VARIABLES[key].group === group);
    if (!inGroup.length) continue;
    lines.push(`## ${title}`, '', intro, '', ...variableTable(inGroup), '');
  }
  lines.push(
    '## Web build settings',
    '',
    'Read when the web app is built, not when the server starts: rebuild after changing them.',
    '',
    ...outsideTable(WEB_BUILD_VARIABLES),
    '',
  );
  const options = (await resolveConfig(CONFIG_DOCS_FILE)) ?? {};
  return format(lines.join('\n'), { ...options, parser: 'markdown' });
}
