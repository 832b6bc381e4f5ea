import path from 'node:path';
import { createSpeechEngine } from '@moments/ai/asr';
import { createLlmClient } from '@moments/ai/llm';
import { createTranslator } from '@moments/ai/translate';
import type { AppConfig } from './config/index.js';
import { openDatabase, type Database } from './db/client.js';
import { LeaseReaper } from './jobs/lease-reaper.js';
import { createJobQueue, type JobQueue } from './jobs/queue.js';
import { AuthService } from './modules/auth/auth.service.js';
import { CreditsService } from './modules/credits/credits.service.js';
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
import { createRealtimeBus, type RealtimeBus } from './realtime/index.js';
import { FileUrls, createStorage, loadAppSecret, type Storage } from './storage/index.js';
import { UsersRepository } from './repositories/users.repository.js';

/** Everything the HTTP layer and the workers share, built once per process from the config. */
export interface Services {
  config: AppConfig;
  database: Database;
  storage: Storage;
  fileUrls: FileUrls;
  queue: JobQueue;
  bus: RealtimeBus;
  auth: AuthService;
  credits: CreditsService;
  notifications: NotificationsService;
  moments: MomentsService;
  search: SearchService;
  tasks: TasksService;
  taskRunner: TaskRunner;
  taskReaper: LeaseReaper;
  exports: ExportsService;
  exportRenderer: ExportRenderer;
  exportReaper: LeaseReaper;
  close(): Promise<void>;
}

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
export const openConfiguredDatabase = (config: AppConfig) =>
  openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL }
      : { dataDir: path.join(config.DATA_DIR, 'pglite') },
  );

function realtimeBusFor(config: AppConfig, database: Database): RealtimeBus {
  if (config.REALTIME_BUS === 'postgres') {
    if (!database.url) throw new Error('REALTIME_BUS=postgres needs DATABASE_URL');
    return createRealtimeBus({ kind: 'postgres', url: database.url });
  }
  if (config.REALTIME_BUS === 'redis')
    return createRealtimeBus({ kind: 'redis', url: config.REDIS_URL });
  return createRealtimeBus({ kind: 'memory' });
}

/** `database` may be passed in by tests that open it themselves. */
export async function createServices(config: AppConfig, database?: Database): Promise<Services> {
  database ??= await openConfiguredDatabase(config);
  const db = database.db;
  const storage = createStorage(config);
  const appSecret = await loadAppSecret(config.DATA_DIR, config.APP_SECRET);
  const fileUrls = new FileUrls(storage, appSecret);
  const queue = await createJobQueue(database);
  const bus = realtimeBusFor(config, database);

  const users = new UsersRepository(db);
  const auth = new AuthService(users, config.SESSION_TTL_DAYS);
  const credits = new CreditsService(db);
  const notifications = new NotificationsService(db, bus);

  const tasksRepo = new TasksRepository(db);
  const moments = new MomentsService(
    db,
    new MomentsRepository(db),
    tasksRepo,
    fileUrls,
    createLlmClient(process.env),
  );
  const search = new SearchService(new SearchRepository(db), appSecret);
  const hooks: TaskHooks = {
    onTaskChanged: (task, change) => notifications.taskChanged(task, change.statusChanged),
    analyse: (task, transcript, signal) => moments.analyse(task, transcript, signal),
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
      downloadTimeoutMs: config.DOWNLOAD_TIMEOUT_MS,
      transcribeTimeoutFactor: 4,
      analyseTimeoutMs: 10 * 60_000,
    },
  );
  const tasks = new TasksService(
    db,
    tasksRepo,
    queue,
    taskRunner,
    storage,
    hooks,
    config.MEDIA_FETCH_ALLOW_HOSTS,
  );
  const taskReaper = new LeaseReaper(
    'task',
    {
      findOrphaned: (staleBefore) => tasksRepo.findOrphaned(staleBefore),
      claim: async (id, oldToken, runToken) =>
        !!(await tasksRepo.updateRun(id, oldToken, { runToken, heartbeatAt: new Date() })),
      resume: (taskId, runToken) => queue.send('task-run', { taskId, runToken }),
    },
    config.TASK_LEASE_MS,
  );

  const exportsRepo = new ExportsRepository(db);
  const translator = createTranslator(process.env);
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
  );
  const exportReaper = new LeaseReaper(
    'export',
    {
      findOrphaned: (staleBefore) => exportsRepo.findOrphaned(staleBefore),
      claim: async (id, oldToken, runToken) =>
        !!(await exportsRepo.updateRun(id, oldToken, { runToken, heartbeatAt: new Date() })),
      resume: (jobId, runToken) => queue.send('export-render', { jobId, runToken }),
    },
    config.TASK_LEASE_MS,
  );

  return {
    config,
    database,
    storage,
    fileUrls,
    queue,
    bus,
    auth,
    credits,
    notifications,
    moments,
    search,
    tasks,
    taskRunner,
    taskReaper,
    exports,
    exportRenderer,
    exportReaper,
    async close() {
      taskReaper.stop();
      exportReaper.stop();
      await queue.stop();
      await bus.close();
      await database.close();
    },
  };
}

/** The worker role: take jobs from the queue and resume runs whose worker died. */
export async function startWorkers(services: Services): Promise<void> {
  await services.queue.work(
    {
      'task-run': ({ taskId, runToken }) => services.taskRunner.run(taskId, runToken),
      'export-render': ({ jobId, runToken }) => services.exportRenderer.run(jobId, runToken),
    },
    services.config.WORKER_CONCURRENCY,
  );
  services.taskReaper.start();
  services.exportReaper.start();
}
