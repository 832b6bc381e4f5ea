import path from 'node:path';
import { UPLOAD_URL_PREFIX, type VideoMeta } from '@moments/contract';
import { resolveMediaUrl } from '@moments/net';
import { AppError } from '../../http/errors.js';
import type { Storage } from '../../storage/index.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { UploadsRepository } from '../uploads/uploads.repository.js';
import type { TaskRow } from './task-mapper.js';

export interface FetchedMedia {
  mediaKey: string;
  meta: Partial<VideoMeta>;
  /** The link page's preview image (og:image): fetched and stored by the server, never shown as is. */
  remoteImage?: string | null;
}

/** Gets a task's media into storage: an upload is already there, a link is downloaded. */
export interface MediaFetcher {
  fetch(
    task: TaskRow,
    workDir: string,
    opts: { signal: AbortSignal; onProgress: (fraction: number) => void },
  ): Promise<FetchedMedia>;
}

export interface LinkFetcherOptions {
  allowHosts: string[];
  /** Processing resolution cap: clips are reframed to at most 1080p anyway. */
  maxHeight: number;
}

export class StorageMediaFetcher implements MediaFetcher {
  constructor(
    private readonly uploads: UploadsRepository,
    private readonly media: MediaRepository,
    private readonly storage: Storage,
    private readonly options: LinkFetcherOptions,
  ) {}

  async fetch(
    task: TaskRow,
    workDir: string,
    opts: { signal: AbortSignal; onProgress: (fraction: number) => void },
  ): Promise<FetchedMedia> {
    const video = task.video as VideoMeta;
    if (video.url.startsWith(UPLOAD_URL_PREFIX)) {
      const uploadId = video.url.slice(UPLOAD_URL_PREFIX.length);
      const upload = await this.uploads.findOfUser(task.userId, uploadId);
      if (!upload)
        throw new AppError('NOT_FOUND', 404, 'The uploaded file is no longer available.');
      opts.onProgress(1);
      return { mediaKey: upload.storageKey, meta: {} };
    }

    // Checked again here, not only at task start: DNS answers can change in between.
    const resolved = await resolveMediaUrl(video.url, {
      allowHosts: this.options.allowHosts,
      signal: opts.signal,
    });
    const downloaded = await this.media.download(resolved.finalUrl, workDir, {
      maxHeight: this.options.maxHeight,
      signal: opts.signal,
      onProgress: opts.onProgress,
      allowHosts: this.options.allowHosts,
    });
    const extension = path.extname(downloaded.file).toLowerCase() || '.mp4';
    const mediaKey = `users/${task.userId}/tasks/${task.id}/source${extension}`;
    await this.storage.putFile(mediaKey, downloaded.file, { move: true });
    const m = downloaded.metadata;
    // Facts come from what the server fetched itself, never from the client; the page's image
    // is only a source for the thumbnail the server stores (never hot-linked).
    return {
      mediaKey,
      remoteImage: m.thumbnail,
      meta: {
        title: video.title || m.title || '',
        duration: m.durationMs != null ? m.durationMs / 1000 : video.duration,
        channel_title: m.channelTitle,
        view_count: m.viewCount,
        published_at: m.publishedAt,
      },
    };
  }
}
