import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { THUMBNAIL_KINDS, thumbnailPath, type ThumbnailKind } from '@moments/contract';
import { asDiskFull, isMediaError } from '@moments/media/errors';
import { downloadPublicFile } from '@moments/net';
import { notFound } from '../../http/errors.js';
import { jobPosterKey } from '../exports/job-mapper.js';
import { silentLogger, type Logger } from '../../logging.js';
import { isUuid } from '../../db/owned.js';
import type { Storage } from '../../storage/index.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { MomentRow, TaskRow, ThumbnailsRepository } from './thumbnails.repository.js';

/** A link page's preview image larger than this is not fetched (its thumbnail is a frame then). */
const LINK_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = /^image\//i;
const PREVIEW_ID = /^[a-f0-9]{32}$/;

const taskThumbnailKey = (task: Pick<TaskRow, 'id' | 'userId'>) =>
  `users/${task.userId}/tasks/${task.id}/thumbnail.jpg`;
/** The span is in the key: a moment moved by a re-analysis gets a new picture. */
const momentThumbnailKey = (moment: MomentRow) =>
  `users/${moment.userId}/tasks/${moment.taskId}/moments/${moment.id}-${moment.startMs}-${moment.endMs}.jpg`;
const previewId = (imageUrl: string) =>
  createHash('sha256').update(imageUrl).digest('hex').slice(0, 32);
const previewKey = (userId: string, id: string) => `users/${userId}/link-previews/${id}.jpg`;
/** Older rows (before stored thumbnails) hold the link page's image URL itself (hot-linked). */
const legacyRemoteImage = (video: unknown) => {
  const thumbnail = (video as { thumbnail?: unknown } | null)?.thumbnail;
  return typeof thumbnail === 'string' && /^https?:\/\//i.test(thumbnail) ? thumbnail : null;
};

/** A stored link preview no task adopted is removed by housekeeping after this long. */
export const LINK_PREVIEW_TTL_MS = 24 * 3600_000;

/** Why a video's media can give no frame (tasks.frameless_reason): it will not change. */
export type FramelessReason = 'audio-only' | 'no-frame';

/**
 * A frame that failed for good: ffmpeg decoded no picture from the media. Not when the work was
 * stopped, timed out or the disk filled up (another run may succeed).
 */
const isFramelessError = (error: unknown, signal?: AbortSignal) => {
  if (signal?.aborted || !isMediaError(error, 'NOT_A_VIDEO') || asDiskFull(error)) return false;
  const cause = error.cause;
  return !isMediaError(cause) || !['TIMEOUT', 'ABORTED', 'TOOL_MISSING'].includes(cause.code);
};

/** Runs one piece of backfill work as background work (WorkGate.background): it gives way to users. */
export type BackgroundRunner = <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

interface BackfillCounts {
  videos: number;
  moments: number;
  posters: number;
}

const isThumbnailKind = (kind: string): kind is ThumbnailKind =>
  (THUMBNAIL_KINDS as readonly string[]).includes(kind);

/** What clients load for a moment's picture (null until one is stored). */
export const momentThumbnail = (moment: Pick<MomentRow, 'id' | 'thumbnailKey'>) =>
  moment.thumbnailKey ? thumbnailPath('moment', moment.id) : null;

export interface ThumbnailsOptions {
  /** Scratch folder for frames and fetched images (DATA_DIR/tmp). */
  tmpDir: string;
  /** MEDIA_FETCH_ALLOW_HOSTS: the link guard's allow-list. */
  allowHosts: string[];
  log?: Logger;
}

/**
 * The pictures of the library, moments, search, shares and notifications. Each is made
 * once by the server and stored (a frame chosen by brightness and contrast, or a link's preview
 * image fetched through the link guard and re-encoded), then served by `/api/thumbnail/...` to
 * its owner and to visitors of what was shared. A picture that cannot be made is logged and left
 * out: it never fails the work it belongs to.
 */
export class ThumbnailsService {
  private readonly log: Logger;

  constructor(
    private readonly repo: ThumbnailsRepository,
    private readonly media: MediaRepository,
    private readonly storage: Storage,
    private readonly options: ThumbnailsOptions,
  ) {
    this.log = options.log ?? silentLogger;
  }

  /**
   * The video's thumbnail: an upload's own (made at ingest), else the link's preview image,
   * else the best frame of the video. Returns the stored key, or null when none could be made.
   */
  async forTask(
    task: TaskRow,
    sourceFile: string,
    facts: { durationMs: number; remoteImage?: string | null },
    signal?: AbortSignal,
  ): Promise<string | null> {
    return (await this.videoThumbnail(task, sourceFile, facts, signal)).key;
  }

  /** forTask, also telling whether the frame failed for good (`frameless`). */
  private async videoThumbnail(
    task: TaskRow,
    sourceFile: string,
    facts: { durationMs: number; remoteImage?: string | null },
    signal?: AbortSignal,
  ): Promise<{ key: string | null; frameless?: boolean }> {
    if (task.thumbnailKey) return { key: task.thumbnailKey };
    const upload = await this.uploadThumbnailOf(task);
    if (upload) return { key: upload };
    const key = taskThumbnailKey(task);
    if (facts.remoteImage) {
      const stored = await this.adoptLinkPreview(task.userId, facts.remoteImage, key);
      if (stored) return { key: stored };
    }
    if (facts.remoteImage) {
      const stored = await this.storeRemoteImage(facts.remoteImage, key, signal).catch(
        (error: unknown) => {
          // The page's image is optional: a frame of the video stands in for it.
          this.log.warn({ err: error, taskId: task.id }, 'link preview image not used');
          return null;
        },
      );
      if (stored) return { key: stored };
    }
    return this.storeFrame(sourceFile, key, { durationMs: facts.durationMs }, signal).then(
      (stored) => ({ key: stored }),
      (error: unknown) => {
        this.log.warn({ err: error, taskId: task.id }, 'video thumbnail not made');
        return { key: null, frameless: isFramelessError(error, signal) };
      },
    );
  }

  /** A frame from inside each moment of the task that has none for its current span. */
  async forMoments(task: TaskRow, sourceFile: string, signal?: AbortSignal): Promise<number> {
    const rows = await this.repo.momentsOfTask(task.id);
    let made = 0;
    for (const moment of rows) {
      const key = momentThumbnailKey(moment);
      if (moment.thumbnailKey === key) continue;
      signal?.throwIfAborted();
      const stored = await this.storeFrame(
        sourceFile,
        key,
        { startMs: moment.startMs, endMs: moment.endMs, durationMs: task.durationMs ?? 0 },
        signal,
      ).catch((error: unknown) => {
        this.log.warn({ err: error, taskId: task.id, momentId: moment.id }, 'moment thumbnail');
        return null;
      });
      if (!stored) continue;
      await this.repo.setMomentThumbnail(moment.id, stored);
      if (moment.thumbnailKey && moment.thumbnailKey !== stored) {
        await this.storage.delete(moment.thumbnailKey);
      }
      made++;
    }
    return made;
  }

  /**
   * The poster of a finished export: the frame its render wrote beside the MP4 (one pass, no
   * second decode), else the best frame of the MP4 itself (an export made before, a render that
   * wrote none).
   */
  async forExport(
    job: { id: string; userId: string },
    made: { mp4File: string; durationMs: number; renderedFrame?: string },
    signal?: AbortSignal,
  ): Promise<string | null> {
    const key = jobPosterKey(job.userId, job.id);
    // No file: the render wrote no poster (no exposed frame, or a render of another kind).
    const rendered =
      made.renderedFrame && (await fs.stat(made.renderedFrame).catch(() => undefined))?.size
        ? made.renderedFrame
        : undefined;
    const stored = rendered
      ? this.storage.putFile(key, rendered, { move: true }).then(() => key)
      : this.storeFrame(made.mp4File, key, { durationMs: made.durationMs }, signal);
    return stored.catch((error: unknown) => {
      this.log.warn({ err: error, jobId: job.id, userId: job.userId }, 'export poster not made');
      return null;
    });
  }

  /**
   * The preview card of a link before any task exists: the page's image is fetched and stored
   * for this user, and served from here (visitors' browsers never load it from the site).
   */
  async linkPreview(
    userId: string,
    imageUrl: string | null,
    signal?: AbortSignal,
  ): Promise<string | null> {
    if (!imageUrl) return null;
    const id = previewId(imageUrl);
    const key = previewKey(userId, id);
    if (!(await this.storage.stat(key))) {
      const stored = await this.storeRemoteImage(imageUrl, key, signal).catch((error: unknown) => {
        this.log.warn({ err: error, userId }, 'link preview image not fetched');
        return null;
      });
      if (!stored) return null;
    }
    // Listed (again) from now: a preview shown today is not removed under its card.
    await this.repo.touchLinkPreview(userId, id, key);
    return thumbnailPath('preview', id);
  }

  /**
   * Link previews no task adopted within LINK_PREVIEW_TTL_MS (the link never became a video):
   * their files leave storage, then their rows. Run by housekeeping; answers how many went.
   */
  async removeStaleLinkPreviews(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - LINK_PREVIEW_TTL_MS);
    const stale = await this.repo.linkPreviewsListedBefore(before);
    for (const preview of stale) {
      await this.storage.delete(preview.storageKey);
      // Unless the link was previewed again meanwhile (its file is then fetched again).
      await this.repo.deleteLinkPreviewListedBefore(preview.userId, preview.id, before);
    }
    return stale.length;
  }

  /**
   * Videos, moments and exports made before thumbnails existed get theirs (the
   * `thumbnail-backfill` job, sent at worker start). Each piece runs as background work, so a
   * user's task or export goes first; a picture that cannot be made is logged and skipped.
   */
  async backfill(background: BackgroundRunner = (work) => work(new AbortController().signal)) {
    const done: BackfillCounts = { videos: 0, moments: 0, posters: 0 };
    const missing = await this.repo.tasksMissingPictures();
    for (const taskId of missing) {
      const task = await this.repo.task(taskId);
      if (!task?.mediaKey) continue;
      const mediaKey = task.mediaKey;
      await background((signal) =>
        this.storage.withLocalFile(
          mediaKey,
          async (file) => {
            const probed = await this.media.probe(file, { signal });
            if (!probed.hasVideo) return this.markFrameless(task.id, 'audio-only');
            if (!task.thumbnailKey) {
              const facts = {
                durationMs: probed.durationMs,
                remoteImage: legacyRemoteImage(task.video),
              };
              const { key, frameless } = await this.videoThumbnail(task, file, facts, signal);
              // Its moments' frames would fail the same way.
              if (frameless) return this.markFrameless(task.id, 'no-frame');
              if (key) {
                // The hot-linked URL goes with the picture that replaces it.
                const video = { ...(task.video as object), thumbnail: null };
                await this.repo.setTaskThumbnail(task.id, key, video);
                done.videos++;
              }
            }
            done.moments += await this.forMoments(task, file, signal);
          },
          { signal },
        ),
      ).catch((error: unknown) => {
        this.log.warn({ err: error, taskId }, 'thumbnail backfill of a video failed');
      });
    }
    const exports = await this.repo.exportsMissingPosters();
    for (const job of exports) {
      const fileKey = job.fileKey!;
      await background((signal) =>
        this.storage.withLocalFile(
          fileKey,
          async (file) => {
            const durationMs =
              job.durationMs ?? (await this.media.probe(file, { signal })).durationMs;
            const key = await this.forExport(job, { mp4File: file, durationMs }, signal);
            if (!key) return;
            await this.repo.setExportPoster(job.id, key);
            done.posters++;
          },
          { signal },
        ),
      ).catch((error: unknown) => {
        this.log.warn({ err: error, jobId: job.id }, 'thumbnail backfill of an export failed');
      });
    }
    if (done.videos || done.moments || done.posters) this.log.info(done, 'thumbnails backfilled');
    return done;
  }

  /** The video's media gives no frame, ever: the backfill passes it (and its moments) by. */
  async markFrameless(taskId: string, reason: FramelessReason): Promise<void> {
    await this.repo.markFrameless(taskId, reason);
  }

  /** The stored key of a video's, moment's or export's picture, whoever asks (signed links). */
  async storedKey(kind: string, id: string): Promise<string> {
    if (!isThumbnailKind(kind) || kind === 'preview' || !isUuid(id)) throw notFound('Thumbnail');
    const key = await this.repo.pictureKey(kind, id);
    if (!key) throw notFound('Thumbnail');
    return key;
  }

  /**
   * The stored key behind `/api/thumbnail/{kind}/{id}` for this requester: the owner's always;
   * a shared moment's and a shared clip's for anyone; anything else is 404.
   */
  async resolve(
    kind: string,
    id: string,
    requesterId: string | null,
  ): Promise<{ key: string; shared: boolean }> {
    const missing = () => notFound('Thumbnail');
    if (!isThumbnailKind(kind)) throw missing();
    if (kind === 'preview') {
      if (!requesterId || !PREVIEW_ID.test(id)) throw missing();
      return { key: previewKey(requesterId, id), shared: false };
    }
    if (!isUuid(id)) throw missing();
    if (kind === 'task') {
      // A shared summary shows its video's picture to its visitors too.
      const row = await this.repo.taskPicture(id);
      if (!row?.key) throw missing();
      if (row.userId === requesterId) return { key: row.key, shared: false };
      if (!row.shareId) throw missing();
      return { key: row.key, shared: true };
    }
    const row = await this.repo.sharedItemPicture(kind, id);
    if (!row?.key) throw missing();
    if (row.userId === requesterId) return { key: row.key, shared: false };
    if (!row.shareId) throw missing();
    return { key: row.key, shared: true };
  }

  private async uploadThumbnailOf(task: TaskRow): Promise<string | null> {
    const video = task.video as { url?: string };
    if (!video.url?.startsWith('upload://')) return null;
    const uploadId = video.url.slice('upload://'.length);
    // No upload row has another kind of id (an imported or seeded source): nothing to reuse.
    if (!isUuid(uploadId)) return null;
    const key = await this.repo.uploadThumbnail(uploadId, task.userId);
    // A picture lost from storage is made again as a frame.
    return key && (await this.storage.stat(key)) ? key : null;
  }

  /**
   * The link preview this user already stored for the same page image becomes the video's
   * thumbnail (no second fetch), and the preview goes: a link that became a video keeps one
   * picture, in the video's folder, removed with the video.
   */
  private async adoptLinkPreview(userId: string, imageUrl: string, key: string) {
    const preview = previewKey(userId, previewId(imageUrl));
    if (!(await this.storage.stat(preview))) return null;
    await this.withScratch(async (file) => {
      await this.storage.withLocalFile(preview, (stored) => fs.copyFile(stored, file));
      await this.storage.putFile(key, file, { move: true });
    });
    await this.storage.delete(preview);
    await this.repo.deleteLinkPreview(userId, previewId(imageUrl));
    return key;
  }

  private async storeFrame(
    sourceFile: string,
    key: string,
    window: { startMs?: number; endMs?: number; durationMs: number },
    signal?: AbortSignal,
  ): Promise<string> {
    return this.withScratch(async (file) => {
      await this.media.thumbnail(sourceFile, file, { ...window, signal });
      await this.storage.putFile(key, file, { move: true });
      return key;
    });
  }

  private async storeRemoteImage(url: string, key: string, signal?: AbortSignal): Promise<string> {
    return this.withScratch(async (file) => {
      const fetched = `${file}.download`;
      try {
        await downloadPublicFile(url, fetched, {
          maxBytes: LINK_IMAGE_MAX_BYTES,
          contentType: IMAGE_TYPES,
          allowHosts: this.options.allowHosts,
          timeoutMs: 15_000,
          signal,
        });
        await this.media.imageThumbnail(fetched, file, { signal });
      } finally {
        await fs.rm(fetched, { force: true });
      }
      await this.storage.putFile(key, file, { move: true });
      return key;
    });
  }

  private async withScratch<T>(work: (file: string) => Promise<T>): Promise<T> {
    await fs.mkdir(this.options.tmpDir, { recursive: true });
    const file = path.join(this.options.tmpDir, `thumbnail-${randomUUID()}.jpg`);
    try {
      return await work(file);
    } finally {
      await fs.rm(file, { force: true });
    }
  }
}
