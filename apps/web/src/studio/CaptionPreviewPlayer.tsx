import type { CaptionPreview, ClipFraming, ExportLayout } from '@moments/contract';
import { Loader } from '@mantine/core';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { cropStyle, frameViewAt } from './framing';
import { followPlayback } from './followPlayback';
import { cutTimeOf, keptOf } from '@moments/domain/cuts';
import { PlayerControls } from './PlayerControls';
import type { Span } from './trim';
import { useCaptionRenderer } from './useCaptionRenderer';
import classes from './studio.module.css';
import { t } from '../messages/catalogue';

export interface PreviewPlayerHandle {
  /** Shows the frame at source time `ms` (paused). */
  seek(ms: number): void;
}

interface Props {
  mediaUrl: string;
  /** A picture of the clip shown before the video's first frame (the moment's thumbnail). */
  poster?: string | null;
  /** The caption document to draw; undefined while the first one loads. */
  preview: CaptionPreview | undefined;
  /** The export frame (width x height); the preview area takes its shape. */
  frame: { width: number; height: number };
  layout: ExportLayout;
  /**
   * The export's own framing plan for this frame shape (POST /api/captions/framing); undefined
   * while it is made, when the preview shows a centred crop (or the whole frame, for `fit`).
   */
  framing: ClipFraming | undefined;
  /** The framing plan is being made (face analysis takes a few seconds). */
  analysing: boolean;
  trim: Span;
  /** The platform's safe zone, in frame pixels, outlined over the preview when given. */
  safeZone?: { x: number; y: number; w: number; h: number } | null;
  ref?: Ref<PreviewPlayerHandle>;
}

/** How the preview frames the picture: the plan's layout, or a stand-in while it is made. */
type Presentation = ClipFraming['layout'] | 'centre';

const CROP_PROPERTIES = ['width', 'height', 'transform'] as const;
const BOX_PROPERTIES = ['left', 'top', 'width', 'height'] as const;

/**
 * The source video framed to the export's shape with the captions drawn over it by libass in the
 * browser. The framing is the exporter's plan: on every presented frame the segment of that time
 * is laid out as the export's filter graph lays it out: each pane (one for a close-up, two for
 * two people or a slide above its speaker) shows a copy of the video moved and scaled so exactly
 * the plan's window at that time fills it (the same linear path ffmpeg's crop follows), over a
 * blurred copy of the whole picture where the segment has one. The caption canvas covers the
 * frame and is not affected by the layout.
 */
export function CaptionPreviewPlayer({
  mediaUrl,
  poster,
  preview,
  frame,
  layout,
  framing,
  analysing,
  trim,
  safeZone,
  ref,
}: Props) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const backdropRef = useRef<HTMLVideoElement>(null);
  const secondRef = useRef<HTMLVideoElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const trimRef = useRef(trim);
  const removedRef = useRef<{ startMs: number; endMs: number }[]>([]);
  const frameRef = useRef(frame);
  const framingRef = useRef<ClipFraming | undefined>(undefined);
  const wholeFrameRef = useRef(false);
  const [playing, setPlaying] = useState(false);
  const [timeMs, setTimeMs] = useState(trim.start);
  // The first picture and the first caption document take seconds on a first open: until both
  // are drawn the frame says it is loading instead of staying blank.
  const [pictureShown, setPictureShown] = useState(false);

  useEffect(() => {
    trimRef.current = trim;
    frameRef.current = frame;
    removedRef.current = removedOf(preview);
  });
  // The source loads from the clip's start (a media fragment), so its first frame shows without
  // a seek after the metadata; the moment's own frame stands in until then.
  const [sourceUrl] = useState(
    () => `${mediaUrl.split('#')[0]}#t=${(trim.start / 1000).toFixed(2)}`,
  );

  const wholeFrame = layout === 'fit' || layout === 'blur_fit';
  const presentation: Presentation = framing ? framing.layout : wholeFrame ? 'blur_fit' : 'centre';
  // The copies of the video the plan needs: a blurred fill, a second pane.
  const needsBackdrop = framing ? framing.segments.some((s) => s.backdrop) : wholeFrame;
  const needsSecond = framing ? framing.segments.some((s) => s.panes.length > 1) : false;
  const elements = (): PlayerElements => ({
    host: hostRef.current,
    main: videoRef.current,
    second: secondRef.current,
    backdrop: backdropRef.current,
  });

  // A new plan (or none) frames the frame on screen at once, even paused.
  useEffect(() => {
    framingRef.current = framing;
    wholeFrameRef.current = wholeFrame;
    const video = videoRef.current;
    if (video) applyView(elements(), framing, video.currentTime, wholeFrame);
  });

  const { overlayRef, overlayState, documentsDrawn } = useCaptionRenderer({
    hostRef,
    frameRef,
    trimRef,
    videoRef,
    preview,
  });

  useImperativeHandle(ref, () => ({
    seek(ms: number) {
      const video = videoRef.current;
      if (!video) return;
      video.pause();
      video.currentTime = ms / 1000;
      setTimeMs(ms);
    },
  }));

  // Draw on every presented frame; keep playback inside the trim and the copies in step.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    return followPlayback(video, {
      // The muted copies (blurred fill, second pane) follow the main video.
      followers: () => [backdropRef.current, secondRef.current].filter((copy) => copy !== null),
      trim: () => trimRef.current,
      removed: () => removedRef.current,
      present: (timeSec, repaint) => {
        applyView(elements(), framingRef.current, timeSec, wholeFrameRef.current);
        // Best effort: a frame the renderer misses is drawn again on the next one.
        void overlayRef.current?.render(timeSec, repaint).catch(() => undefined);
      },
      onPlaying: setPlaying,
      onTime: setTimeMs,
    });
    // overlayRef is the renderer's ref, stable for the player's life: the loop starts once.
  }, [overlayRef]);

  // A copy that appears mid-play (the plan turned out to need it) joins the main video.
  const joinMain = (copy: HTMLVideoElement | null) => {
    const video = videoRef.current;
    if (!video || !copy) return;
    copy.currentTime = video.currentTime;
    // Best effort: a copy that cannot play yet joins when its metadata comes.
    if (!video.paused) void copy.play().catch(() => undefined);
  };

  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    // Play refused (autoplay rules, source not loaded): the button stays as it was.
    if (video.paused) void video.play().catch(() => undefined);
    else video.pause();
  };

  const ratio = frame.width / frame.height;
  // Times shown are the cut clip's, as the export plays them.
  const kept = keptOfPreview(preview, trim);
  const clipMs = preview?.duration_ms ?? trim.end - trim.start;
  const positionMs = Math.min(Math.max(cutTimeOf(kept, timeMs), 0), clipMs);

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
        {needsBackdrop && (
          <video
            ref={backdropRef}
            onLoadedMetadata={() => joinMain(backdropRef.current)}
            className={`${classes.video} ${classes.backdrop}`}
            src={sourceUrl}
            muted
            playsInline
            preload="auto"
            aria-hidden
          />
        )}
        <div className={classes.pane} data-testid="clip-pane">
          <video
            ref={videoRef}
            className={classes.video}
            src={sourceUrl}
            poster={poster ?? undefined}
            playsInline
            preload="auto"
            aria-label={t('studio.preview')}
            data-testid="clip-video"
            onLoadedData={() => setPictureShown(true)}
          />
        </div>
        {needsSecond && (
          <div className={classes.pane} data-testid="clip-pane">
            <video
              ref={secondRef}
              onLoadedMetadata={() => joinMain(secondRef.current)}
              className={classes.video}
              src={sourceUrl}
              muted
              playsInline
              preload="auto"
              aria-hidden
            />
          </div>
        )}
        <PreviewLogo logo={preview?.logo} frame={preview} />
        <PreviewLoading
          shown={
            !pictureShown ||
            overlayState === 'loading' ||
            (overlayState === 'started' && documentsDrawn === 0)
          }
        />
        <SafeZoneOverlay zone={safeZone} frame={frame} />
        {analysing && (
          <div className={classes.framingBadge} role="status" data-testid="framing-analysing">
            <Loader size={12} color="white" /> {t('studio.preview.analysing')}
          </div>
        )}
      </div>
      <PlayerControls
        playing={playing}
        onToggle={togglePlay}
        positionMs={positionMs}
        clipMs={clipMs}
        overlayState={overlayState}
      />
    </div>
  );
}

/** The elements a frame of the preview is laid out on. */
interface PlayerElements {
  host: HTMLDivElement | null;
  main: HTMLVideoElement | null;
  second: HTMLVideoElement | null;
  backdrop: HTMLVideoElement | null;
}

/**
 * Lays out the frame at `videoSec` as the plan has it (see frameViewAt): each pane's box, and
 * its video moved and scaled so the pane's window fills it; or, without a plan, the whole video
 * centred (cropped to fill, or fitted when the whole frame was asked for). Written to the
 * elements directly: it runs on every frame.
 */
function applyView(
  elements: PlayerElements,
  framing: ClipFraming | undefined,
  videoSec: number,
  wholeFrame: boolean,
) {
  const { host, main, second, backdrop } = elements;
  if (!main) return;
  const view = framing ? frameViewAt(framing, videoSec) : null;
  const videos = [main, second];
  videos.forEach((video, index) => {
    const pane = video?.parentElement;
    if (!video || !pane) return;
    const shown = view?.panes[index];
    pane.style.display = view && !shown ? 'none' : '';
    if (!framing || !shown) {
      for (const property of BOX_PROPERTIES) pane.style.removeProperty(property);
      for (const property of CROP_PROPERTIES) video.style.removeProperty(property);
      video.style.objectFit = wholeFrame ? 'contain' : 'cover';
      delete video.dataset.crop;
      return;
    }
    for (const property of BOX_PROPERTIES) pane.style.setProperty(property, shown.box[property]);
    const style = cropStyle(shown.crop, framing.source);
    for (const property of CROP_PROPERTIES) video.style.setProperty(property, style[property]);
    video.style.objectFit = 'fill';
    const { x, y, w, h } = shown.crop;
    video.dataset.crop = [x, y, w, h].map((value) => Math.round(value)).join(',');
  });
  if (backdrop) backdrop.style.display = view ? (view.backdrop ? '' : 'none') : '';
  if (host) host.dataset.layout = view?.layout ?? (wholeFrame ? 'fit' : 'centre');
}

/** The kept source spans of the previewed clip (the whole trim while nothing is cut). */
const keptOfPreview = (preview: CaptionPreview | undefined, trim: Span) =>
  keptOf(removedOf(preview), { startMs: trim.start, endMs: trim.end });

/** The source spans the previewed clip's cut removes (none while nothing is cut). */
const removedOf = (preview: CaptionPreview | undefined) =>
  (preview?.removed ?? []).map((span) => ({ startMs: span.start_ms, endMs: span.end_ms }));

/** Until the first picture and caption document are drawn, the frame says it is loading. */
function PreviewLoading({ shown }: { shown: boolean }) {
  if (!shown) return null;
  return (
    <div className={classes.previewLoading} role="status" data-testid="preview-loading">
      <Loader size="sm" color="white" aria-hidden />
      {t('studio.preview.loading')}
    </div>
  );
}

/** The platform's safe zone over the preview, in the same share of the frame as the export's. */
function SafeZoneOverlay({
  zone,
  frame,
}: {
  zone: Props['safeZone'];
  frame: { width: number; height: number };
}) {
  if (!zone) return null;
  return (
    <div
      className={classes.safeZone}
      data-testid="safe-zone"
      aria-label={t('style.safeZone.label')}
      role="img"
      style={{
        left: `${(zone.x / frame.width) * 100}%`,
        top: `${(zone.y / frame.height) * 100}%`,
        width: `${(zone.w / frame.width) * 100}%`,
        height: `${(zone.h / frame.height) * 100}%`,
      }}
    />
  );
}

/** The brand kit's logo where the export lays it, under the captions as there. */
function PreviewLogo({
  logo,
  frame,
}: {
  logo: CaptionPreview['logo'] | undefined;
  frame: { width: number; height: number } | undefined;
}) {
  if (!logo || !frame) return null;
  const share = (value: number, of: number) => `${(value / of) * 100}%`;
  return (
    <img
      src={logo.url}
      alt=""
      data-testid="clip-logo"
      style={{
        position: 'absolute',
        left: share(logo.x, frame.width),
        top: share(logo.y, frame.height),
        width: share(logo.width, frame.width),
        height: share(logo.height, frame.height),
        opacity: logo.opacity,
        pointerEvents: 'none',
      }}
    />
  );
}
