import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import archiver from 'archiver';
import {
  ERROR_CODES,
  exportTypeOf,
  thumbnailPath,
  type ExportBatch,
  type ExportBatchClip,
  type ExportBatchCreateBody,
  type ExportBatchCreated,
  type ExportOptions,
  type JobStatus,
  type MomentListType,
  type Platform,
  type PublishKit,
  type VideoMeta,
} from '@moments/contract';
import { publishKitTexts } from '@moments/domain/publish';
import type { Db } from '../../db/client.js';
import { isUuid } from '../../db/owned.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { Storage } from '../../storage/index.js';
import type { CreditReads } from '../billing/index.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { TasksRepository } from '../tasks/tasks.repository.js';
import {
  fileBaseName,
  type ExportsService,
  type PreparedExport,
} from '../exports/exports.service.js';
import { jobCoverKey } from '../exports/job-mapper.js';
import type {
  BatchClipRow,
  ExportBatchRow,
  ExportBatchesRepository,
  MomentRow,
} from './export-batches.repository.js';

export interface ExportBatchesServiceOptions {
  db: Db;
  repo: ExportBatchesRepository;
  exports: ExportsService;
  tasks: TasksRepository;
  storage: Storage;
  media: MediaRepository;
  reads: CreditReads;
  notifications: NotificationsService;
  /** Where covers are drawn before they are stored. */
  tmpDir: string;
  log?: Logger;
}

/** One clip of a ZIP: its job and the names its files get. */
interface ZipClip {
  job: BatchClipRow;
  index: number;
  fileName: string;
  coverName: string;
}

/**
 * Export all: several moments of a task rendered with one set of options, as one batch whose
 * clips are ordinary export jobs (the same renderer, progress, charges and refunds), one
 * notification when the last clip ends, and a ZIP of the finished clips with their publish kit.
 */
export class ExportBatchesService {
  private readonly log: Logger;

  constructor(private readonly options: ExportBatchesServiceOptions) {
    this.log = options.log ?? silentLogger;
    options.notifications.whenBatchClipEnds((batchId) =>
      this.clipEnded(batchId).catch((err: unknown) =>
        this.log.warn({ err, batchId }, 'could not tell whether the export batch is done'),
      ),
    );
  }

  /**
   * Checks every clip, then stores the batch, its clips' jobs and their charges in one
   * transaction: a batch the balance or the plan's exports cannot cover whole is refused before
   * anything is stored, and a charge refused midway rolls everything back.
   */
  async create(userId: string, body: ExportBatchCreateBody): Promise<ExportBatchCreated> {
    const { db, repo, exports } = this.options;
    const task = await this.options.tasks.findOwned(userId, body.task_id);
    if ((body.moment_ids === undefined) === (body.top_n === undefined)) {
      throw badRequest('Give either moment_ids or top_n, not both and not neither.');
    }
    const chosen = await this.chooseMoments(userId, task.id, body);
    if (!chosen.length) {
      throw new AppError(ERROR_CODES.CONFLICT, 409, 'This video has no moments to export yet.');
    }
    await this.options.reads.assertCanCoverAll(
      userId,
      'CANVAS_EXPORT',
      chosen.length,
      (left) =>
        `Exporting these ${chosen.length} clips takes ${chosen.length} exports and your plan has ${left} left. Choose fewer clips or upgrade your plan.`,
    );
    const prepared: PreparedExport[] = [];
    for (const moment of chosen) {
      prepared.push(
        await exports.prepare(userId, {
          type: exportTypeOf(moment.type as MomentListType),
          moment_id: moment.id,
          options: body.options,
        }),
      );
    }
    const { batch, rows } = await db.transaction(async (tx) => {
      const batch = await repo.insert({ userId, taskId: task.id, options: body.options }, tx);
      const rows: BatchClipRow[] = [];
      for (const one of prepared) {
        rows.push(await exports.enqueue(tx, userId, one, { batchId: batch.id }));
      }
      await repo.setJobIds(
        batch.id,
        rows.map((row) => row.id),
        tx,
      );
      return { batch, rows };
    });
    await exports.announce(userId, rows);
    return { batch_id: batch.id, job_ids: rows.map((row) => row.id) };
  }

  async get(userId: string, id: unknown): Promise<ExportBatch> {
    const batch = await this.owned(userId, id);
    const clips = await this.orderedClips(batch);
    const dtos: ExportBatchClip[] = clips.map((job) => ({
      job_id: job.id,
      moment_id: job.momentId,
      title: job.title,
      status: job.status as JobStatus,
      progress: Math.round(job.progress * 10) / 10,
      error_reason: job.errorReason,
      duration_ms: job.durationMs,
      poster_url: job.posterKey ? thumbnailPath('job', job.id) : null,
    }));
    const done = dtos.filter((clip) => clip.status === 'DONE').length;
    const failed = dtos.filter((clip) => clip.status === 'ERROR').length;
    const progress = dtos.length
      ? dtos.reduce((sum, clip) => sum + clip.progress, 0) / dtos.length
      : 100;
    return {
      batch_id: batch.id,
      task_id: batch.taskId,
      status: batchStatus(dtos.length, done, failed),
      progress: Math.round(progress * 10) / 10,
      clips: dtos,
      done_count: done,
      error_count: failed,
      created_at: batch.createdAt.getTime(),
      finished_at: batch.finishedAt?.getTime() ?? null,
      zip_url: done ? `/api/job/batch/${batch.id}/zip` : null,
    };
  }

  /** A finished clip's publish kit: its texts per platform and its cover. */
  async publishKit(userId: string, jobId: unknown): Promise<PublishKit> {
    const job = await this.finishedJob(userId, jobId);
    const batch = job.batchId ? await this.options.repo.findById(job.batchId) : undefined;
    const index = batch ? (batch.jobIds as string[]).indexOf(job.id) + 1 : 1;
    return this.kitOf(job, batch, clipNames(job, index || 1).fileName);
  }

  /** The stored cover of a finished clip (drawn on first ask), as a storage key. */
  async coverKey(userId: string, jobId: unknown): Promise<string> {
    const job = await this.finishedJob(userId, jobId);
    const batch = job.batchId ? await this.options.repo.findById(job.batchId) : undefined;
    return this.ensureCover(job, batch);
  }

  /**
   * The batch's ZIP, written as it is sent: each finished clip's MP4 read from storage and
   * passed through (stored, not compressed: MP4 and JPEG are compressed already), its cover, and
   * publish.json. Nothing is held whole in memory; the reader's pace sets the pace (backpressure).
   */
  async zip(userId: string, id: unknown): Promise<{ fileName: string; stream: Readable }> {
    const batch = await this.owned(userId, id);
    const finished = (await this.orderedClips(batch)).filter(
      (job) => job.status === 'DONE' && job.fileKey,
    );
    if (!finished.length) {
      throw new AppError(
        ERROR_CODES.CONFLICT,
        409,
        'No clip of this batch is finished yet; download the ZIP once one is.',
      );
    }
    const clips: ZipClip[] = finished.map((job, i) => ({
      job,
      index: i + 1,
      ...clipNames(job, i + 1),
    }));
    // Covers first: a cover that cannot be made fails the request before any byte is sent.
    const covers = new Map<string, string>();
    for (const clip of clips) covers.set(clip.job.id, await this.ensureCover(clip.job, batch));
    const kits = await Promise.all(clips.map((clip) => this.kitOf(clip.job, batch, clip.fileName)));
    const publish = {
      batch_id: batch.id,
      task_id: batch.taskId,
      clips: clips.map((clip, i) => ({
        index: clip.index,
        file_name: clip.fileName,
        cover: clip.coverName,
        title: clip.job.title,
        duration_ms: clip.job.durationMs,
        platforms: kits[i]!.platforms,
      })),
    };
    const archive = archiver('zip', { store: true });
    const storage = this.options.storage;
    const entries: { name: string; open: () => Promise<Readable> | Readable | Buffer }[] = [];
    for (const clip of clips) {
      entries.push({
        name: clip.fileName,
        open: () => storage.createReadStream(clip.job.fileKey!),
      });
      entries.push({
        name: clip.coverName,
        open: () => storage.createReadStream(covers.get(clip.job.id)!),
      });
    }
    entries.push({
      name: 'publish.json',
      open: () => Buffer.from(JSON.stringify(publish, null, 2)),
    });
    // One entry opened at a time (the next once the last is written): an S3 store is not asked
    // for every clip at once, and a slow reader holds one open stream.
    void (async () => {
      for (const entry of entries) {
        const written = entryWritten(archive);
        archive.append(await entry.open(), { name: entry.name });
        await written;
      }
      await archive.finalize();
    })().catch((err: unknown) => {
      this.log.warn({ err, batchId: batch.id }, 'export batch ZIP stopped');
      archive.abort();
    });
    const task = batch.taskId ? await this.options.tasks.findById(batch.taskId) : undefined;
    const title = (task?.video as VideoMeta | undefined)?.title || 'clips';
    return { fileName: `${fileBaseName(title)}.zip`, stream: archive };
  }

  /** A clip ended (or was deleted): the batch's one notification once its last clip has. */
  private async clipEnded(batchId: string): Promise<void> {
    const batch = await this.options.repo.finishIfDone(batchId);
    if (!batch) return;
    const clips = await this.orderedClips(batch);
    const done = clips.filter((job) => job.status === 'DONE');
    const failed = clips.filter((job) => job.status === 'ERROR').length;
    const task = batch.taskId ? await this.options.tasks.findById(batch.taskId) : undefined;
    const taskTitle = (task?.video as VideoMeta | undefined)?.title || 'your video';
    await this.options.notifications.batchFinished(batch.userId, {
      id: batch.id,
      taskId: batch.taskId,
      title: `${clips.length} ${clips.length === 1 ? 'clip' : 'clips'} of ${taskTitle}`,
      status: batchStatus(clips.length, done.length, failed),
      clipCount: clips.length,
      doneCount: done.length,
      errorCount: failed,
      thumbnailJobId: done.find((job) => job.posterKey)?.id ?? null,
    });
  }

  private async chooseMoments(
    userId: string,
    taskId: string,
    body: ExportBatchCreateBody,
  ): Promise<MomentRow[]> {
    const { repo } = this.options;
    if (!body.moment_ids) return repo.topMoments(userId, taskId, body.top_n!);
    const ids = [...new Set(body.moment_ids)];
    // Another user's moment, or one of another task, answers exactly like a missing one.
    if (!ids.every(isUuid)) throw notFound('Moment');
    const found = await repo.momentsOf(userId, taskId, ids);
    if (found.length !== ids.length) throw notFound('Moment');
    const byId = new Map(found.map((moment) => [moment.id, moment]));
    return ids.map((momentId) => byId.get(momentId)!);
  }

  private async kitOf(
    job: BatchClipRow,
    batch: ExportBatchRow | undefined,
    fileName: string,
  ): Promise<PublishKit> {
    const moment = job.momentId ? await this.options.repo.findMoment(job.momentId) : undefined;
    const options = (batch?.options ?? {}) as Partial<ExportOptions>;
    const jobOptions = job.options as { platform?: Platform };
    return {
      job_id: job.id,
      file_name: fileName,
      cover_url: `/api/job/${job.id}/cover`,
      platforms: publishKitTexts(
        {
          title: moment?.title || job.title,
          description: moment?.description ?? '',
          hashtags: Array.isArray(moment?.hashtags) ? (moment.hashtags as string[]) : [],
          transcript: moment?.transcript,
        },
        options.platform ?? jobOptions.platform ?? 'generic',
      ),
    };
  }

  /** The cover in storage: the clip's poster (else its best frame) with the hook title drawn. */
  private async ensureCover(job: BatchClipRow, batch: ExportBatchRow | undefined): Promise<string> {
    const { storage, media } = this.options;
    const key = jobCoverKey(job.userId, job.id);
    if (await storage.stat(key)) return key;
    await fs.mkdir(this.options.tmpDir, { recursive: true });
    const scratch = path.join(this.options.tmpDir, `cover-${randomUUID()}`);
    const frame = `${scratch}-frame.jpg`;
    const cover = `${scratch}.jpg`;
    try {
      if (job.posterKey && (await storage.stat(job.posterKey))) {
        await storage.withLocalFile(job.posterKey, (file) => fs.copyFile(file, frame));
      } else {
        await storage.withLocalFile(job.fileKey!, (file) =>
          media.thumbnail(file, frame, { durationMs: job.durationMs ?? 0, width: 720 }),
        );
      }
      await media.cover(frame, cover, { title: hookTitleOf(job, batch) });
      await storage.putFile(key, cover, { move: true });
      return key;
    } finally {
      await fs.rm(frame, { force: true });
      await fs.rm(cover, { force: true });
    }
  }

  private async finishedJob(userId: string, jobId: unknown): Promise<BatchClipRow> {
    const job = await this.options.repo.ownedClip(userId, jobId);
    if (job.status !== 'DONE' || !job.fileKey) {
      throw new AppError(
        ERROR_CODES.CONFLICT,
        409,
        'This clip is not finished yet; its publish kit is ready once it is.',
      );
    }
    return job;
  }

  private owned(userId: string, id: unknown): Promise<ExportBatchRow> {
    return this.options.repo.findOwned(userId, id);
  }

  /** The batch's clips in its order (best moment first); deleted clips are left out. */
  private async orderedClips(batch: ExportBatchRow): Promise<BatchClipRow[]> {
    const rows = await this.options.repo.clips(batch.id);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return (batch.jobIds as string[]).flatMap((id) => byId.get(id) ?? []);
  }
}

/** Resolves once the archive wrote its current entry; rejects when it fails or is closed first. */
function entryWritten(archive: archiver.Archiver): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      archive.off('entry', onEntry);
      archive.off('error', onError);
      archive.off('close', onClose);
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve();
    };
    const onEntry = () => done();
    const onError = (error: unknown) => done(error);
    const onClose = () => done(new Error('the ZIP was closed before it was written'));
    archive.on('entry', onEntry);
    archive.on('error', onError);
    archive.on('close', onClose);
  });
}

/** IN_PROGRESS while any clip renders; then DONE when one or more was made, ERROR when none was. */
function batchStatus(count: number, done: number, failed: number): JobStatus {
  if (done + failed < count) return 'IN_PROGRESS';
  return done ? 'DONE' : 'ERROR';
}

/** The names a clip's files get in the ZIP: numbered in the batch's order, titled. */
function clipNames(job: BatchClipRow, index: number) {
  const number = String(index).padStart(2, '0');
  return {
    fileName: `${number}-${fileBaseName(job.title)}.mp4`,
    coverName: `cover-${index}.jpg`,
  };
}

/** The hook title the clip opens with: the batch's options, else the job's own. */
function hookTitleOf(job: BatchClipRow, batch: ExportBatchRow | undefined): string | null {
  const fromBatch = (batch?.options as Partial<ExportOptions> | undefined)?.hook_title?.text;
  const stored = job.options as {
    hookTitle?: { text?: string } | null;
    hook_title?: { text?: string };
  };
  return fromBatch ?? stored.hookTitle?.text ?? stored.hook_title?.text ?? null;
}
