import { mergeKitStyle } from '@moments/domain/brand-kits';
import type { BrandKitsService } from '../brand-kits/brand-kits.service.js';
import { storedTranscript } from '@moments/domain/transcript';
import { uprightFrameSize } from '@moments/domain/frame';
import { randomUUID } from 'node:crypto';
import type {
  ClipSettings,
  ClipFraming,
  ClipFramingBody,
  Job,
  JobCreateBody,
  JobType,
  VideoMeta,
} from '@moments/contract';
import { ERROR_CODES, type ExportOptions } from '@moments/contract';
import { cutsProblem, type CutPlan } from '@moments/domain/cuts';
import { CHARGE_KIND_LABELS, exportQuote } from '@moments/domain/plans';
import type { Translator } from '@moments/ai/translate';
import { installedCaptionFont, isCaptionTemplateId } from '@moments/media/captions';
import type { Size } from '@moments/media/reframe';
import type { MediaRepository } from '../media/media.repository.js';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../queue/queue.js';
import type { FileUrls, Storage } from '../../storage/index.js';
import type { CreditReads, Ledger, RefundOutbox } from '../billing/index.js';
import type { Tx } from '../billing/ledger/ledger.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { TaskRow } from '../tasks/task-mapper.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import type { MomentRow, MomentsRepository } from '../moments/moments.repository.js';
import { WorkGate } from '../../queue/work-gate.js';
import {
  assertTranslationAvailable,
  clipCutPlan,
  cutsClip,
  exportFrameSize,
  snapToWords,
  type ResolvedClipOptions,
  type StoredTranscript,
} from '../captions/clip-captions.js';
import { toFramingDto } from './clip-framing.js';
import { ExportRenderer, framingRequestOf, type JobOptions } from './export-renderer.js';
import type { ExportsRepository, ExportRow } from './exports.repository.js';
import {
  clipSettingsOf,
  jobCaptionsKey,
  jobFileKey,
  jobForNotification,
  jobCoverKey,
  jobPosterKey,
  toJobDto,
} from './job-mapper.js';

/** How many probed source sizes the editor's preview keeps (oldest dropped first). */
const SOURCE_SIZE_CACHE_LIMIT = 500;

/** Signed download links of finished exports live this long; the client re-fetches the job after. */
const FILE_URL_TTL_SEC = 6 * 3600;
/** Free plans have a number of canvas exports; paid plans are unlimited (-1). */
/** An export checked and priced, ready to be stored (ExportsService.enqueue). */
export interface PreparedExport {
  type: JobType;
  source: ClipSource;
  durationMs: number;
  charge: ReturnType<typeof exportQuote>;
  previewedFraming: Awaited<ReturnType<ExportRenderer['framing']['stored']>>;
}

/** What an export or a preview is made from. */
export interface ClipSource {
  task: TaskRow;
  momentId: string | null;
  title: string;
  transcript: StoredTranscript;
  options: ResolvedClipOptions;
}

export interface ExportsServiceOptions {
  db: Db;
  media: MediaRepository;
  repo: ExportsRepository;
  tasks: TasksRepository;
  moments: MomentsRepository;
  storage: Storage;
  fileUrls: FileUrls;
  queue: JobQueue;
  /** Exports are charged in the ledger when they start and refunded through the outbox. */
  billing: { ledger: Ledger; refunds: RefundOutbox; reads: CreditReads };
  notifications: NotificationsService;
  translator: Translator;
  renderer: ExportRenderer;
  /** Framing analyses one user may run at once in this process; unlimited when absent. */
  maxFramingsPerUser?: number;
  /** Where framing analyses wait for work users wait for. */
  gate?: WorkGate;
  /** The brand kits a request names (`brand_kit_id`); absent: none can be named. */
  brandKits?: Pick<BrandKitsService, 'resolveForClip'>;
}

/**
 * Export jobs (/api/job) and the clip editor's framing preview. The caption preview
 * (CaptionsService) resolves its clip here too, so the preview is the export.
 */
export class ExportsService {
  /** Probed source sizes, newest last; bounded so a long-lived process does not grow. */
  private readonly sourceSizes = new Map<string, Size>();
  /** Framing analyses under way per user (this process), for the per-user limit. */
  private readonly framingsRunning = new Map<string, number>();

  private readonly db: Db;
  private readonly media: MediaRepository;
  private readonly repo: ExportsRepository;
  private readonly tasks: TasksRepository;
  private readonly moments: MomentsRepository;
  private readonly storage: Storage;
  private readonly fileUrls: FileUrls;
  private readonly queue: JobQueue;
  private readonly billing: { ledger: Ledger; refunds: RefundOutbox; reads: CreditReads };
  private readonly notifications: NotificationsService;
  private readonly translator: Translator;
  private readonly renderer: ExportRenderer;
  private readonly maxFramingsPerUser: number;
  private readonly gate: WorkGate;
  private readonly brandKits: Pick<BrandKitsService, 'resolveForClip'> | undefined;

  constructor(options: ExportsServiceOptions) {
    this.brandKits = options.brandKits;
    this.db = options.db;
    this.media = options.media;
    this.repo = options.repo;
    this.tasks = options.tasks;
    this.moments = options.moments;
    this.storage = options.storage;
    this.fileUrls = options.fileUrls;
    this.queue = options.queue;
    this.billing = options.billing;
    this.notifications = options.notifications;
    this.translator = options.translator;
    this.renderer = options.renderer;
    this.maxFramingsPerUser = options.maxFramingsPerUser ?? Number.POSITIVE_INFINITY;
    this.gate = options.gate ?? new WorkGate();
  }

  async create(userId: string, body: JobCreateBody): Promise<Job> {
    const prepared = await this.prepare(userId, body);
    const row = await this.db.transaction((tx) => this.enqueue(tx, userId, prepared));
    this.queue.wake('export-render'); // committed: a worker in this process starts it now
    await this.notifications.jobChanged(userId, jobForNotification(row), false);
    return toJobDto(row, null);
  }

  /**
   * Everything an export needs read before its transaction: the clip (owner-scoped), the
   * translation check, its price and the framing the editor previewed.
   */
  async prepare(userId: string, body: JobCreateBody): Promise<PreparedExport> {
    const source = await this.resolveClip(userId, body.type, body);
    await assertTranslationAvailable(this.translator, source.options, source.transcript.language);
    const durationMs = source.options.endMs - source.options.startMs;
    // A caption video is charged by the length it is exported at: what its cut leaves.
    const exportedMs =
      body.type === 'ANIMATED_CAPTION_EXPORT' && cutsClip(source.options)
        ? (await this.cutPlan(source)).durationMs
        : durationMs;
    const charge = exportQuote(body.type, exportedMs);
    // Looked up before the transaction: on PGlite (one connection) a query outside an open
    // transaction waits for it to end, so this read inside it would never return.
    const previewedFraming = await this.renderer.framing.stored(
      source.task.mediaKey!,
      source.options,
    );
    return { type: body.type, source, durationMs, charge, previewedFraming };
  }

  /**
   * The job row, its charge and its queue job, inside the caller's transaction, so they commit
   * together: a failed send or a crash in between leaves nothing behind, never a job stuck
   * IN_PROGRESS with its credit spent. A refused charge (BALANCE_NOT_ENOUGH, or
   * EXPORT_LIMIT_REACHED for the plan's exports) throws and rolls the whole transaction back.
   */
  async enqueue(
    tx: Tx,
    userId: string,
    prepared: PreparedExport,
    extra: { batchId?: string } = {},
  ): Promise<ExportRow> {
    const { source, durationMs, charge, previewedFraming } = prepared;
    const runToken = randomUUID();
    const inserted = await this.repo.insert(
      {
        userId,
        momentId: source.momentId,
        taskId: source.task.id,
        type: prepared.type,
        status: 'IN_PROGRESS',
        progress: 0,
        title: source.title,
        // The framing the editor previewed (kept in the database): the export renders that
        // very plan instead of analysing again (the preview matches the export).
        options: {
          ...source.options,
          framing: previewedFraming,
        } satisfies JobOptions,
        durationMs,
        costCredits: charge.amount,
        runToken,
        batchId: extra.batchId ?? null,
      },
      tx,
    );
    // A savepoint of this transaction.
    await this.billing.ledger.charge(
      userId,
      { kind: charge.kind, jobId: inserted.id },
      charge.feature,
      charge.amount,
      { tx, reason: CHARGE_KIND_LABELS[charge.kind] },
    );
    // clipped/list: a moment the user exported is a clipped moment; the layout it was
    // exported with stays with the clip.
    if (source.momentId) {
      await this.moments.update(
        source.momentId,
        { clipped: true, layout: source.options.layout },
        tx,
      );
    }
    await this.queue.send(
      'export-render',
      { jobId: inserted.id, runToken },
      { tx, expireInSeconds: ExportRenderer.expirySeconds(inserted.durationMs ?? 0) },
    );
    return inserted;
  }

  /** Tells the user's clients about jobs just queued (progress 0), and wakes a local worker. */
  async announce(userId: string, rows: ExportRow[]): Promise<void> {
    this.queue.wake('export-render');
    for (const row of rows) {
      await this.notifications.jobChanged(userId, jobForNotification(row), false);
    }
  }

  async list(
    userId: string,
    query: { page_num: number; page_size: number; type?: JobType },
  ): Promise<Job[]> {
    const rows = await this.repo.listForUser(
      userId,
      query.page_size,
      (query.page_num - 1) * query.page_size,
      query.type,
    );
    return Promise.all(rows.map((row) => this.toDto(row)));
  }

  async get(userId: string, id: unknown): Promise<Job> {
    return this.toDto(await this.owned(userId, id));
  }

  /** What the export was made with, for the clip editor's "Edit again"; null when unknown. */
  async settings(userId: string, id: unknown): Promise<ClipSettings | null> {
    return clipSettingsOf(await this.owned(userId, id));
  }

  /** Stops the export if it runs, deletes its files; an unfinished export is refunded. */
  async delete(userId: string, id: unknown): Promise<void> {
    const row = await this.owned(userId, id);
    this.renderer.cancel(row.id);
    await this.repo.delete(row.id);
    if (row.status !== 'DONE') {
      const { kind } = exportQuote(row.type as JobType, row.durationMs ?? 0);
      await this.billing.refunds.refund(userId, { kind, jobId: row.id }, 'deleted');
    }
    await this.storage.delete(jobFileKey(userId, row.id));
    await this.storage.delete(jobCaptionsKey(userId, row.id));
    await this.storage.delete(jobPosterKey(userId, row.id));
    await this.storage.delete(jobCoverKey(userId, row.id));
    if (row.batchId && row.status === 'IN_PROGRESS') {
      await this.notifications.batchClipGone(row.batchId);
    }
  }

  /** A task is deleted: its exports go with it, files and share pages included. */
  async deleteForTask(userId: string, taskId: string): Promise<void> {
    for (const id of await this.repo.idsForTask(taskId)) await this.delete(userId, id);
  }

  /**
   * The framing the export with these options would use, from the exporter's own planner (the
   * plan is kept, and an export started after this renders exactly it). `signal` stops waiting
   * when the editor no longer needs the answer.
   */
  async framing(userId: string, body: ClipFramingBody, signal?: AbortSignal): Promise<ClipFraming> {
    const source = await this.resolveClip(userId, undefined, body);
    const mediaKey = source.task.mediaKey!;
    const size = await this.sourceSize(source.task);
    const request = framingRequestOf(
      source.options,
      size,
      exportFrameSize(source.options.aspect, source.options.quality, size),
      source.transcript,
    );
    const cached = this.renderer.framing.cached(mediaKey, source.options);
    if (cached) return toFramingDto(cached, request);
    const running = this.framingsRunning.get(userId) ?? 0;
    if (running >= this.maxFramingsPerUser) {
      throw new AppError(
        ERROR_CODES.TOO_MANY_RUNNING,
        429,
        'Several framing previews are already being worked out for you; try again in a moment.',
      );
    }
    this.framingsRunning.set(userId, running + 1);
    try {
      // The user waits for it: background analyses in this process give way.
      const framing = await this.gate.userWork(() =>
        this.renderer.framing.plan(
          mediaKey,
          request,
          (work) => this.storage.withLocalFile(mediaKey, work),
          { signal },
        ),
      );
      return toFramingDto(framing, request);
    } finally {
      const left = (this.framingsRunning.get(userId) ?? 1) - 1;
      if (left > 0) this.framingsRunning.set(userId, left);
      else this.framingsRunning.delete(userId);
    }
  }

  /**
   * Loads what the request points at (owner-scoped: another user's moment or task is 404) and
   * checks the options: template, trim inside the video, translation needs.
   */
  async resolveClip(
    userId: string,
    type: JobType | undefined,
    body: { moment_id?: string; task_id?: string; options: ExportOptions },
  ): Promise<ClipSource> {
    let task: TaskRow;
    let moment: MomentRow | undefined;
    const wantsTask = type === 'ANIMATED_CAPTION_EXPORT' || (!type && !body.moment_id);
    if (wantsTask) {
      if (!body.task_id) throw badRequest('task_id is required for a caption export');
      task = await this.tasks.findOwned(userId, body.task_id);
    } else {
      if (!body.moment_id) throw badRequest('moment_id is required for a moment export');
      moment = await this.moments.findOwned(userId, body.moment_id);
      const owner = await this.tasks.findById(moment.taskId);
      if (!owner) throw notFound('Moment');
      task = owner;
    }
    const transcriptRow = await this.tasks.findTranscript(task.id);
    if (task.status !== 'DONE' || !task.mediaKey || !transcriptRow) {
      throw new AppError(
        ERROR_CODES.CONFLICT,
        409,
        'This video is still being processed; export it once its task is done.',
      );
    }
    const transcript: StoredTranscript = storedTranscript(transcriptRow);

    const options = body.options;
    if (!isCaptionTemplateId(options.template)) {
      throw new AppError(
        ERROR_CODES.UNKNOWN_TEMPLATE,
        422,
        `Unknown caption template "${options.template}".`,
      );
    }
    assertFontInstalled(options.style?.font_family);
    const videoMs = task.durationMs ?? transcriptRow.durationMs;
    const startMs = options.start_ms ?? moment?.startMs ?? 0;
    const endMs = options.end_ms ?? moment?.endMs ?? videoMs;
    if (startMs < 0 || endMs > videoMs || endMs <= startMs) {
      throw new AppError(
        ERROR_CODES.INVALID_RANGE,
        422,
        `The clip must start before it ends and lie inside the video (0 to ${videoMs} ms).`,
      );
    }
    if (moment)
      this.billing.reads.assertClipLength(await this.billing.reads.planOf(userId), endMs - startMs);
    const span = snapToWords(
      transcript,
      { startMs, endMs },
      { startMs: options.start_ms, endMs: options.end_ms },
    );
    const cuts = options.cuts ?? [];
    const cutProblem = cutsProblem(
      cuts.map((cut) => ({ startMs: cut.start_ms, endMs: cut.end_ms })),
      span,
    );
    if (cutProblem) throw new AppError(ERROR_CODES[cutProblem.code], 422, cutProblem.message);
    // Another user's kit is NOT_FOUND, before anything is made.
    const brandKit = options.brand_kit_id
      ? await this.resolveBrandKit(userId, options.brand_kit_id)
      : undefined;
    const style = mergeKitStyle(brandKit?.style, options.style);
    const title =
      moment?.title || (task.video as VideoMeta).title || (moment ? 'Untitled moment' : 'Untitled');
    return {
      task,
      momentId: moment?.id ?? null,
      title,
      transcript,
      options: {
        aspect: options.aspect,
        quality: options.quality,
        template: options.template,
        captionDisplay:
          options.caption_display ?? (task.captionDisplay as ResolvedClipOptions['captionDisplay']),
        sourceLang: transcript.language,
        targetLang: options.target_lang ?? task.targetLang,
        startMs: span.startMs,
        endMs: span.endMs,
        transcriptText: options.transcript_text ?? null,
        // `blur_fit` is the older name of `fit`.
        layout: options.layout === 'blur_fit' ? 'fit' : options.layout,
        captionPosition: options.caption_position,
        captionSize: options.caption_size,
        removeFillers: options.remove_fillers,
        ...(cuts.length && {
          cuts: cuts.map((cut) => ({ startMs: cut.start_ms, endMs: cut.end_ms })),
        }),
        ...(options.remove_silences && { minPauseMs: options.remove_silences.min_ms }),
        platform: options.platform,
        ...(style && Object.keys(style).length ? { style } : {}),
        ...(brandKit && { brandKit }),
        ...(options.hook_title ? { hookTitle: options.hook_title } : {}),
      },
    };
  }

  /**
   * The cut the export of this clip makes (what the editor's player skips): pauses are measured
   * on the source's audio, once, and kept for the export to read the same measure.
   */
  async cutPlan(source: ClipSource, signal?: AbortSignal): Promise<CutPlan> {
    const { options, task } = source;
    if (options.minPauseMs === undefined) return clipCutPlan(source.transcript, options);
    const mediaKey = task.mediaKey!;
    const silences = await this.storage.withLocalFile(mediaKey, async (file) => {
      const info = await this.media.probe(file, { signal });
      if (!info.hasAudio) return undefined;
      const loudness = await this.renderer.loudnessOf(
        mediaKey,
        file,
        options.startMs,
        options.endMs,
        signal ?? new AbortController().signal,
      );
      return this.renderer.silencesOf(mediaKey, file, options, { signal, loudness });
    });
    return clipCutPlan(source.transcript, options, silences);
  }

  private resolveBrandKit(userId: string, id: string) {
    if (!this.brandKits) throw notFound('Brand kit');
    return this.brandKits.resolveForClip(userId, id);
  }

  async sourceSize(task: TaskRow): Promise<Size> {
    const key = task.mediaKey!;
    let size = this.sourceSizes.get(key);
    if (!size) {
      const info =
        (await this.renderer.storedProbe(key)) ??
        (await this.storage.withLocalFile(key, (file) => this.renderer.probeOf(key, file)));
      if (!info.width || !info.height) {
        throw new AppError(ERROR_CODES.NOT_A_VIDEO, 422, 'This media has no picture to export.');
      }
      size = uprightFrameSize(info.width, info.height, info.rotation ?? 0);
      this.sourceSizes.set(key, size);
      if (this.sourceSizes.size > SOURCE_SIZE_CACHE_LIMIT) {
        this.sourceSizes.delete(this.sourceSizes.keys().next().value!);
      }
    }
    return size;
  }

  private owned(userId: string, id: unknown): Promise<ExportRow> {
    return this.repo.findOwned(userId, id);
  }

  private async toDto(row: ExportRow): Promise<Job> {
    const url =
      row.status === 'DONE' && row.fileKey
        ? await this.fileUrls.signFileUrl(row.fileKey, {
            expiresInSec: FILE_URL_TTL_SEC,
            downloadName: downloadName(row.title),
          })
        : null;
    return toJobDto(row, url);
  }
}

/** A file name safe for a download header, from the job's title. */
function downloadName(title: string): string {
  return `${fileBaseName(title)}.mp4`;
}

export function fileBaseName(title: string): string {
  const base = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N} _.-]+/gu, '')
    .trim()
    .slice(0, 80);
  return base || 'clip';
}

/** A style's font must be one of the caption families installed here (GET /api/captions/fonts). */
export function assertFontInstalled(family: string | undefined): void {
  if (family !== undefined && !installedCaptionFont(family)) {
    throw new AppError(
      ERROR_CODES.UNKNOWN_FONT,
      422,
      `The font "${family}" is not installed here; choose one of GET /api/captions/fonts.`,
    );
  }
}
