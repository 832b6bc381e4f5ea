import { randomBytes } from 'node:crypto';
import { thumbnailPath } from '@moments/contract';
import { outputSize, uprightFrameSize } from '@moments/domain/frame';
import type { MediaInfo } from '@moments/media/probe';
import { exportFrameSize } from '../captions/clip-captions.js';
import type { MediaAnalysesRepository } from '../exports/media-analyses.repository.js';
import { AppError, notFound } from '../../http/errors.js';
import type { ClipSharesRepository } from './clip-shares.repository.js';

const SHARE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A shared export as its public page and its preview tags read it. */
export interface SharedClip {
  shareId: string;
  title: string;
  durationMs: number | null;
  /** Key of the MP4 in storage (served only while the share lasts). */
  fileKey: string;
  posterUrl: string | null;
  /** The MP4's frame size when the export fixed it (a reframed aspect), for players and previews. */
  width: number | null;
  height: number | null;
  /** Where it came from: the video's title and the moment's own words, when they still exist. */
  videoTitle: string | null;
  momentText: string | null;
}

const sharedClipPath = (shareId: string) => `/s/${shareId}?clip=1`;
export const sharedClipVideoPath = (shareId: string) => `/api/share/${shareId}/clip.mp4`;

/**
 * An exported MP4 shared as an unlisted page /s/{id}?clip=1 with a player, like shared
 * summaries and notes. Sharing makes a random link; unsharing revokes the page, the MP4 and the
 * poster at once (404).
 */
export class ClipSharesService {
  constructor(
    private readonly repo: ClipSharesRepository,
    /** The sources' stored facts: an `original` export's size is its source's shape. */
    private readonly analyses?: MediaAnalysesRepository,
  ) {}

  async share(userId: string, jobId: unknown): Promise<{ share_id: string; path: string }> {
    const job = await this.repo.ownedExport(userId, jobId);
    if (job.status !== 'DONE' || !job.fileKey) {
      throw new AppError('CONFLICT', 409, 'Only a finished export can be shared.');
    }
    const shareId = job.shareId ?? randomBytes(12).toString('base64url');
    if (!job.shareId) await this.repo.setShareId(job.id, shareId);
    return { share_id: shareId, path: sharedClipPath(shareId) };
  }

  async unshare(userId: string, jobId: unknown): Promise<void> {
    const job = await this.repo.ownedExport(userId, jobId);
    await this.repo.setShareId(job.id, null);
  }

  /** The shared clip, or 404 when the link is unknown or was revoked. */
  async shared(shareId: string): Promise<SharedClip> {
    if (!SHARE_ID.test(shareId)) throw notFound('Shared clip');
    const row = await this.repo.byShareId(shareId);
    const job = row?.job;
    if (!job || job.status !== 'DONE' || !job.fileKey) throw notFound('Shared clip');
    const options = (job.options ?? {}) as { aspect?: string; quality?: string };
    const size = await this.frameSizeOf(options, row.mediaKey);
    return {
      shareId,
      title: job.title || 'Clip',
      durationMs: job.durationMs,
      fileKey: job.fileKey,
      posterUrl: job.posterKey ? thumbnailPath('job', job.id) : null,
      width: size?.width ?? null,
      height: size?.height ?? null,
      videoTitle: row?.videoTitle || null,
      momentText: row?.momentText || null,
    };
  }

  /**
   * The MP4's frame size: a reframed aspect fixes it; an `original` export keeps its source's
   * shape, read from the source's facts kept when it was rendered (null when none were kept).
   */
  private async frameSizeOf(
    options: { aspect?: string; quality?: string },
    mediaKey: string | null,
  ): Promise<{ width: number; height: number } | null> {
    const quality = options.quality === '720p' ? '720p' : '1080p';
    if (options.aspect && /^\d+:\d+$/.test(options.aspect)) {
      return outputSize(options.aspect as `${number}:${number}`, quality);
    }
    if (!mediaKey || !this.analyses) return null;
    const info = await this.analyses.find<MediaInfo>(mediaKey, 'probe', 'source');
    if (!info?.width || !info.height) return null;
    const source = uprightFrameSize(info.width, info.height, info.rotation ?? 0);
    return exportFrameSize('original', quality, source);
  }
}
