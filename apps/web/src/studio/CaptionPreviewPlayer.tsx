import { ActionIcon, Alert, Group, Loader, Text } from '@mantine/core';
import type { CaptionPreview, ClipFraming, ExportLayout } from '@moments/contract';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { CaptionOverlay, type CaptionDocument } from './captionOverlay';
import { cropAtVideoTime, cropStyle } from './framing';
import { formatClock, type Span } from './trim';
import classes from './studio.module.css';

export interface PreviewPlayerHandle {
  /** Shows the frame at source time `ms` (paused). */
  seek(ms: number): void;
}

interface Props {
  mediaUrl: string;
  /** The caption document to draw; undefined while the first one loads. */
  preview: CaptionPreview | undefined;
  /** The export frame (width x height); the preview area takes its shape. */
  frame: { width: number; height: number };
  layout: ExportLayout;
  /**
   * The export's own framing plan for this frame shape (POST /api/captions/framing); undefined
   * while it is made, when the preview shows a centred crop (or the blurred fit, if asked for).
   */
  framing: ClipFraming | undefined;
  /** The framing plan is being made (face analysis takes a few seconds). */
  analysing: boolean;
  trim: Span;
  ref?: Ref<PreviewPlayerHandle>;
}

/** How the preview frames the picture right now. */
type Presentation = 'crop' | 'blur_fit' | 'centre';

const CROP_PROPERTIES = ['width', 'height', 'transform'] as const;

type OverlayState = 'waiting' | 'loading' | 'ready' | 'failed';

const toDocument = (preview: CaptionPreview): CaptionDocument => ({
  ass: preview.ass,
  width: preview.width,
  height: preview.height,
  startMs: preview.start_ms,
  fonts: preview.fonts,
});

/**
 * The source video framed to the export's shape with the captions drawn over it by libass in the
 * browser. The framing is the exporter's plan: on every presented frame the video is moved and
 * scaled so exactly the plan's crop window at that time fills the frame (the same linear path
 * ffmpeg's crop follows), or the whole picture sits over a blurred copy (blur_fit). The caption
 * canvas covers the frame and is not affected by the crop.
 */
export function CaptionPreviewPlayer({
  mediaUrl,
  preview,
  frame,
  layout,
  framing,
  analysing,
  trim,
  ref,
}: Props) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const backdropRef = useRef<HTMLVideoElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const overlayRef = useRef<CaptionOverlay | null>(null);
  const trimRef = useRef(trim);
  const previewRef = useRef(preview);
  const framingRef = useRef<ClipFraming | undefined>(undefined);
  const [overlayState, setOverlayState] = useState<OverlayState>('waiting');
  const [documentsDrawn, setDocumentsDrawn] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [timeMs, setTimeMs] = useState(trim.start);

  useEffect(() => {
    trimRef.current = trim;
    previewRef.current = preview;
  });

  const presentation: Presentation = framing
    ? framing.layout
    : layout === 'blur_fit'
      ? 'blur_fit'
      : 'centre';

  // A new plan (or none) frames the frame on screen at once, even paused.
  useEffect(() => {
    framingRef.current = framing?.layout === 'crop' ? framing : undefined;
    const video = videoRef.current;
    if (video) applyCrop(video, framingRef.current, video.currentTime);
  }, [framing]);

  const currentSec = () => videoRef.current?.currentTime ?? trimRef.current.start / 1000;

  useImperativeHandle(ref, () => ({
    seek(ms: number) {
      const video = videoRef.current;
      if (!video) return;
      video.pause();
      video.currentTime = ms / 1000;
      setTimeMs(ms);
    },
  }));

  // The renderer starts with the first document and lives as long as the player.
  const hasPreview = preview !== undefined;
  useEffect(() => {
    const host = hostRef.current;
    const first = previewRef.current;
    if (!hasPreview || !host || !first) return;
    // A fresh canvas each time: a canvas can hand its drawing to a worker only once.
    const canvas = document.createElement('canvas');
    canvas.className = classes.captions ?? '';
    canvas.dataset.testid = 'caption-canvas';
    host.append(canvas);
    let overlay: CaptionOverlay;
    try {
      overlay = new CaptionOverlay(canvas, toDocument(first));
    } catch {
      canvas.remove();
      setOverlayState('failed');
      return;
    }
    overlayRef.current = overlay;
    setOverlayState('loading');
    let alive = true;
    overlay.ready.then(
      async () => {
        if (!alive) return;
        await overlay.render(currentSec(), true);
        setOverlayState('ready');
      },
      () => alive && setOverlayState('failed'),
    );
    return () => {
      alive = false;
      overlayRef.current = null;
      void overlay.destroy();
      canvas.remove();
    };
  }, [hasPreview]);

  // Every new document (template, trim, aspect, text) replaces the track and redraws the frame.
  useEffect(() => {
    const overlay = overlayRef.current;
    if (!overlay || !preview) return;
    let alive = true;
    overlay
      .setDocument(toDocument(preview))
      .then(() => alive && setDocumentsDrawn((count) => count + 1))
      .catch(() => alive && setOverlayState('failed'));
    return () => {
      alive = false;
    };
  }, [preview, overlayState]);

  // Draw on every presented frame; keep playback inside the trim and the backdrop in step.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const draw = (timeSec: number, repaint = false) => {
      void overlayRef.current?.render(timeSec, repaint).catch(() => undefined);
    };
    let frameRequest = 0;
    const onFrame: VideoFrameRequestCallback = (_now, meta) => {
      applyCrop(video, framingRef.current, meta.mediaTime);
      draw(meta.mediaTime);
      const { start, end } = trimRef.current;
      if (!video.paused && meta.mediaTime * 1000 >= end) {
        video.pause();
        video.currentTime = start / 1000;
      }
      frameRequest = video.requestVideoFrameCallback(onFrame);
    };
    frameRequest = video.requestVideoFrameCallback(onFrame);

    const backdrop = () => backdropRef.current;
    const onPlay = () => {
      const { start, end } = trimRef.current;
      const ms = video.currentTime * 1000;
      if (ms < start - 100 || ms >= end - 50) video.currentTime = start / 1000;
      setPlaying(true);
      void backdrop()
        ?.play()
        .catch(() => undefined);
    };
    const onPause = () => {
      setPlaying(false);
      backdrop()?.pause();
    };
    const onSeeked = () => {
      applyCrop(video, framingRef.current, video.currentTime);
      draw(video.currentTime, true);
      const copy = backdrop();
      if (copy) copy.currentTime = video.currentTime;
    };
    const onTimeUpdate = () => {
      setTimeMs(video.currentTime * 1000);
      const copy = backdrop();
      if (copy && Math.abs(copy.currentTime - video.currentTime) > 0.3) {
        copy.currentTime = video.currentTime;
      }
    };
    const onLoaded = () => {
      video.currentTime = trimRef.current.start / 1000;
    };
    video.addEventListener('play', onPlay);
    video.addEventListener('pause', onPause);
    video.addEventListener('seeked', onSeeked);
    video.addEventListener('timeupdate', onTimeUpdate);
    video.addEventListener('loadedmetadata', onLoaded);
    return () => {
      video.cancelVideoFrameCallback(frameRequest);
      video.removeEventListener('play', onPlay);
      video.removeEventListener('pause', onPause);
      video.removeEventListener('seeked', onSeeked);
      video.removeEventListener('timeupdate', onTimeUpdate);
      video.removeEventListener('loadedmetadata', onLoaded);
    };
  }, []);

  // A backdrop that appears mid-play (the plan turned out blur_fit) joins the main video.
  const syncBackdrop = () => {
    const video = videoRef.current;
    const copy = backdropRef.current;
    if (!video || !copy) return;
    copy.currentTime = video.currentTime;
    if (!video.paused) void copy.play().catch(() => undefined);
  };

  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) void video.play().catch(() => undefined);
    else video.pause();
  };

  const ratio = frame.width / frame.height;
  const clipMs = trim.end - trim.start;
  const positionMs = Math.min(Math.max(timeMs - trim.start, 0), clipMs);

  return (
    <div>
      <div
        ref={hostRef}
        className={classes.frame}
        style={{
          aspectRatio: `${frame.width} / ${frame.height}`,
          width: `min(100%, calc(60vh * ${ratio}))`,
        }}
        data-testid="clip-preview"
        data-caption-state={overlayState}
        data-caption-documents={documentsDrawn}
        data-frame={`${frame.width}x${frame.height}`}
        data-framing={presentation}
        onClick={togglePlay}
      >
        {presentation === 'blur_fit' && (
          <video
            ref={backdropRef}
            onLoadedMetadata={syncBackdrop}
            className={`${classes.video} ${classes.backdrop}`}
            src={mediaUrl}
            muted
            playsInline
            preload="auto"
            aria-hidden
          />
        )}
        <video
          ref={videoRef}
          className={classes.video}
          style={{
            objectFit:
              presentation === 'blur_fit' ? 'contain' : presentation === 'crop' ? 'fill' : 'cover',
          }}
          src={mediaUrl}
          playsInline
          preload="auto"
          aria-label="Clip preview"
          data-testid="clip-video"
        />
        {analysing && (
          <div className={classes.framingBadge} role="status">
            <Loader size={12} color="white" /> Analysing framing…
          </div>
        )}
      </div>
      <Group justify="center" gap="sm" mt="xs">
        <ActionIcon
          variant="filled"
          radius="xl"
          size="lg"
          onClick={togglePlay}
          aria-label={playing ? 'Pause preview' : 'Play preview'}
        >
          {playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
        </ActionIcon>
        <Text size="sm" ff="monospace" aria-label="Preview position">
          {formatClock(positionMs)} / {formatClock(clipMs)}
        </Text>
        {overlayState === 'loading' && (
          <Loader size="xs" role="status" aria-label="Loading captions" />
        )}
      </Group>
      {overlayState === 'failed' && (
        <Alert color="yellow" mt="xs" title="Caption preview unavailable">
          This browser cannot run the caption renderer (WebAssembly and OffscreenCanvas are needed).
          The export still gets its captions.
        </Alert>
      )}
    </div>
  );
}

/**
 * Moves and scales the video so the plan's crop window at `videoSec` fills the frame, or clears
 * that when there is no crop plan. Written to the element directly: it runs on every frame.
 */
function applyCrop(video: HTMLVideoElement, framing: ClipFraming | undefined, videoSec: number) {
  const rect = framing ? cropAtVideoTime(framing, videoSec) : null;
  if (!framing || !rect) {
    for (const property of CROP_PROPERTIES) video.style.removeProperty(property);
    delete video.dataset.crop;
    return;
  }
  const style = cropStyle(rect, framing.source);
  for (const property of CROP_PROPERTIES) video.style.setProperty(property, style[property]);
  video.dataset.crop = [rect.x, rect.y, rect.w, rect.h].map((value) => Math.round(value)).join(',');
}
