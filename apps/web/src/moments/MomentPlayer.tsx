import { AspectRatio, Box, Center, Group, Progress, Stack, Text } from '@mantine/core';
import { IconVideoOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatDuration } from '@moments/domain/format';

export interface PlayerSpan {
  /** ms */
  start: number;
  /** ms */
  end: number;
}

/**
 * The source video limited to one moment's span: it starts at the span's start, pauses at its
 * end, and a play from outside the span starts the span again.
 * `playRequest` changes (e.g. a counter) when the user asks to play the span from its start.
 */
export function MomentPlayer({
  mediaUrl,
  span,
  playRequest = 0,
  poster,
}: {
  mediaUrl: string | null | undefined;
  span: PlayerSpan;
  playRequest?: number;
  poster?: string | null;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [positionMs, setPositionMs] = useState(span.start);
  const startSec = span.start / 1000;
  const endSec = span.end / 1000;

  // Seek to the span whenever it changes or a play is requested; play only on request.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const seekAndMaybePlay = () => {
      video.currentTime = startSec;
      setPositionMs(startSec * 1000);
      if (playRequest > 0) video.play().catch(() => {});
    };
    if (video.readyState >= HTMLMediaElement.HAVE_METADATA) seekAndMaybePlay();
    else {
      video.addEventListener('loadedmetadata', seekAndMaybePlay, { once: true });
      return () => video.removeEventListener('loadedmetadata', seekAndMaybePlay);
    }
  }, [startSec, playRequest, mediaUrl]);

  // Pause exactly at the end: timeupdate fires only every ~250 ms, so watch frames while playing.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let frame = 0;
    const watch = () => {
      // Rounded to 0.1 s so React re-renders a few times a second, not every frame.
      setPositionMs(Math.round(video.currentTime * 10) * 100);
      if (video.currentTime >= endSec) {
        video.pause();
        video.currentTime = endSec;
        setPositionMs(span.end);
        return;
      }
      if (!video.paused) frame = requestAnimationFrame(watch);
    };
    const onPlay = () => {
      // Playing from outside the span (after it ended, or after seeking away) restarts the span.
      if (video.currentTime < startSec - 0.3 || video.currentTime >= endSec - 0.05) {
        video.currentTime = startSec;
      }
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(watch);
    };
    const onSeeked = () => setPositionMs(video.currentTime * 1000);
    video.addEventListener('play', onPlay);
    video.addEventListener('seeked', onSeeked);
    return () => {
      cancelAnimationFrame(frame);
      video.removeEventListener('play', onPlay);
      video.removeEventListener('seeked', onSeeked);
    };
  }, [startSec, endSec, span.end]);

  const lengthMs = Math.max(1, span.end - span.start);
  const intoSpanMs = Math.min(Math.max(positionMs - span.start, 0), lengthMs);

  return (
    <Stack gap={6}>
      <AspectRatio ratio={16 / 9}>
        {mediaUrl ? (
          <Box
            component="video"
            ref={videoRef}
            src={mediaUrl}
            poster={poster ?? undefined}
            controls
            playsInline
            preload="metadata"
            data-testid="moment-player"
            data-span-start={span.start}
            data-span-end={span.end}
            bg="black"
            style={{ borderRadius: 'var(--mantine-radius-md)', width: '100%', height: '100%' }}
          />
        ) : (
          <Center bg="dark.6" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
            <Stack align="center" gap={4}>
              <IconVideoOff size={32} color="var(--mantine-color-gray-5)" />
              <Text size="sm" c="gray.4">
                The video file is no longer available.
              </Text>
            </Stack>
          </Center>
        )}
      </AspectRatio>
      <Progress
        value={(intoSpanMs / lengthMs) * 100}
        size="sm"
        aria-label="Position within the moment"
      />
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          {formatDuration(intoSpanMs)} / {formatDuration(lengthMs)}
        </Text>
        <Text size="xs" c="dimmed">
          plays {formatDuration(span.start)} – {formatDuration(span.end)} of the video
        </Text>
      </Group>
    </Stack>
  );
}
