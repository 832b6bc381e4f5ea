import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  ERROR_CODES,
  ERROR_STATUS,
  UPLOAD_URL_PREFIX,
  type ErrorCode,
  type UploadedVideoMeta,
} from '@moments/contract';
import { MediaError } from '@moments/media/errors';
import { AppError } from '../../http/errors.js';
import type { FileUrls, Storage } from '../../storage/index.js';
import {
  MEASURED_PROBE,
  type MediaAnalysesRepository,
} from '../exports/media-analyses.repository.js';
import type { MediaRepository } from '../media/media.repository.js';
import { safeDisplayName, titleFromFileName } from './display-name.js';
import type { UploadLimitsGuard } from './upload-limits.js';
import type { UploadRow, UploadsRepository } from './uploads.repository.js';

/** Presigned S3 links live at most 7 days; the task page asks again when it needs a fresh one. */
const THUMBNAIL_URL_TTL_SEC = 7 * 24 * 3600;

// What was wrong with the file the user gave: a 400 with the media layer's code.
const USER_FILE_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.UNSUPPORTED_EXTENSION,
  ERROR_CODES.EMPTY_FILE,
  ERROR_CODES.NOT_A_VIDEO,
  ERROR_CODES.VIDEO_FRAME_TOO_LARGE,
  ERROR_CODES.CORRUPT_MEDIA,
]);

export interface IngestInput {
  userId: string;
  /** The id the stored files and row get (the tus id for resumable uploads). */
  uploadId?: string;
  /** The received file; consumed (moved into storage or removed) whatever the outcome. */
  file: string;
  /** As the client sent it: only ever shown, never used as a path. */
  originalName: string;
}

/** Turns a received file into a stored, validated upload with its video meta. */
export class UploadsService {
  constructor(
    private readonly repo: UploadsRepository,
    private readonly media: MediaRepository,
    private readonly storage: Storage,
    private readonly fileUrls: FileUrls,
    /** Scratch folder for thumbnails, on the same disk as received files (DATA_DIR/tmp). */
    private readonly tmpDir: string,
    /** The plan's storage quota, checked against the received bytes before they are stored. */
    private readonly limits?: UploadLimitsGuard,
    /** What was measured of an upload's file, removed with it. */
    private readonly analyses?: MediaAnalysesRepository,
  ) {}

  async ingest(input: IngestInput): Promise<UploadedVideoMeta> {
    const uploadId = input.uploadId ?? randomUUID();
    const displayName = safeDisplayName(input.originalName);
    const thumbnailFile = path.join(this.tmpDir, `${uploadId}-thumbnail.jpg`);
    const folder = uploadFolder(input.userId, uploadId);
    let stored = false;
    let early: { headerMs: number; taken: Promise<boolean> } | undefined;
    try {
      // The real bytes, whatever length the request declared when it started.
      await this.limits?.assertFits(input.userId, (await fs.stat(input.file)).size);
      const info = await this.media
        .validateUpload(input.file, displayName, {
          // The picture is taken beside the read of every packet, over the length the header
          // states, instead of after it.
          onHeader: ({ durationMs: headerMs }) => {
            if (headerMs <= 0) return;
            const taken = this.media
              .thumbnail(input.file, thumbnailFile, { durationMs: headerMs })
              .then(
                () => true,
                () => false,
              );
            early = { headerMs, taken };
          },
        })
        .catch(asUserFileError);
      // Kept when the header told the length (a second apart is rounding): the same window.
      // Otherwise, or when it failed, a frame worth looking at over the real length: not the
      // black first frame or a fade-in.
      const kept =
        early !== undefined &&
        Math.abs(early.headerMs - info.durationMs) <= 1000 &&
        (await early.taken);
      if (!kept) {
        await early?.taken;
        await this.media
          .thumbnail(input.file, thumbnailFile, { durationMs: info.durationMs })
          .catch(asUserFileError);
      }
      const extension = path.extname(displayName).slice(1).toLowerCase();
      const storageKey = `${folder}source.${extension}`;
      const thumbnailKey = `${folder}thumbnail.jpg`;
      stored = true;
      await this.storage.putFile(storageKey, input.file, { move: true });
      await this.storage.putFile(thumbnailKey, thumbnailFile, { move: true });
      const row = await this.repo.insert({
        id: uploadId,
        userId: input.userId,
        storageKey,
        originalName: displayName,
        sizeBytes: info.sizeBytes,
        durationMs: info.durationMs,
        width: info.width ?? null,
        height: info.height ?? null,
        thumbnailKey,
      });
      // Its task reads these instead of reading every packet of the same stored file again.
      await this.analyses?.save(storageKey, 'probe', MEASURED_PROBE, info);
      return this.videoMeta(row);
    } catch (error) {
      // Best effort: the user sees the original error; a folder left behind costs disk only.
      if (stored) await this.storage.deletePrefix(folder).catch(() => undefined);
      throw error;
    } finally {
      // A refused file's early picture is done writing before its scratch copy goes.
      await early?.taken;
      await fs.rm(input.file, { force: true });
      await fs.rm(thumbnailFile, { force: true });
    }
  }

  /** An upload's video meta for its owner; another user's id is a 404 like a missing one. */
  async getVideoMeta(userId: string, uploadId: string): Promise<UploadedVideoMeta> {
    return this.videoMeta(await this.repo.findOwned(userId, uploadId));
  }

  /**
   * Deletes an upload for good: its row, its stored file and thumbnail (local or S3), and what
   * was measured of it. Refused with 409 UPLOAD_IN_USE while a task still reads it; finished
   * tasks made from it keep their transcript, moments and exports, and a new export of them
   * ends with a clear error (its source is gone). Another user's id answers 404.
   */
  async delete(userId: string, uploadId: string): Promise<void> {
    const row = await this.repo.findOwned(userId, uploadId);
    if (await this.repo.isReadByRunningTask(userId, `${UPLOAD_URL_PREFIX}${row.id}`)) {
      throw new AppError(
        ERROR_CODES.UPLOAD_IN_USE,
        409,
        'A task is still processing this video. Delete the upload once it has finished, or delete the task first.',
      );
    }
    await this.repo.remove(row.id);
    await this.storage.deletePrefix(uploadFolder(userId, row.id));
    await this.analyses?.deleteForMedia(row.storageKey);
  }

  /** The video metadata, passed back as the task start body. */
  async videoMeta(row: UploadRow): Promise<UploadedVideoMeta> {
    return {
      id: row.id,
      url: `${UPLOAD_URL_PREFIX}${row.id}`,
      title: titleFromFileName(row.originalName),
      thumbnail: row.thumbnailKey
        ? await this.fileUrls.signFileUrl(row.thumbnailKey, { expiresInSec: THUMBNAIL_URL_TTL_SEC })
        : null,
      duration: row.durationMs === null ? null : row.durationMs / 1000,
      video_platform: 'upload',
      channel_title: null,
      view_count: null,
      published_at: Math.floor(row.createdAt.getTime() / 1000),
    };
  }
}

const uploadFolder = (userId: string, uploadId: string) => `users/${userId}/uploads/${uploadId}/`;

function asUserFileError(error: unknown): never {
  if (error instanceof MediaError && USER_FILE_CODES.has(error.code)) {
    throw new AppError(
      error.code as ErrorCode,
      ERROR_STATUS[error.code as ErrorCode],
      error.message,
    );
  }
  throw error;
}
