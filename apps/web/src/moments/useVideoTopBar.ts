import type { VideoMeta } from '@moments/contract';
import { useMemo } from 'react';
import { useTopBarVideo } from '../layout/topBarVideo';

/** spec §2: moment routes show their video's title (with a hover card) in the top bar. */
export function useVideoTopBar(video: VideoMeta | null | undefined): void {
  const topBar = useMemo(
    () =>
      video
        ? {
            title: video.title || 'Untitled video',
            thumbnail: video.thumbnail,
            duration: video.duration,
            channel: video.channel_title,
            viewCount: video.view_count,
            platform: video.video_platform,
            publishedAt: video.published_at,
          }
        : null,
    [video],
  );
  useTopBarVideo(topBar);
}
