import type { Db } from '../db/client.js';
import { UsersRepository } from '../modules/auth/users.repository.js';
import { BillingRepository } from '../modules/billing/billing.repository.js';
import { LedgerRepository } from '../modules/billing/ledger/ledger.repository.js';
import { ClipDraftsRepository } from '../modules/clip-drafts/clip-drafts.repository.js';
import { ExportsRepository } from '../modules/exports/exports.repository.js';
import { ExportBatchesRepository } from '../modules/export-batches/export-batches.repository.js';
import { MediaAnalysesRepository } from '../modules/exports/media-analyses.repository.js';
import { FeedbackRepository } from '../modules/feedback/feedback.repository.js';
import { IdempotencyKeysRepository } from '../modules/idempotency/idempotency-keys.repository.js';
import { ReferralsRepository } from '../modules/invites/referrals.repository.js';
import { MailPreferencesRepository } from '../modules/mail/mail-preferences.repository.js';
import { MomentsRepository, type MomentRow } from '../modules/moments/moments.repository.js';
import { NotesRepository } from '../modules/notes/notes.repository.js';
import { NotificationsRepository } from '../modules/notifications/notifications.repository.js';
import { ClipSharesRepository } from '../modules/shares/clip-shares.repository.js';
import { SearchIndexRepository } from '../modules/search/search-index.repository.js';
import { SearchRepository } from '../modules/search/search.repository.js';
import { SummariesRepository } from '../modules/summaries/summaries.repository.js';
import { ThumbnailsRepository } from '../modules/thumbnails/thumbnails.repository.js';
import { UploadsRepository } from '../modules/uploads/uploads.repository.js';
import { AsrChunksRepository } from '../modules/tasks/asr-chunks.repository.js';
import { TasksRepository } from '../modules/tasks/tasks.repository.js';
import { ApiTokensRepository } from '../modules/api-tokens/api-tokens.repository.js';
import { WebhooksRepository } from '../modules/webhooks/webhooks.repository.js';
import { ServerProcessesRepository } from '../modules/deployment/server-processes.repository.js';
import { BrandKitsRepository } from '../modules/brand-kits/brand-kits.repository.js';

/** The public methods of T: each needs an example call, or the registry does not typecheck. */
type Methods<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T] &
  string;

/** One class whose queries are reviewed, with one example call per public method. */
export interface QuerySource {
  /** The file under apps/server/sql, without `.sql`. */
  file: string;
  name: string;
  /** [method, call] pairs against a repository built on `db`. */
  calls(db: Db): [string, () => unknown][];
}

function source<T>(
  file: string,
  name: string,
  make: (db: Db) => T,
  calls: { [K in Methods<T>]: (it: T) => unknown },
): QuerySource {
  return {
    file,
    name,
    calls: (db) => {
      const it = make(db);
      return Object.entries<(it: T) => unknown>(calls).map(([method, call]) => [
        method,
        () => call(it),
      ]);
    },
  };
}

// Fixed example values: only the SQL text is written, so they matter only where they pick a
// branch of the query (an optional filter, a list's length).
const USER = '00000000-0000-4000-8000-000000000001';
const OTHER_USER = '00000000-0000-4000-8000-000000000002';
const TASK = '00000000-0000-4000-8000-000000000010';
const MOMENT = '00000000-0000-4000-8000-000000000020';
/** A unit embedding as pgvector text (384 dimensions, the search model's). */
const UNIT_VECTOR = `[${new Array(384).fill((1 / Math.sqrt(384)).toFixed(5)).join(',')}]`;
const JOB = '00000000-0000-4000-8000-000000000030';
const WEBHOOK = '00000000-0000-4000-8000-000000000040';
const BRAND_KIT = '00000000-0000-4000-8000-000000000050';
const NOTE = '00000000-0000-4000-8000-000000000040';
const BATCH = '00000000-0000-4000-8000-000000000060';
const TOKEN = 'run-token';
const AT = new Date('2026-01-01T00:00:00Z');
const MOMENT_ROW = { id: MOMENT, taskId: TASK, userId: USER } as MomentRow;
const NEW_MOMENT = {
  taskId: TASK,
  userId: USER,
  type: 'video_snippet',
  rank: 0,
  startMs: 0,
  endMs: 30_000,
  score: 80,
  title: 'A moment',
  description: '',
  transcript: '',
};

/** Every class that sends SQL, in the order the files are written. */
export const QUERY_SOURCES: QuerySource[] = [
  source('users.repository', 'UsersRepository', (db) => new UsersRepository(db), {
    findByEmail: (r) => r.findByEmail('someone@example.com'),
    findById: (r) => r.findById(USER),
    create: (r) =>
      r.create({ email: 'a@example.com', username: 'a', passwordHash: 'x', currentPlan: 'free' }),
    createSession: (r) => r.createSession('hash', USER, AT),
    findSessionUser: (r) => r.findSessionUser('hash', AT),
    purgeExpired: (r) => r.purgeExpired(AT),
    deleteSession: (r) => r.deleteSession('hash'),
    createRealtimeTicket: (r) => r.createRealtimeTicket('ticket', 'hash', USER, AT),
    consumeRealtimeTicket: (r) => r.consumeRealtimeTicket('ticket', AT),
    deleteSessionsOf: (r) => r.deleteSessionsOf(USER, 'hash'),
    updatePassword: (r) => r.updatePassword(USER, 'x'),
    createEmailChange: (r) =>
      r.createEmailChange({
        tokenHash: 'hash',
        userId: USER,
        newEmail: 'b@example.com',
        expiresAt: AT,
      }),
    findEmailChange: (r) => r.findEmailChange('hash'),
    applyEmailChange: (r) => r.applyEmailChange('hash', USER, 'b@example.com', AT),
    anonymise: (r) => r.anonymise(USER, 'x', AT),
    taskIdsOf: (r) => r.taskIdsOf(USER),
    exportIdsOf: (r) => r.exportIdsOf(USER),
    deletePersonalRows: (r) => r.deletePersonalRows(USER),
  }),
  source('tasks.repository', 'TasksRepository', (db) => new TasksRepository(db), {
    findOwned: (r) => r.findOwned(USER, TASK),
    transcriptReused: (r) => r.transcriptReused(TASK),
    mediaKeyInUse: (r) => r.mediaKeyInUse(`users/${USER}/tasks/${TASK}/source.mp4`),
    insert: (r) =>
      r.insert({ userId: USER, kind: 'viral', urlSource: 'direct', video: { url: 'x' } }),
    findById: (r) => r.findById(TASK),
    listForUser: (r) => r.listForUser(USER, 20, 20),
    history: (r) => r.history(USER, TASK),
    updateRun: (r) => r.updateRun(TASK, TOKEN, { progress: 50 }),
    claimRun: (r) => r.claimRun(TASK, TOKEN, AT),
    update: (r) => r.update(TASK, { progress: 50 }),
    delete: (r) => r.delete(TASK),
    findOrphaned: (r) => r.findOrphaned(AT),
    countRunning: (r) => r.countRunning(USER, undefined, true),
    saveTranscript: (r) =>
      r.saveTranscript({ taskId: TASK, language: 'en', durationMs: 1, engine: 'x', segments: [] }),
    findTranscript: (r) => r.findTranscript(TASK),
    deleteTranscript: (r) => r.deleteTranscript(TASK),
  }),
  source('asr-chunks.repository', 'AsrChunksRepository', (db) => new AsrChunksRepository(db), {
    forTask: (r) => r.forTask(TASK),
    replace: (r) =>
      r.replace(TASK, [{ idx: 0, startMs: 0, endMs: 60_000, audioKey: 'chunks/0.wav' }]),
    claim: (r) => r.claim(TASK, 0, TOKEN, 'worker-1'),
    update: (r) => r.update(TASK, 0, TOKEN, { status: 'DONE' }),
    requeue: (r) => r.requeue(TASK, [0, 1], AT),
    hearAgainIn: (r) => r.hearAgainIn(TASK, [1], 'en'),
    clearResults: (r) => r.clearResults(TASK),
  }),
  source('moments.repository', 'MomentsRepository', (db) => new MomentsRepository(db), {
    findOwned: (r) => r.findOwned(USER, MOMENT),
    bestOfTask: (r) => r.bestOfTask(TASK, 3),
    syncForTask: (r) => r.syncForTask(TASK, 'video_snippet', [NEW_MOMENT]),
    forTask: (r) => r.forTask(TASK),
    findById: (r) => r.findById(MOMENT),
    update: (r) => r.update(MOMENT, { favorite: true }),
    favorites: (r) => r.favorites(USER),
    clipped: (r) => r.clipped(USER),
    allForUser: (r) => r.allForUser(USER, 200),
    sharedByTypeWithTasks: (r) => r.sharedByTypeWithTasks('video_snippet', 24),
    byShareId: (r) => r.byShareId('share'),
    taskOf: (r) => r.taskOf(MOMENT_ROW),
  }),
  source('exports.repository', 'ExportsRepository', (db) => new ExportsRepository(db), {
    insert: (r) =>
      r.insert({ userId: USER, type: 'VIRAL_MOMENT_EXPORT', title: 'x', status: 'IN_PROGRESS' }),
    findOwned: (r) => r.findOwned(USER, JOB),
    findById: (r) => r.findById(JOB),
    listForUser: (r) => r.listForUser(USER, 20, 20, 'VIRAL_MOMENT_EXPORT'),
    updateRun: (r) => r.updateRun(JOB, TOKEN, { progress: 50 }),
    delete: (r) => r.delete(JOB),
    idsForTask: (r) => r.idsForTask(TASK),
    claimRun: (r) => r.claimRun(JOB, TOKEN, AT),
    findOrphaned: (r) => r.findOrphaned(AT),
  }),
  source(
    'export-batches.repository',
    'ExportBatchesRepository',
    (db) => new ExportBatchesRepository(db),
    {
      insert: (r) => r.insert({ userId: USER, taskId: TASK, options: {} }),
      setJobIds: (r) => r.setJobIds(BATCH, [JOB]),
      findOwned: (r) => r.findOwned(USER, BATCH),
      ownedClip: (r) => r.ownedClip(USER, JOB),
      findById: (r) => r.findById(BATCH),
      clips: (r) => r.clips(BATCH),
      topMoments: (r) => r.topMoments(USER, TASK, 5),
      momentsOf: (r) => r.momentsOf(USER, TASK, [MOMENT]),
      findMoment: (r) => r.findMoment(MOMENT),
      finishIfDone: (r) => r.finishIfDone(BATCH),
    },
  ),
  source(
    'media-analyses.repository',
    'MediaAnalysesRepository',
    (db) => new MediaAnalysesRepository(db),
    {
      find: (r) => r.find('media/key', 'framing', '0-30000'),
      list: (r) => r.list('media/key', 'faces'),
      save: (r) => r.save('media/key', 'framing', '0-30000', {}),
      deleteForMedia: (r) => r.deleteForMedia('media/key'),
    },
  ),
  source('notes.repository', 'NotesRepository', (db) => new NotesRepository(db), {
    findOwned: (r) => r.findOwned(USER, NOTE),
    insert: (r) => r.insert({ userId: USER, title: 'x', contentHtml: '', plainText: '' }),
    list: (r) => r.list(USER, 'budget'),
    update: (r) => r.update(NOTE, { title: 'y' }),
    delete: (r) => r.delete(NOTE),
    byShareId: (r) => r.byShareId('share'),
  }),
  source('summaries.repository', 'SummariesRepository', (db) => new SummariesRepository(db), {
    forTask: (r) => r.forTask(TASK),
    byShareId: (r) => r.byShareId('share'),
    upsert: (r) => r.upsert({ taskId: TASK, userId: USER, method: 'llm', overview: '' }),
    copy: (r) => r.copy(TASK, OTHER_USER),
    setShareId: (r) => r.setShareId(TASK, 'share'),
  }),
  source(
    'referrals.repository',
    'ReferralsRepository',
    (db) => new ReferralsRepository(db, { grant: async () => true }),
    {
      codeOf: (r) => r.codeOf(USER),
      insertCode: (r) => r.insertCode(USER, 'CODE'),
      ownerOfCode: (r) => r.ownerOfCode('CODE'),
      record: (r) => r.record(USER, OTHER_USER),
      counts: (r) => r.counts(OTHER_USER),
      rewardOnce: (r) => r.rewardOnce(USER, { referrer: 10, friend: 10 }),
    },
  ),
  source('search.repository', 'SearchRepository', (db) => new SearchRepository(db), {
    candidates: (r) =>
      r.candidates({
        userId: USER,
        query: 'glaciers melting',
        perWordCap: 100,
        rescoreCap: 100,
        meaning: { vector: UNIT_VECTOR, model: 'all-MiniLM-L6-v2-int8', cap: 50 },
      }),
    substringMatches: (r) => r.substringMatches(USER, ['glac'], 100),
    momentsWithTasks: (r) => r.momentsWithTasks([MOMENT]),
    videoKeys: (r) => r.videoKeys([TASK]),
    tasksByIds: (r) => r.tasksByIds([TASK]),
    passages: (r) => r.passages(USER, ['1'], [TASK], 'glaciers melting'),
  }),
  source(
    'search-index.repository',
    'SearchIndexRepository',
    (db) => new SearchIndexRepository(db),
    {
      replacePassages: (r) =>
        r.replacePassages(TASK, USER, [
          { startMs: 0, endMs: 9000, lines: ['hello'], segmentStarts: [0] },
        ]),
      transcriptsWithoutPassages: (r) => r.transcriptsWithoutPassages(20),
      pendingEmbeddings: (r) => r.pendingEmbeddings('all-MiniLM-L6-v2-int8', 64, TASK),
      saveEmbeddings: (r) =>
        r.saveEmbeddings([
          { kind: 'moment', id: MOMENT, vector: UNIT_VECTOR, model: 'm' },
          { kind: 'passage', id: '1', vector: UNIT_VECTOR, model: 'm' },
        ]),
      countNewDocuments: (r) => r.countNewDocuments(TASK),
      recountCorpus: (r) => r.recountCorpus(),
    },
  ),
  source('billing.repository', 'BillingRepository', (db) => new BillingRepository(db), {
    user: (r) => r.user(USER),
    subscription: (r) => r.subscription(USER),
    subscriptionByProviderId: (r) => r.subscriptionByProviderId('sub_1'),
    userByCustomer: (r) => r.userByCustomer('cus_1'),
    upsertSubscription: (r) =>
      r.upsertSubscription({
        userId: USER,
        provider: 'test',
        plan: 'pro',
        status: 'active',
        unitAmount: 100,
        currentPeriodStart: AT,
        currentPeriodEnd: AT,
      }),
    setCardLast4: (r) => r.setCardLast4(USER, '4242'),
    setUserPlan: (r) => r.setUserPlan(USER, { currentPlan: 'pro' }),
    recordChange: (r) =>
      r.recordChange({
        userId: USER,
        action: 'upgrade',
        fromPlan: 'free',
        toPlan: 'pro',
        eventKey: 'k',
      }),
    changes: (r) => r.changes(USER),
    insertCheckout: (r) =>
      r.insertCheckout({ id: 'cs_1', userId: USER, kind: 'subscription', amount: 100 }),
    openCheckout: (r) => r.openCheckout(USER, { kind: 'subscription', plan: 'pro' }, 60_000),
    loadState: (r) => r.loadState(USER, ['cs_1'], r.db),
    saveState: (r) => {
      const state = {
        plan: 'pro',
        status: 'active' as const,
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        cancelAtPeriodEnd: false,
        periodStart: 0,
        periodEnd: 0,
        scheduledPlan: null,
        lastEventAt: 0,
        everPaid: true,
        checkouts: {},
      };
      return r.saveState(
        USER,
        { ...state, checkouts: { cs_1: 'open' } },
        { ...state, checkouts: { cs_1: 'paid' } },
        'test',
        r.db,
      );
    },
    checkout: (r) => r.checkout('cs_1'),
    latestReferral: (r) => r.latestReferral(USER),
    claimCheckout: (r) => r.claimCheckout('cs_1'),
    insertInvoice: (r) =>
      r.insertInvoice({
        userId: USER,
        providerInvoiceId: 'in_1',
        amount: 100,
        description: 'Pro',
        paymentMethod: 'card',
      }),
    invoices: (r) => r.invoices(USER),
    invoice: (r) => r.invoice(USER, 'in_1'),
    claimEvent: (r) => r.claimEvent('evt_1', 'invoice.paid', r.db),
    dueSubscriptions: (r) => r.dueSubscriptions(AT),
    insertFeedback: (r) =>
      r.insertFeedback({ userId: USER, type: 'cancel', email: 'a@example.com', details: {} }),
    insertContact: (r) => r.insertContact(USER, { message: 'hi' }),
  }),
  source(
    'notifications.repository',
    'NotificationsRepository',
    (db) => new NotificationsRepository(db),
    {
      insert: (r) => r.insert({ userId: USER, type: 'TASK_STATUS_UPDATE', data: {} }),
      // The first page, then one of those at or before a time.
      page: async (r) => {
        await r.page(USER, 21, 0);
        await r.page(USER, 21, 40, AT);
      },
      // Some by id, then every unviewed one.
      markViewed: async (r) => {
        await r.markViewed(USER, [NOTE]);
        await r.markViewed(USER, 'unviewed');
      },
      delete: (r) => r.delete(USER, [NOTE]),
    },
  ),
  source(
    'idempotency-keys.repository',
    'IdempotencyKeysRepository',
    (db) => new IdempotencyKeysRepository(db),
    {
      claim: (r) => r.claim(USER, 'key-1', 'fingerprint', AT),
      find: (r) => r.find(USER, 'key-1'),
      complete: (r) => r.complete(USER, 'key-1', 200, '{}'),
      release: (r) => r.release(USER, 'key-1'),
      removeOlderThan: (r) => r.removeOlderThan(AT),
    },
  ),
  source(
    'server-processes.repository',
    'ServerProcessesRepository',
    (db) => new ServerProcessesRepository(db),
    {
      register: (r) =>
        r.register({
          id: 'api-1-41-0a1b2c3d',
          hostname: 'api-1',
          pid: 41,
          roles: ['api'],
          queues: [],
          bus: 'redis',
          publicUrl: 'https://moments.example.org',
          secretFingerprint: '0123456789abcdef01234567',
        }),
      heartbeat: (r) => r.heartbeat('api-1-41-0a1b2c3d'),
      live: (r) => r.live(30_000),
      remove: (r) => r.remove('api-1-41-0a1b2c3d'),
      removeSilent: (r) => r.removeSilent(86_400_000),
      markConnected: (r) => r.markConnected('api-1-41-0a1b2c3d', USER),
      markDisconnected: (r) => r.markDisconnected('api-1-41-0a1b2c3d', USER),
      isConnected: (r) => r.isConnected(USER, 30_000),
    },
  ),
  source(
    'mail-preferences.repository',
    'MailPreferencesRepository',
    (db) => new MailPreferencesRepository(db),
    {
      isStopped: (r) => r.isStopped(USER, 'product'),
      stop: (r) => r.stop(USER, 'product'),
      resume: (r) => r.resume(USER, 'product'),
      stoppedCategories: (r) => r.stoppedCategories(USER),
    },
  ),
  source('feedback.repository', 'FeedbackRepository', (db) => new FeedbackRepository(db), {
    saveFeedback: (r) => r.saveFeedback({ userId: USER, email: 'a@example.com', content: 'Hi' }),
    saveComingSoonSignup: (r) =>
      r.saveComingSoonSignup({ email: 'a@example.com', types: ['feature'] }),
  }),
  source('clip-shares.repository', 'ClipSharesRepository', (db) => new ClipSharesRepository(db), {
    ownedExport: (r) => r.ownedExport(USER, JOB),
    setShareId: (r) => r.setShareId(JOB, 'share'),
    byShareId: (r) => r.byShareId('share'),
  }),
  source('ledger.repository', 'LedgerRepository', (db) => new LedgerRepository(db), {
    transaction: (r) => r.transaction(undefined, (tx) => r.lockUser(tx, USER)),
    lockUser: (r) => r.lockUser(r.db, USER),
    claim: (r) =>
      r.claim(r.db, {
        key: 'task-run:1',
        userId: USER,
        kind: 'charge',
        chargeKind: 'task-run',
        feature: 'CREDIT',
        amount: 10,
        reason: 'Video processing',
        taskId: TASK,
      }),
    operation: (r) => r.operation(r.db, 'task-run:1'),
    chargedParts: (r) => r.chargedParts(r.db, 'task-run:1'),
    buckets: (r) => r.buckets(r.db, USER, 'CREDIT'),
    allBuckets: (r) => r.allBuckets(USER),
    netCharged: async (r) => {
      await r.netCharged({ taskId: TASK });
      await r.netCharged({ jobId: JOB });
    },
    movements: (r) => r.movements(USER, 21, 0),
    addToBucket: (r) => r.addToBucket(r.db, USER, 'CREDIT', 'plan', -10),
    resetPlanBucket: (r) => r.resetPlanBucket(r.db, USER, 'CREDIT', 100, false),
    addPeriodUse: (r) => r.addPeriodUse(r.db, USER, 'CREDIT', 10),
    insertLedgerRow: (r) =>
      r.insertLedgerRow(r.db, {
        userId: USER,
        operationKey: 'task-run:1',
        kind: 'charge',
        feature: 'CREDIT',
        bucket: 'plan',
        amount: -10,
        balanceAfter: 90,
        reason: 'Video processing',
        taskId: TASK,
      }),
    planOf: (r) => r.planOf(USER),
    setTaskCost: (r) => r.setTaskCost(TASK, 10),
    setExportCost: (r) => r.setExportCost(JOB, 10),
  }),
  source('thumbnails.repository', 'ThumbnailsRepository', (db) => new ThumbnailsRepository(db), {
    momentsOfTask: (r) => r.momentsOfTask(TASK),
    setMomentThumbnail: (r) => r.setMomentThumbnail(MOMENT, 'moments/key.jpg'),
    touchLinkPreview: (r) => r.touchLinkPreview(USER, 'preview', 'previews/key.jpg'),
    linkPreviewsListedBefore: (r) => r.linkPreviewsListedBefore(AT),
    deleteLinkPreviewListedBefore: (r) => r.deleteLinkPreviewListedBefore(USER, 'preview', AT),
    deleteLinkPreview: (r) => r.deleteLinkPreview(USER, 'preview'),
    tasksMissingPictures: (r) => r.tasksMissingPictures(),
    task: (r) => r.task(TASK),
    setTaskThumbnail: (r) => r.setTaskThumbnail(TASK, 'tasks/key.jpg', { thumbnail: null }),
    markFrameless: (r) => r.markFrameless(TASK, 'audio-only'),
    exportsMissingPosters: (r) => r.exportsMissingPosters(),
    setExportPoster: (r) => r.setExportPoster(JOB, 'jobs/key.jpg'),
    // Each kind reads its own table: the three statements in turn.
    pictureKey: async (r) => {
      await r.pictureKey('task', TASK);
      await r.pictureKey('moment', MOMENT);
      await r.pictureKey('job', JOB);
    },
    taskPicture: (r) => r.taskPicture(TASK),
    sharedItemPicture: async (r) => {
      await r.sharedItemPicture('moment', MOMENT);
      await r.sharedItemPicture('job', JOB);
    },
    uploadThumbnail: (r) => r.uploadThumbnail(USER, USER),
  }),
  source('uploads.repository', 'UploadsRepository', (db) => new UploadsRepository(db), {
    insert: (r) =>
      r.insert({
        id: USER,
        userId: USER,
        storageKey: 'users/u/uploads/x/source.mp4',
        originalName: 'talk.mp4',
        sizeBytes: 1000,
        durationMs: 6000,
        thumbnailKey: 'users/u/uploads/x/thumbnail.jpg',
      }),
    findOwned: (r) => r.findOwned(USER, USER),
    findOfUser: (r) => r.findOfUser(USER, USER),
    usedBytes: (r) => r.usedBytes(USER),
    startsSince: (r) => r.startsSince(USER, AT),
    recordStart: (r) => r.recordStart(USER, AT, AT),
    isReadByRunningTask: (r) => r.isReadByRunningTask(USER, `upload://${USER}`),
    remove: (r) => r.remove(USER),
  }),
  source('clip-drafts.repository', 'ClipDraftsRepository', (db) => new ClipDraftsRepository(db), {
    find: (r) => r.find(USER, MOMENT),
    save: (r) =>
      r.save(USER, MOMENT, {
        aspect: '1:1',
        quality: '720p',
        template: 'one_word',
        layout: 'auto',
        caption_display: 'source',
        target_lang: null,
        start_ms: 0,
        end_ms: 30_000,
        transcript_text: null,
        caption_position: 'bottom',
        caption_size: 'medium',
        remove_fillers: false,
      }),
  }),
  source('api-tokens.repository', 'ApiTokensRepository', (db) => new ApiTokensRepository(db), {
    insert: (r) =>
      r.insert({
        userId: USER,
        name: 'script',
        tokenHash: 'hash',
        prefix: 'mom_AbCd',
        scopes: ['read'],
      }),
    countOf: (r) => r.countOf(USER),
    listOf: (r) => r.listOf(USER),
    delete: (r) => r.delete(USER, WEBHOOK),
    deleteAllOf: (r) => r.deleteAllOf(USER),
    findByHash: (r) => r.findByHash('hash'),
    touch: (r) => r.touch(WEBHOOK, AT, AT),
  }),
  source('webhooks.repository', 'WebhooksRepository', (db) => new WebhooksRepository(db), {
    insert: (r) =>
      r.insert({
        userId: USER,
        url: 'https://example.com/hook',
        events: ['task.done'],
        secret: 's',
      }),
    countOf: (r) => r.countOf(USER),
    listOf: (r) => r.listOf(USER),
    owned: (r) => r.owned(USER, WEBHOOK),
    update: (r) => r.update(WEBHOOK, { enabled: false }),
    delete: (r) => r.delete(WEBHOOK),
    subscribedTo: (r) => r.subscribedTo(USER, 'task.done'),
    setCreditsLowSent: (r) => r.setCreditsLowSent(USER, true),
    insertDelivery: (r) =>
      r.insertDelivery({ id: 'msg_1', webhookId: WEBHOOK, event: 'task.done', payload: {} }),
    delivery: (r) => r.delivery('msg_1'),
    recordAttempt: (r) =>
      r.recordAttempt(
        'msg_1',
        { at: 0, response_code: 500, error: 'answered 500', duration_ms: 5 },
        'pending',
      ),
    deliveriesOf: (r) => r.deliveriesOf(WEBHOOK, 50),
    removeSettledBefore: (r) => r.removeSettledBefore(AT),
  }),
  source('brand-kits.repository', 'BrandKitsRepository', (db) => new BrandKitsRepository(db), {
    insert: (r) =>
      r.insert({
        userId: USER,
        name: 'Studio',
        logoPosition: 'top_right',
        logoOpacity: 0.9,
        logoScale: 0.18,
        style: {},
      }),
    countOf: (r) => r.countOf(USER),
    listOf: (r) => r.listOf(USER),
    owned: (r) => r.owned(USER, BRAND_KIT),
    update: (r) => r.update(BRAND_KIT, { name: 'Renamed' }),
    markUsed: (r) => r.markUsed(BRAND_KIT),
    delete: (r) => r.delete(BRAND_KIT),
  }),
];
