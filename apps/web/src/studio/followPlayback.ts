import { skipRemoved, type Span as SourceSpan } from '@moments/domain/cuts';
import type { Span } from './trim';

interface PlaybackHooks {
  /** The muted copies of the video (blurred fill, second pane) that follow the main one. */
  followers(): HTMLVideoElement[];
  trim(): Span;
  /** Source spans the export cuts out: playback jumps over them, as the export does. */
  removed(): readonly SourceSpan[];
  /** Lays out and draws the frame at `timeSec`; `repaint` after a seek. */
  present(timeSec: number, repaint: boolean): void;
  onPlaying(playing: boolean): void;
  onTime(ms: number): void;
}

/**
 * Runs the preview's playback on `video`: every presented frame laid out and drawn, playback
 * kept inside the trim, the copies kept in step. Returns what stops it.
 */
export function followPlayback(video: HTMLVideoElement, hooks: PlaybackHooks): () => void {
  const { followers, trim, present } = hooks;
  let frameRequest = 0;
  const onFrame: VideoFrameRequestCallback = (_now, meta) => {
    present(meta.mediaTime, false);
    const { start, end } = trim();
    const past = skipRemoved(hooks.removed(), meta.mediaTime * 1000);
    if (!video.paused && past !== meta.mediaTime * 1000) video.currentTime = past / 1000;
    if (!video.paused && meta.mediaTime * 1000 >= end) {
      video.pause();
      video.currentTime = start / 1000;
    }
    frameRequest = video.requestVideoFrameCallback(onFrame);
  };
  frameRequest = video.requestVideoFrameCallback(onFrame);

  const onPlay = () => {
    const { start, end } = trim();
    const ms = video.currentTime * 1000;
    if (ms < start - 100 || ms >= end - 50) video.currentTime = start / 1000;
    hooks.onPlaying(true);
    // Best effort: a copy that cannot play (not loaded yet) joins when its metadata comes.
    for (const copy of followers()) void copy.play().catch(() => undefined);
  };
  const onPause = () => {
    hooks.onPlaying(false);
    for (const copy of followers()) copy.pause();
  };
  const onSeeked = () => {
    present(video.currentTime, true);
    for (const copy of followers()) copy.currentTime = video.currentTime;
  };
  const onTimeUpdate = () => {
    hooks.onTime(video.currentTime * 1000);
    for (const copy of followers()) {
      if (Math.abs(copy.currentTime - video.currentTime) > 0.3) {
        copy.currentTime = video.currentTime;
      }
    }
  };
  const onLoaded = () => {
    video.currentTime = trim().start / 1000;
  };
  const listeners = {
    play: onPlay,
    pause: onPause,
    seeked: onSeeked,
    timeupdate: onTimeUpdate,
    loadedmetadata: onLoaded,
  };
  for (const [event, listener] of Object.entries(listeners)) {
    video.addEventListener(event, listener);
  }
  return () => {
    video.cancelVideoFrameCallback(frameRequest);
    for (const [event, listener] of Object.entries(listeners)) {
      video.removeEventListener(event, listener);
    }
  };
}
