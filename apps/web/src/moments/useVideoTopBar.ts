import type { VideoMeta } from '@moments/contract';
import { useMemo } from 'react';
import { useTopBarVideo, type TopBarVideo } from '../layout/topBarVideo';
import { t } from '../messages/catalogue';

/** The top bar's hover-card facts of a video. */
export function topBarVideoOf(video: VideoMeta): TopBarVideo {
  return {
    title: video.title || t('summaries.untitledVideo'),
    thumbnail: video.thumbnail,
    duration: video.duration,
    channel: video.channel_title,
    viewCount: video.view_count,
    platform: video.video_platform,
    publishedAt: video.published_at,
  };
}

/** Moment routes show their video's title (with a hover card) in the top bar. */
export function useVideoTopBar(video: VideoMeta | null | undefined): void {
  const topBar = useMemo(() => (video ? topBarVideoOf(video) : null), [video]);
  useTopBarVideo(topBar);
}
