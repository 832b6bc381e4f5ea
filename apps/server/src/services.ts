import fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createSpeechEngine, type SpeechEngine } from '@moments/ai/asr';
import { llmClientFor, type LlmClient } from '@moments/ai/llm';
import { configureEmbeddings } from '@moments/ai/search';
import { translatorFor } from '@moments/ai/translate';
import { configureMediaTools } from '@moments/media/tools';
import { systemClock, type Clock } from './clock.js';
import { processWorkRoot } from './config/data-dir.js';
import { publicUrlOf, speechSettings, type AppConfig } from './config/index.js';
import { createLogger, silentLogger, type Logger } from './logging.js';
import { openDatabase, type Database } from './db/client.js';
import { BackgroundWork } from './queue/background-work.js';
import { Housekeeping } from './queue/housekeeping.js';
import { Leases } from './queue/lease.js';
import { createJobQueue, type JobQueue } from './queue/queue.js';
import { WorkGate } from './queue/work-gate.js';
import { PictureTokens } from './modules/thumbnails/picture-tokens.js';
import { AuthService } from './modules/auth/auth.service.js';
import { AccountService } from './modules/auth/account.service.js';
import { createBilling, type Billing, type BillingHooks } from './modules/billing/index.js';
import { MediaAnalysesRepository } from './modules/exports/media-analyses.repository.js';
import { ExportRenderer } from './modules/exports/export-renderer.js';
import {
  ExportsRepository,
  type ExportPatch,
  type ExportRow,
} from './modules/exports/exports.repository.js';
import { ExportsService } from './modules/exports/exports.service.js';
import { ExportBatchesRepository } from './modules/export-batches/export-batches.repository.js';
import { ExportBatchesService } from './modules/export-batches/export-batches.service.js';
import { CaptionsService } from './modules/captions/captions.service.js';
import { FramingPreparer } from './modules/exports/framing-preparer.js';
import type { MediaRepository } from './modules/media/media.repository.js';
import { ToolsMediaRepository } from './modules/media/tools-media.repository.js';
import { IdempotencyKeysRepository } from './modules/idempotency/idempotency-keys.repository.js';
import { FeedbackRepository } from './modules/feedback/feedback.repository.js';
import { MomentsRepository } from './modules/moments/moments.repository.js';
import { MomentsService } from './modules/moments/moments.service.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { NotificationsRepository } from './modules/notifications/notifications.repository.js';
import {
  SearchIndexRepository,
  SearchIndexer,
  SearchRanking,
  SearchRepository,
  SearchService,
} from './modules/search/index.js';
import { StorageMediaFetcher } from './modules/tasks/media-fetcher.js';
import { TaskRunner } from './modules/tasks/task-runner.js';
import { taskPipeline } from './modules/tasks/task-pipeline.js';
import { TaskFollowUp } from './modules/tasks/task-follow-up.js';
import { TasksRepository, type TaskPatch } from './modules/tasks/tasks.repository.js';
import type { TaskRow } from './modules/tasks/task-mapper.js';
import { AsrChunksRepository } from './modules/tasks/asr-chunks.repository.js';
import { ChunkedTranscription } from './modules/tasks/chunked-transcription.js';
import { TasksService } from './modules/tasks/tasks.service.js';
import {
  OutboxMailer,
  QueuedMailer,
  SmtpMailer,
  UnsubscribeTokens,
  type Mailer,
} from './modules/mail/index.js';
import { ReferralsRepository, ReferralsService } from './modules/invites/index.js';
import {
  AccountMails,
  MailPreferencesRepository,
  MailPreferencesService,
  UserMailer,
} from './modules/mail/index.js';
import { PresenceRegistry, createRealtimeBus, type RealtimeBus } from './realtime/index.js';
import { FileUrls, createStorage, loadAppSecret, type Storage } from './storage/index.js';
import { UsersRepository } from './modules/auth/users.repository.js';
import { MomentSpans } from './modules/moments/moment-spans.js';
import { ClipDraftsRepository } from './modules/clip-drafts/clip-drafts.repository.js';
import { ClipDraftsService } from './modules/clip-drafts/clip-drafts.service.js';
import { NotesRepository } from './modules/notes/notes.repository.js';
import { NotesService } from './modules/notes/notes.service.js';
import { SharesService } from './modules/shares/shares.service.js';
import { ClipSharesRepository } from './modules/shares/clip-shares.repository.js';
import { ClipSharesService } from './modules/shares/clip-shares.service.js';
import { SummariesRepository } from './modules/summaries/summaries.repository.js';
import { SummariesService } from './modules/summaries/summaries.service.js';
import { ThumbnailsRepository } from './modules/thumbnails/thumbnails.repository.js';
import { ThumbnailsService } from './modules/thumbnails/thumbnails.service.js';
import { UploadLimitsGuard, UploadsRepository, UploadsService } from './modules/uploads/index.js';
import { ApiTokensRepository } from './modules/api-tokens/api-tokens.repository.js';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.js';
import { BrandKitsRepository } from './modules/brand-kits/brand-kits.repository.js';
import { BrandKitsService } from './modules/brand-kits/brand-kits.service.js';
import { WebhooksRepository } from './modules/webhooks/webhooks.repository.js';
import { WebhooksService } from './modules/webhooks/webhooks.service.js';

// The worker role lives with the queue; re-exported for the callers that start it from here.
export { startWorkers } from './queue/workers.js';

/** Everything the HTTP layer and the workers share, built once per process from the config. */
export interface Services {
  config: AppConfig;
  /** The process's structured logger (Fastify logs through it too). */
  log: Logger;
  /** Work that outlives a request (runs, span cuts, analyses, sweeps): close() awaits it. */
  background: BackgroundWork;
  /** This process's scratch folder in DATA_DIR/tmp (removed by close, swept after a crash). */
  workRoot: string;
  database: Database;
  storage: Storage;
  fileUrls: FileUrls;
  /** The media tools (ffmpeg, ffprobe, yt-dlp, face analysis): the one door services use. */
  media: MediaRepository;
  queue: JobQueue;
  bus: RealtimeBus;
  /** The kept replies of paid calls by Idempotency-Key (http/idempotency.ts). */
  idempotencyKeys: IdempotencyKeysRepository;
  /** What every feature sends through (unsubscribes apply; via `mail-send` jobs with SMTP). */
  mailer: Mailer;
  /** The configured transport itself: SMTP (taken by `mail-send` jobs) or the outbox folder. */
  mailTransport: Mailer;
  auth: AuthService;
  /** Password and email changes, account deletion. */
  account: AccountService;
  notifications: NotificationsService;
  moments: MomentsService;
  /** The clip editor's saved settings per moment. */
  clipDrafts: ClipDraftsService;
  search: SearchService;
  searchIndexer: SearchIndexer;
  tasks: TasksService;
  taskRunner: TaskRunner;
  /** The `task-follow-up` job: moment pictures and search embeddings of a DONE task. */
  taskFollowUp: TaskFollowUp;
  /** Long audio in chunks any worker may take. */
  transcription: ChunkedTranscription;
  /** Task runs' leases: the task runner's claims, and the takeover of runs whose worker died. */
  taskLeases: Leases<TaskRow, TaskPatch>;
  housekeeping: Housekeeping;
  exports: ExportsService;
  /** Export all: several clips of a task as one batch, its ZIP and the clips' publish kits. */
  exportBatches: ExportBatchesService;
  captions: CaptionsService;
  exportRenderer: ExportRenderer;
  exportLeases: Leases<ExportRow, ExportPatch>;
  /** Analyses the best moments' framing in the background once a task is DONE. */
  framingPreparer: FramingPreparer;
  workGate: WorkGate;
  /** Money: the ledger, refunds, checkouts, plan changes, provider events (modules/billing). */
  billing: Billing;
  summaries: SummariesService;
  notes: NotesService;
  shares: SharesService;
  clipShares: ClipSharesService;
  thumbnails: ThumbnailsService;
  /** Received video files validated, stored and listed (POST /api/upload and resumable ones). */
  uploads: UploadsService;
  uploadLimits: UploadLimitsGuard;
  // Mail preferences, account mails, invites, feedback
  presence: PresenceRegistry;
  users: UsersRepository;
  /** Help feedback and coming-soon sign-ups. */
  feedback: FeedbackRepository;
  mailPreferences: MailPreferencesService;
  unsubscribeTokens: UnsubscribeTokens;
  pictureTokens: PictureTokens;
  accountMails: AccountMails;
  referrals: ReferralsService;
  /** Personal API tokens (Bearer `mom_…`) for scripts and agents. */
  apiTokens: ApiTokensService;
  /** Signed webhooks: finished work and low balances, delivered by `webhook-deliver` jobs. */
  webhooks: WebhooksService;
  /** Brand kits: logo, caption style and intro/outro cards applied to clips. */
  brandKits: BrandKitsService;
  /**
   * Stops taking jobs, stops the runs and other background work under way (a stopped run is
   * resumed by a worker after TASK_LEASE_MS) and resolves once nothing writes any more.
   */
  close(): Promise<void>;
}

/** How long after a credit movement its caller's transaction has surely committed. */
const CREDITS_SETTLE_MS = 250;

/** SMTP when SMTP_URL is set, else the outbox folder (and the log). */
function mailTransportFor(config: AppConfig, log: Logger): Mailer {
  const mailLog = log.child({ component: 'mail' });
  const line = (text: string) => mailLog.info(text);
  return config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM, line)
    : new OutboxMailer(path.join(config.DATA_DIR, 'outbox'), line);
}

/** Faster-whisper on this machine, or the OpenAI-compatible endpoint of ASR_BASE_URL. */
function speechEngineFor(config: AppConfig): SpeechEngine {
  return createSpeechEngine(speechSettings(config));
}

/** The OpenAI-compatible chat endpoint of LLM_BASE_URL and LLM_MODEL, or none. */
const llmFor = (config: AppConfig) =>
  llmClientFor({
    baseUrl: config.LLM_BASE_URL,
    model: config.LLM_MODEL,
    apiKey: config.LLM_API_KEY,
    timeoutMs: config.LLM_TIMEOUT_MS,
  });

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
export const openConfiguredDatabase = (config: AppConfig, log: Logger = silentLogger) =>
  openDatabase(
    config.DATABASE_URL
      ? {
          url: config.DATABASE_URL,
          onConnectionLost: (err) =>
            log.warn({ err }, 'database connection lost; the next query opens a new one'),
        }
      : { dataDir: path.join(config.DATA_DIR, 'pglite') },
  );

function realtimeBusFor(config: AppConfig, database: Database, log: Logger): RealtimeBus {
  const logger = log.child({ component: 'realtime-bus' });
  if (config.REALTIME_BUS === 'postgres') {
    if (!database.url) throw new Error('REALTIME_BUS=postgres needs DATABASE_URL');
    return createRealtimeBus({ kind: 'postgres', url: database.url, logger });
  }
  if (config.REALTIME_BUS === 'redis')
    return createRealtimeBus({ kind: 'redis', url: config.REDIS_URL, logger });
  return createRealtimeBus({ kind: 'memory', logger });
}

/**
 * The process's foundation: database, scratch folder, storage, signed file links, the job queue,
 * the realtime bus, and the tracker of background work.
 */
async function openFoundation(config: AppConfig, overrides: ServiceOverrides, log: Logger) {
  const database = overrides.database ?? (await openConfiguredDatabase(config, log));
  const background = new BackgroundWork(log.child({ component: 'background' }));
  const workRoot = processWorkRoot(config.DATA_DIR);
  const storage = overrides.storage ?? createStorage(config, workRoot);
  const appSecret = await loadAppSecret(config.DATA_DIR, config.APP_SECRET);
  const fileUrls = new FileUrls(storage, appSecret);
  const media: MediaRepository = overrides.media ?? new ToolsMediaRepository();
  const queue = await createJobQueue(database, log.child({ component: 'queue' }), {
    pollSeconds: config.JOB_POLL_SECONDS,
    clockSeconds: config.JOB_CLOCK_SECONDS,
  });
  const bus = realtimeBusFor(config, database, log);
  const speech = overrides.speech ?? speechEngineFor(config);
  // `null` means no LLM whatever the environment says (the offline judge, no translation).
  const llm = overrides.llm === undefined ? llmFor(config) : (overrides.llm ?? undefined);
  const mailTransport = overrides.mailTransport ?? mailTransportFor(config, log);
  const clock = overrides.clock ?? systemClock;
  return {
    database,
    db: database.db,
    background,
    workRoot,
    storage,
    appSecret,
    fileUrls,
    media,
    queue,
    bus,
    speech,
    llm,
    mailTransport,
    clock,
  };
}
type Foundation = Awaited<ReturnType<typeof openFoundation>>;

/** People and money: users, sign-in, mail, billing, invites, notifications. */
function createAccounts(
  config: AppConfig,
  { database, db, queue, bus, appSecret, mailTransport, clock, background }: Foundation,
  billingHooks: BillingHooks,
  log: Logger,
) {
  const users = new UsersRepository(db);
  const publicUrl = publicUrlOf(config);
  const presence = new PresenceRegistry();
  const mailPreferences = new MailPreferencesService(new MailPreferencesRepository(db));
  const unsubscribeTokens = new UnsubscribeTokens(appSecret);
  const pictureTokens = new PictureTokens(appSecret);
  // SMTP can be slow or down: its mail goes through the job table (`mail-send`, retried). The
  // outbox is a local file write, done in the request as before.
  const mailer: Mailer = new UserMailer(
    config.SMTP_URL ? new QueuedMailer(queue) : mailTransport,
    mailPreferences,
    unsubscribeTokens,
    publicUrl,
  );
  const logMailError = (line: string, err?: unknown) => log.error({ err, component: 'mail' }, line);
  // A friend's first paid plan rewards the user who invited them.
  const billing = createBilling(
    config,
    database,
    queue,
    mailer,
    {
      onFirstPaidPlan: (userId, referral) => referrals.rewardFirstPaidPlan(userId, referral),
      // Every balance on screen follows the ledger, in every tab of the user.
      onCreditsMoved: (userId) => {
        void bus
          .publish(userId, { type: 'CREDITS_CHANGED', data: {} })
          .catch((err: unknown) => log.warn({ err }, 'could not push a balance change'));
        // Told before a caller's transaction commits: the balance is read a moment later.
        background.detach(
          'credits.low check',
          () => sleep(CREDITS_SETTLE_MS).then(() => webhooks.creditsMoved(userId)),
          { userId },
        );
      },
      ...billingHooks,
    },
    log,
  );
  if (config.BILLING === 'test') {
    log.warn(
      'BILLING=test: the TEST MODE checkout takes test cards and charges nothing; set BILLING=stripe to take payments or BILLING=off for no plans',
    );
  }
  const accountMails = new AccountMails({
    mailer,
    users,
    presence,
    publicUrl,
    log: logMailError,
    pictureTokens,
  });
  const referrals = new ReferralsService(
    new ReferralsRepository(db, billing.ledger),
    publicUrl,
    {
      rewarded: (referrerId, friendName, credits) =>
        accountMails.safely('referral reward', () =>
          accountMails.referralRewarded(referrerId, friendName, credits),
        ),
    },
    async (userId) => (await users.findById(userId))?.username,
  );
  const auth = new AuthService({
    users,
    sessionTtlDays: config.SESSION_TTL_DAYS,
    bus,
    onSignedUp: async (userId, referral) => {
      await referrals.recordSignup(userId, referral);
      await accountMails.safely('welcome', () => accountMails.welcome(userId));
    },
    credits: billing,
    clock,
  });
  const webhooks = new WebhooksService(
    new WebhooksRepository(db),
    queue,
    {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      allowHosts: config.MEDIA_FETCH_ALLOW_HOSTS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      retryDelaySeconds: config.WEBHOOK_RETRY_DELAY_SECONDS,
    },
    log.child({ component: 'webhooks' }),
  );
  const apiTokens = new ApiTokensService(new ApiTokensRepository(db), log, bus);
  const notifications = new NotificationsService(
    new NotificationsRepository(db),
    bus,
    (userId, type, data) =>
      accountMails.safely(type, () => accountMails.notificationStored(userId, type, data)),
    (work) => webhooks.finished(work),
  );
  return {
    users,
    presence,
    mailPreferences,
    unsubscribeTokens,
    pictureTokens,
    mailer,
    mailTransport,
    billing,
    accountMails,
    referrals,
    auth,
    notifications,
    apiTokens,
    webhooks,
  };
}
type Accounts = ReturnType<typeof createAccounts>;

/** What a task leaves: moments, summaries, notes, shares, search, thumbnails. */
function createContent(
  config: AppConfig,
  {
    database,
    db,
    storage,
    workRoot,
    background,
    fileUrls,
    appSecret,
    queue,
    media,
    llm,
  }: Foundation,
  { billing, users }: Accounts,
  log: Logger,
) {
  const tasksRepo = new TasksRepository(db);
  const momentsRepo = new MomentsRepository(db);
  const moments = new MomentsService({
    db,
    repo: momentsRepo,
    tasks: tasksRepo,
    fileUrls,
    llm,
    spans: new MomentSpans(media, storage, workRoot, background),
    sendSpanCut: (momentId) => queue.send('span-cut', { momentId }),
  });
  const summariesRepo = new SummariesRepository(db);
  const summaries = new SummariesService(summariesRepo, tasksRepo, billing, fileUrls, llm);
  const notes = new NotesService(new NotesRepository(db), summariesRepo, tasksRepo, momentsRepo);
  const clipShares = new ClipSharesService(
    new ClipSharesRepository(db),
    new MediaAnalysesRepository(db),
  );
  const shares = new SharesService(summaries, notes, clipShares, moments);
  const brandKitsRepo = new BrandKitsRepository(db);
  const clipDrafts = new ClipDraftsService(
    momentsRepo,
    new ClipDraftsRepository(db),
    brandKitsRepo,
  );
  const brandKits = new BrandKitsService({
    plans: billing.reads,
    repo: brandKitsRepo,
    storage,
    fileUrls,
    workRoot,
    media,
  });
  const searchRepo = new SearchRepository(db, database.prepared);
  const searchLog = log.child({ component: 'search' });
  const search = new SearchService(
    searchRepo,
    new SearchRanking(searchRepo, undefined, searchLog),
    appSecret,
  );
  const searchIndexer = new SearchIndexer(new SearchIndexRepository(db), undefined, searchLog);
  const thumbnails = new ThumbnailsService(new ThumbnailsRepository(db), media, storage, {
    tmpDir: path.join(config.DATA_DIR, 'tmp'),
    allowHosts: config.MEDIA_FETCH_ALLOW_HOSTS,
    log: log.child({ component: 'thumbnails' }),
  });
  const translator = translatorFor(llm, config.LLM_MODEL);
  // Received files wait in this process's work folder, on the disk uploads arrive on.
  const uploadRows = new UploadsRepository(db);
  const uploadLimits = new UploadLimitsGuard({ uploads: uploadRows, users });
  const uploads = new UploadsService(
    uploadRows,
    media,
    storage,
    fileUrls,
    workRoot,
    uploadLimits,
    new MediaAnalysesRepository(db),
  );
  return {
    tasksRepo,
    momentsRepo,
    moments,
    summaries,
    notes,
    clipShares,
    clipDrafts,
    brandKits,
    shares,
    search,
    searchIndexer,
    thumbnails,
    translator,
    uploads,
    uploadLimits,
  };
}
type Content = ReturnType<typeof createContent>;

/** How often a run heart-beats: four times per lease. */
const heartbeatOf = (config: AppConfig) => Math.max(500, Math.floor(config.TASK_LEASE_MS / 4));

/** Tasks: the runner of the pipeline (modules/tasks/task-pipeline.ts), its chunks and its reaper. */
function createTaskWork(
  config: AppConfig,
  { db, storage, queue, workRoot, background, media, speech }: Foundation,
  { billing, notifications }: Accounts,
  content: Content,
  log: Logger,
) {
  const { tasksRepo, translator } = content;
  const hooks = taskPipeline({ config, queue, notifications, ...content });
  const fetcher = new StorageMediaFetcher(new UploadsRepository(db), media, storage, {
    allowHosts: config.MEDIA_FETCH_ALLOW_HOSTS,
    maxHeight: config.PROCESSING_MAX_HEIGHT,
  });
  const heartbeatMs = heartbeatOf(config);
  const taskLeases = new Leases<TaskRow, TaskPatch>({
    name: 'task',
    rows: tasksRepo,
    leaseMs: config.TASK_LEASE_MS,
    heartbeatMs,
    resume: async (taskId, runToken) => {
      const task = await tasksRepo.findById(taskId);
      const expireInSeconds = taskRunner.expirySeconds(task?.durationMs);
      await queue.send('task-run', { taskId, runToken }, { expireInSeconds });
    },
    log,
  });
  const transcription = new ChunkedTranscription({
    media,
    chunks: new AsrChunksRepository(db),
    storage,
    queue,
    speech,
    workRoot,
    chunkMs: config.ASR_CHUNK_SECONDS * 1000,
    leaseMs: config.TASK_LEASE_MS,
    heartbeatMs,
    pollMs: Math.min(1000, config.JOB_POLL_SECONDS * 1000),
    log,
  });
  const taskRunner = new TaskRunner({
    tasks: tasksRepo,
    media,
    storage,
    fetcher,
    transcription,
    engineName: speech.name,
    charges: billing.tasks,
    hooks,
    workRoot,
    background,
    leases: taskLeases,
    analyses: new MediaAnalysesRepository(db),
    downloadTimeoutMs: config.DOWNLOAD_TIMEOUT_MS,
    transcribeTimeoutFactor: 4,
    analyseTimeoutMs: 10 * 60_000,
    log,
  });
  const tasks = new TasksService({
    db,
    repo: tasksRepo,
    queue,
    runner: taskRunner,
    storage,
    hooks,
    allowHosts: config.MEDIA_FETCH_ALLOW_HOSTS,
    charges: billing.tasks,
    maxRunningPerUser: config.MAX_RUNNING_TASKS_PER_USER,
    translator,
    transcription,
  });
  const taskFollowUp = new TaskFollowUp({
    tasks: tasksRepo,
    storage,
    searchIndexer: content.searchIndexer,
    thumbnails: content.thumbnails,
    notifications,
    log,
  });
  return { transcription, taskRunner, tasks, taskLeases, taskFollowUp };
}
type TaskWork = ReturnType<typeof createTaskWork>;

/** Exports: the renderer, its service, the background framing and the reaper. */
function createExportWork(
  config: AppConfig,
  { db, storage, queue, workRoot, background, fileUrls, media }: Foundation,
  { billing, notifications }: Accounts,
  { tasksRepo, momentsRepo, translator, thumbnails, brandKits }: Content,
  { tasks }: Pick<TaskWork, 'tasks'>,
  log: Logger,
) {
  const exportsRepo = new ExportsRepository(db);
  // Work users wait for goes first; background analyses in this process give way to it and,
  // tracked by `background`, stop and are awaited when the process closes.
  const workGate = new WorkGate(background);
  const exportLeases = new Leases<ExportRow, ExportPatch>({
    name: 'export',
    rows: exportsRepo,
    leaseMs: config.TASK_LEASE_MS,
    heartbeatMs: heartbeatOf(config),
    resume: async (jobId, runToken) => {
      const job = await exportsRepo.findById(jobId);
      const expireInSeconds = ExportRenderer.expirySeconds(job?.durationMs ?? 0);
      await queue.send('export-render', { jobId, runToken }, { expireInSeconds });
    },
    log,
  });
  const exportRenderer = new ExportRenderer({
    exports: exportsRepo,
    media,
    tasks: tasksRepo,
    storage,
    billing,
    notifications,
    translator,
    workRoot,
    background,
    leases: exportLeases,
    analyses: new MediaAnalysesRepository(db),
    poster: (job, made, signal) => thumbnails.forExport(job, made, signal),
    encoder: {
      encoder: config.VIDEO_ENCODER,
      // The worker's share of the cores, so concurrent renders do not fight over them.
      threads: Math.max(1, Math.floor(availableParallelism() / config.WORKER_CONCURRENCY)),
    },
    log,
  });
  const exports = new ExportsService({
    db,
    media,
    repo: exportsRepo,
    tasks: tasksRepo,
    moments: momentsRepo,
    storage,
    fileUrls,
    queue,
    billing,
    notifications,
    translator,
    renderer: exportRenderer,
    maxFramingsPerUser: config.MAX_FRAMING_ANALYSES_PER_USER,
    gate: workGate,
    brandKits,
  });
  const captions = new CaptionsService(
    tasksRepo,
    fileUrls,
    translator,
    exports,
    exportRenderer.framing,
    brandKits,
  );
  // Exports belong to their task: deleting the task deletes them, files and links included.
  tasks.whenDeleting((task) => exports.deleteForTask(task.userId, task.id));
  const framingPreparer = new FramingPreparer({
    momentsRepo,
    media,
    tasks: tasksRepo,
    storage,
    renderer: exportRenderer,
    gate: workGate,
    moments: config.FRAMING_PREPARE_MOMENTS,
    pieceMs: 10_000,
    log,
  });
  // Export all: batches of ordinary export jobs, one notification per batch, ZIP and publish kits.
  const exportBatches = new ExportBatchesService({
    db,
    repo: new ExportBatchesRepository(db),
    exports,
    tasks: tasksRepo,
    storage,
    media,
    reads: billing.reads,
    notifications,
    tmpDir: path.join(config.DATA_DIR, 'tmp'),
    log,
  });
  return {
    workGate,
    exportRenderer,
    exports,
    exportBatches,
    captions,
    framingPreparer,
    exportLeases,
  };
}

/** What a caller (a test, a bench, a second process) may give instead of what config makes. */
export interface ServiceOverrides {
  /** A database opened by the caller (tests open PGlite or a scratch PostgreSQL themselves). */
  database?: Database;
  /** Billing's optional hooks (the referral reward on a first paid plan). */
  billingHooks?: BillingHooks;
  log?: Logger;
  /** The media tools; tests give a fake that answers without ffmpeg. */
  media?: MediaRepository;
  /** The speech engine (ASR); tests give one that hears the words they set, without Whisper. */
  speech?: SpeechEngine;
  /** The LLM that judges moments, writes summaries and translates; `null` for none. */
  llm?: LlmClient | null;
  /** Where user files live; default the configured driver (DATA_DIR/files or S3). */
  storage?: Storage;
  /** What mail is finally handed to (SMTP or the outbox folder); tests keep it in memory. */
  mailTransport?: Mailer;
  /** When sessions and tickets expire; tests move it forward. */
  clock?: Clock;
}

/**
 * The packages' own settings (tool binaries, fonts, the sentence model), from the validated
 * config. Set on every call, so what the config leaves out goes back to the packages' defaults.
 */
function configurePackages(config: AppConfig): void {
  configureMediaTools({
    ffmpegPath: config.FFMPEG_PATH,
    ffprobePath: config.FFPROBE_PATH,
    ytdlpPath: config.YTDLP_PATH,
    fontDirs: config.CAPTION_FONT_DIRS,
    ffmpegThreads: config.FFMPEG_THREADS,
    ffmpegNiceness: config.FFMPEG_NICENESS,
    ffmpegTimeoutMs: config.FFMPEG_TIMEOUT_MS,
  });
  configureEmbeddings({ modelDir: config.EMBEDDING_MODEL_DIR });
}

export async function createServices(
  config: AppConfig,
  overrides: ServiceOverrides = {},
): Promise<Services> {
  const log = overrides.log ?? createLogger(config.LOG_LEVEL);
  configurePackages(config);
  const billingHooks = overrides.billingHooks ?? {};
  const foundation = await openFoundation(config, overrides, log);
  const accounts = createAccounts(config, foundation, billingHooks, log);
  const content = createContent(config, foundation, accounts, log);
  const taskWork = createTaskWork(config, foundation, accounts, content, log);
  const exportWork = createExportWork(config, foundation, accounts, content, taskWork, log);
  // Events carry the same JSON the API answers for their object.
  accounts.webhooks.readObjectsWith({
    task: (userId, taskId) => taskWork.tasks.get(userId, taskId),
    job: (userId, jobId) => exportWork.exports.get(userId, jobId),
    credits: (userId) => accounts.billing.reads.spendable(userId, 'CREDIT'),
  });
  const idempotencyKeys = new IdempotencyKeysRepository(foundation.db);
  const account = new AccountService({
    users: accounts.users,
    auth: accounts.auth,
    apiTokens: accounts.apiTokens,
    mailer: accounts.mailer,
    publicUrl: publicUrlOf(config),
    storage: foundation.storage,
    tasks: taskWork.tasks,
    exports: exportWork.exports,
    log: log.child({ component: 'account' }),
  });
  const housekeeping = new Housekeeping({
    users: accounts.users,
    workRoot: path.join(config.DATA_DIR, 'tmp'),
    log: log.child({ component: 'housekeeping' }),
    thumbnails: content.thumbnails,
    idempotencyKeys,
    webhookDeliveries: new WebhooksRepository(foundation.db),
  });
  const { database: db, background, workRoot, storage, fileUrls, media, queue, bus } = foundation;
  const { tasksRepo: _tasksRepo, translator: _translator, ...services } = content;
  return {
    config,
    log,
    background,
    workRoot,
    database: db,
    storage,
    fileUrls,
    media,
    queue,
    bus,
    idempotencyKeys,
    feedback: new FeedbackRepository(foundation.db),
    account,
    ...accounts,
    ...services,
    ...taskWork,
    ...exportWork,
    housekeeping,
    async close() {
      // 1. No new work: the queue stops handing out jobs (periodic ones included).
      await queue.stopTaking();
      // 2. What runs (the work gate's background analyses too) is stopped, its tools too, and
      //    awaited, with the database still open so each run can settle its rows; a stopped run
      //    stays resumable.
      await background.close();
      // 3. Then the connections, and this process's scratch folder.
      await queue.stop();
      foundation.speech.close?.();
      await bus.close();
      await accounts.billing.close();
      await db.close();
      await fs.rm(workRoot, { recursive: true, force: true });
    },
  };
}
