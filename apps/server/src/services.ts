import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createSpeechEngine } from '@moments/ai/asr';
import { createLlmClient } from '@moments/ai/llm';
import { createTranslator } from '@moments/ai/translate';
import type { AppConfig } from './config/index.js';
import { createLogger, silentLogger, type Logger } from './logging.js';
import { openDatabase, type Database } from './db/client.js';
import { Housekeeping } from './jobs/housekeeping.js';
import { LeaseReaper } from './jobs/lease-reaper.js';
import { createJobQueue, type JobHandlers, type JobQueue } from './jobs/queue.js';
import { AuthService } from './modules/auth/auth.service.js';
import { createBilling, type BillingHooks, type BillingService } from './modules/billing/index.js';
import { CreditsService } from './modules/credits/credits.service.js';
import { assertAccelerationAvailable } from './jobs/acceleration.js';
import { MediaAnalysesRepository } from './modules/exports/media-analyses.repository.js';
import { ExportRenderer } from './modules/exports/export-renderer.js';
import { ExportsRepository } from './modules/exports/exports.repository.js';
import { ExportsService } from './modules/exports/exports.service.js';
import { MomentsRepository } from './modules/moments/moments.repository.js';
import { MomentsService } from './modules/moments/moments.service.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { SearchRepository, SearchService } from './modules/search/index.js';
import { StorageMediaFetcher } from './modules/tasks/media-fetcher.js';
import { TaskRunner, type TaskHooks } from './modules/tasks/task-runner.js';
import { TasksRepository } from './modules/tasks/tasks.repository.js';
import { TasksService } from './modules/tasks/tasks.service.js';
import { OutboxMailer, SmtpMailer, UnsubscribeTokens, type Mailer } from './mail/index.js';
import { ReferralsRepository, ReferralsService } from './modules/invites/index.js';
import { AccountMails, MailPreferencesService, UserMailer } from './modules/mail/index.js';
import { PresenceRegistry, createRealtimeBus, type RealtimeBus } from './realtime/index.js';
import { FileUrls, createStorage, loadAppSecret, type Storage } from './storage/index.js';
import { UsersRepository } from './repositories/users.repository.js';
import { MomentSpans } from './modules/moments/moment-spans.js';
import { NotesRepository } from './modules/notes/notes.repository.js';
import { NotesService } from './modules/notes/notes.service.js';
import { SharesService } from './modules/shares/shares.service.js';
import { SummariesRepository } from './modules/summaries/summaries.repository.js';
import { SummariesService } from './modules/summaries/summaries.service.js';

/** Everything the HTTP layer and the workers share, built once per process from the config. */
export interface Services {
  config: AppConfig;
  /** The process's structured logger (Fastify logs through it too). */
  log: Logger;
  database: Database;
  storage: Storage;
  fileUrls: FileUrls;
  queue: JobQueue;
  bus: RealtimeBus;
  mailer: Mailer;
  auth: AuthService;
  credits: CreditsService;
  notifications: NotificationsService;
  moments: MomentsService;
  search: SearchService;
  tasks: TasksService;
  taskRunner: TaskRunner;
  taskReaper: LeaseReaper;
  housekeeping: Housekeeping;
  exports: ExportsService;
  exportRenderer: ExportRenderer;
  exportReaper: LeaseReaper;
  billing: BillingService;
  /** Set when Stripe is configured: verifies webhook signatures. */
  stripeWebhook?: ReturnType<typeof createBilling>['stripeWebhook'];
  summaries: SummariesService;
  notes: NotesService;
  shares: SharesService;
  // issue 10 items 4, 5, 7: mail preferences, account mails, invites, feedback
  presence: PresenceRegistry;
  users: UsersRepository;
  mailPreferences: MailPreferencesService;
  unsubscribeTokens: UnsubscribeTokens;
  accountMails: AccountMails;
  referrals: ReferralsService;
  close(): Promise<void>;
}

/** Where links in mails point: PUBLIC_URL, else the address the server listens on. */
export const publicUrlOf = (config: AppConfig) =>
  config.PUBLIC_URL ??
  `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;

/** SMTP when SMTP_URL is set, else the outbox folder (and the log). */
function mailTransportFor(config: AppConfig): Mailer {
  const log = (line: string) => console.info(line);
  return config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM, log)
    : new OutboxMailer(path.join(config.DATA_DIR, 'outbox'), log);
}

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

/** `database` may be passed in by tests that open it themselves. */
export async function createServices(
  config: AppConfig,
  database?: Database,
  /** Billing's optional hooks (the referral reward on a first paid plan). */
  billingHooks: BillingHooks = {},
  log: Logger = createLogger(config.LOG_LEVEL),
): Promise<Services> {
  database ??= await openConfiguredDatabase(config, log);
  const db = database.db;
  const storage = createStorage(config);
  const appSecret = await loadAppSecret(config.DATA_DIR, config.APP_SECRET);
  const fileUrls = new FileUrls(storage, appSecret);
  const queue = await createJobQueue(database, log.child({ component: 'queue' }), {
    pollSeconds: config.JOB_POLL_SECONDS,
  });
  const bus = realtimeBusFor(config, database, log);
  const users = new UsersRepository(db);
  const publicUrl = publicUrlOf(config);
  const presence = new PresenceRegistry();
  const mailPreferences = new MailPreferencesService(db);
  const unsubscribeTokens = new UnsubscribeTokens(appSecret);
  const mailer: Mailer = new UserMailer(
    mailTransportFor(config),
    mailPreferences,
    unsubscribeTokens,
    publicUrl,
  );
  const logMailError = (line: string, err?: unknown) => log.error({ err, component: 'mail' }, line);
  const accountMails = new AccountMails(mailer, users, presence, publicUrl, logMailError);
  const referrals = new ReferralsService(
    new ReferralsRepository(db),
    publicUrl,
    {
      rewarded: (referrerId, friendName, credits) =>
        accountMails.safely('referral reward', () =>
          accountMails.referralRewarded(referrerId, friendName, credits),
        ),
    },
    async (userId) => (await users.findById(userId))?.username,
  );

  const auth = new AuthService(users, config.SESSION_TTL_DAYS, bus, async (userId, referral) => {
    await referrals.recordSignup(userId, referral);
    await accountMails.safely('welcome', () => accountMails.welcome(userId));
  });
  const credits = new CreditsService(db);
  const notifications = new NotificationsService(db, bus, (userId, type, data) =>
    accountMails.safely(type, () => accountMails.notificationStored(userId, type, data)),
  );

  const tasksRepo = new TasksRepository(db);
  const llm = createLlmClient(process.env);
  const moments = new MomentsService(
    db,
    new MomentsRepository(db),
    tasksRepo,
    fileUrls,
    llm,
    new MomentSpans(storage, path.join(config.DATA_DIR, 'tmp')),
  );
  const summariesRepo = new SummariesRepository(db);
  const summaries = new SummariesService(db, summariesRepo, tasksRepo, credits, fileUrls, llm);
  const notes = new NotesService(db, new NotesRepository(db), summariesRepo);
  const shares = new SharesService(summaries, notes);
  const search = new SearchService(new SearchRepository(db), appSecret);
  const hooks: TaskHooks = {
    onTaskChanged: (task, change) => notifications.taskChanged(task, change.statusChanged),
    analyse: (task, transcript, signal) => moments.analyse(task, transcript, signal),
    summarise: (task, transcript, signal) => summaries.summariseTask(task, transcript, signal),
  };
  const fetcher = new StorageMediaFetcher(db, storage, {
    allowHosts: config.MEDIA_FETCH_ALLOW_HOSTS,
    maxHeight: config.PROCESSING_MAX_HEIGHT,
  });
  const taskRunner = new TaskRunner(
    tasksRepo,
    storage,
    fetcher,
    createSpeechEngine(process.env),
    credits,
    hooks,
    {
      workRoot: path.join(config.DATA_DIR, 'tmp'),
      heartbeatMs: Math.max(500, Math.floor(config.TASK_LEASE_MS / 4)),
      leaseMs: config.TASK_LEASE_MS,
      downloadTimeoutMs: config.DOWNLOAD_TIMEOUT_MS,
      transcribeTimeoutFactor: 4,
      analyseTimeoutMs: 10 * 60_000,
      log,
    },
  );
  const translator = createTranslator(process.env);
  const tasks = new TasksService(
    db,
    tasksRepo,
    queue,
    taskRunner,
    storage,
    hooks,
    config.MEDIA_FETCH_ALLOW_HOSTS,
    credits,
    config.MAX_RUNNING_TASKS_PER_USER,
    translator,
  );
  const taskReaper = new LeaseReaper(
    'task',
    {
      findOrphaned: (staleBefore) => tasksRepo.findOrphaned(staleBefore),
      claim: async (id, oldToken, runToken) =>
        !!(await tasksRepo.updateRun(id, oldToken, {
          runToken,
          startedAt: null,
          heartbeatAt: new Date(),
        })),
      resume: async (taskId, runToken) => {
        const task = await tasksRepo.findById(taskId);
        const expireInSeconds = taskRunner.expirySeconds(task?.durationMs);
        await queue.send('task-run', { taskId, runToken }, { expireInSeconds });
      },
    },
    config.TASK_LEASE_MS,
    log,
  );

  const exportsRepo = new ExportsRepository(db);
  const exportRenderer = new ExportRenderer(
    exportsRepo,
    tasksRepo,
    storage,
    credits,
    notifications,
    translator,
    {
      workRoot: path.join(config.DATA_DIR, 'tmp'),
      heartbeatMs: Math.max(500, Math.floor(config.TASK_LEASE_MS / 4)),
      leaseMs: config.TASK_LEASE_MS,
      analyses: new MediaAnalysesRepository(db),
      encoder: {
        encoder: config.VIDEO_ENCODER,
        // The worker's share of the cores, so concurrent renders do not fight over them.
        threads: Math.max(1, Math.floor(availableParallelism() / config.WORKER_CONCURRENCY)),
      },
      log,
    },
  );
  const exports = new ExportsService(
    db,
    exportsRepo,
    tasksRepo,
    storage,
    fileUrls,
    queue,
    credits,
    notifications,
    translator,
    exportRenderer,
    config.MAX_FRAMING_ANALYSES_PER_USER,
  );
  const exportReaper = new LeaseReaper(
    'export',
    {
      findOrphaned: (staleBefore) => exportsRepo.findOrphaned(staleBefore),
      claim: async (id, oldToken, runToken) =>
        !!(await exportsRepo.updateRun(id, oldToken, {
          runToken,
          startedAt: null,
          heartbeatAt: new Date(),
        })),
      resume: async (jobId, runToken) => {
        const job = await exportsRepo.findById(jobId);
        const expireInSeconds = ExportRenderer.expirySeconds(job?.durationMs ?? 0);
        await queue.send('export-render', { jobId, runToken }, { expireInSeconds });
      },
    },
    config.TASK_LEASE_MS,
    log,
  );

  // A friend's first paid plan rewards the user who invited them (issue 10 item 4).
  const { billing, stripeWebhook } = createBilling(
    config,
    db,
    credits,
    mailer,
    {
      onFirstPaidPlan: (userId, referral) => referrals.rewardFirstPaidPlan(userId, referral),
      ...billingHooks,
    },
    log,
  );

  const housekeeping = new Housekeeping(
    users,
    path.join(config.DATA_DIR, 'tmp'),
    log.child({ component: 'housekeeping' }),
  );

  return {
    config,
    log,
    database,
    storage,
    fileUrls,
    queue,
    bus,
    mailer,
    auth,
    credits,
    notifications,
    moments,
    search,
    tasks,
    taskRunner,
    taskReaper,
    housekeeping,
    exports,
    exportRenderer,
    exportReaper,
    billing,
    stripeWebhook,
    summaries,
    notes,
    shares,
    presence,
    users,
    mailPreferences,
    unsubscribeTokens,
    accountMails,
    referrals,
    async close() {
      billing.stopRenewals();
      taskReaper.stop();
      exportReaper.stop();
      housekeeping.stop();
      await queue.stop();
      await bus.close();
      await database.close();
    },
  };
}

/** The worker role: take jobs from the queue and resume runs whose worker died. */
export async function startWorkers(services: Services): Promise<void> {
  const { config } = services;
  await assertAccelerationAvailable(config);
  // WORKER_QUEUES splits the roles: GPU machines take `asr` (tasks), CPU machines `render` (exports).
  const takesTasks = config.WORKER_QUEUES.includes('asr');
  const takesExports = config.WORKER_QUEUES.includes('render');
  await services.queue.work(
    {
      ...(takesTasks && {
        'task-run': ({ taskId, runToken }) => services.taskRunner.run(taskId, runToken),
      }),
      ...(takesExports && {
        'export-render': ({ jobId, runToken }) => services.exportRenderer.run(jobId, runToken),
      }),
    } satisfies Partial<JobHandlers>,
    config.WORKER_CONCURRENCY,
  );
  if (takesTasks) services.taskReaper.start();
  if (takesExports) services.exportReaper.start();
  services.housekeeping.start();
  services.billing.startRenewals();
}
