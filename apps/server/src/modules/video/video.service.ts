import type { VideoMeta } from '@moments/contract';
import { normalizeVideoUrl } from '@moments/domain/links';
import type { VideoMetadata } from '@moments/media/ingest';
import type { MediaRepository } from '../media/media.repository.js';
import type { ThumbnailsService } from '../thumbnails/thumbnails.service.js';

const toVideoMeta = (url: string, m: VideoMetadata): VideoMeta => ({
  url,
  title: m.title,
  thumbnail: null,
  duration: m.durationMs == null ? null : m.durationMs / 1000,
  video_platform: m.videoPlatform,
  channel_title: m.channelTitle,
  view_count: m.viewCount,
  published_at: m.publishedAt,
});

/** A link's video metadata without downloading the video. */
export class VideoService {
  constructor(
    private readonly media: MediaRepository,
    private readonly thumbnails: ThumbnailsService,
    /** MEDIA_FETCH_ALLOW_HOSTS: the link guard's allow-list. */
    private readonly allowHosts: string[],
  ) {}

  async metadataFor(userId: string, link: string, signal: AbortSignal): Promise<VideoMeta> {
    const url = normalizeVideoUrl(link);
    const metadata = await this.media.fetchMetadata(url, {
      allowHosts: this.allowHosts,
      signal,
      timeoutMs: 60_000,
    });
    // The page's image is fetched and stored here, so no browser loads it from the site.
    const thumbnail = await this.thumbnails.linkPreview(userId, metadata.thumbnail, signal);
    return { ...toVideoMeta(url, metadata), thumbnail };
  }
}
