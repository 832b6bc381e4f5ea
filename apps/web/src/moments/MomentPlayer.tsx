import { ActionIcon, AspectRatio, Box, Center, Group, Slider, Stack, Text } from '@mantine/core';
import {
  IconMaximize,
  IconPlayerPauseFilled,
  IconPlayerPlayFilled,
  IconVideoOff,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatDuration } from '@moments/domain/format';
import { t } from '../messages/catalogue';

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
  const [playing, setPlaying] = useState(false);
  const [muted, setMuted] = useState(false);
  const startSec = span.start / 1000;
  const endSec = span.end / 1000;

  // Seek to the span whenever it changes or a play is requested; play only on request.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const seekAndMaybePlay = () => {
      video.currentTime = startSec;
      setPositionMs(startSec * 1000);
      // Autoplay refused by the browser: the play button stays for the user to press.
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
      cancelAnimationFrame(frame);
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
    // Frames are not painted in a background tab; timeupdate still keeps the span's end.
    const onTimeUpdate = () => {
      if (!video.paused) watch();
    };
    video.addEventListener('play', onPlay);
    video.addEventListener('seeked', onSeeked);
    video.addEventListener('timeupdate', onTimeUpdate);
    return () => {
      cancelAnimationFrame(frame);
      video.removeEventListener('play', onPlay);
      video.removeEventListener('seeked', onSeeked);
      video.removeEventListener('timeupdate', onTimeUpdate);
    };
    // The video element mounts only once its address has loaded: watch it from then on.
  }, [startSec, endSec, span.end, mediaUrl]);

  const lengthMs = Math.max(1, span.end - span.start);
  const intoSpanMs = Math.min(Math.max(positionMs - span.start, 0), lengthMs);

  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    // Play refused (autoplay rules, source not loaded): the button stays as it was.
    if (video.paused) video.play().catch(() => {});
    else video.pause();
  };
  const seekWithinSpan = (offsetMs: number) => {
    const video = videoRef.current;
    if (!video) return;
    video.currentTime = (span.start + Math.min(Math.max(offsetMs, 0), lengthMs)) / 1000;
    setPositionMs(video.currentTime * 1000);
  };

  if (!mediaUrl) {
    return (
      <AspectRatio ratio={16 / 9}>
        <Center bg="dark.6" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
          <Stack align="center" gap={4}>
            <IconVideoOff size={32} color="var(--mantine-color-gray-5)" />
            <Text size="sm" c="gray.4">
              {t('summaries.videoGone')}
            </Text>
          </Stack>
        </Center>
      </AspectRatio>
    );
  }

  // Own controls instead of the browser's: the timeline is the moment's span, not the whole video.
  return (
    <Stack gap={8}>
      <AspectRatio ratio={16 / 9}>
        <Box
          component="video"
          ref={videoRef}
          src={mediaUrl}
          poster={poster ?? undefined}
          playsInline
          preload="metadata"
          muted={muted}
          onClick={togglePlay}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          data-testid="moment-player"
          data-span-start={span.start}
          data-span-end={span.end}
          bg="black"
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            width: '100%',
            height: '100%',
            cursor: 'pointer',
          }}
        />
      </AspectRatio>
      <Group gap="xs" wrap="nowrap">
        <ActionIcon
          variant="filled"
          radius="xl"
          size="lg"
          onClick={togglePlay}
          aria-label={playing ? t('moments.player.pause') : t('moments.player.play')}
        >
          {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
        </ActionIcon>
        <Slider
          style={{ flex: 1 }}
          min={0}
          max={lengthMs}
          step={100}
          value={intoSpanMs}
          onChange={seekWithinSpan}
          label={(value) => formatDuration(value)}
          size="sm"
          thumbLabel={t('moments.player.position')}
        />
        <Text
          size="xs"
          c="dimmed"
          style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
        >
          {formatDuration(intoSpanMs)} / {formatDuration(lengthMs)}
        </Text>
        <ActionIcon
          variant="subtle"
          color="gray"
          onClick={() => setMuted((value) => !value)}
          aria-label={muted ? t('moments.player.unmute') : t('moments.player.mute')}
        >
          {muted ? <IconVolumeOff size={18} /> : <IconVolume size={18} />}
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color="gray"
          onClick={() => videoRef.current?.requestFullscreen?.().catch(() => {})}
          aria-label={t('a11y.fullScreen')}
        >
          <IconMaximize size={18} />
        </ActionIcon>
      </Group>
    </Stack>
  );
}
