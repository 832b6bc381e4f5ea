import type { CaptionPreview } from '@moments/contract';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { CaptionOverlay, type CaptionDocument } from './captionOverlay';
import type { Span } from './trim';
import classes from './studio.module.css';

/** `started`: the renderer runs, no caption document drawn yet; `ready`: captions drawn. */
export type OverlayState = 'waiting' | 'loading' | 'started' | 'ready' | 'failed';

/** An empty document of the frame's size: the renderer starts on it before the first one comes. */
const blankDocument = (
  frame: { width: number; height: number },
  startMs: number,
): CaptionDocument => ({
  ass: `[Script Info]\nScriptType: v4.00+\nPlayResX: ${frame.width}\nPlayResY: ${frame.height}\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n`,
  width: frame.width,
  height: frame.height,
  startMs,
  fonts: [],
});

const toDocument = (preview: CaptionPreview): CaptionDocument => ({
  ass: preview.ass,
  width: preview.width,
  height: preview.height,
  startMs: preview.start_ms,
  fonts: preview.fonts,
});

/**
 * The preview's caption renderer on a canvas in `host`, and each new caption document drawn by it;
 * says how far it got (the player shows it, and the browser tests wait on it).
 */
export function useCaptionRenderer({
  hostRef,
  frameRef,
  trimRef,
  videoRef,
  preview,
}: {
  hostRef: RefObject<HTMLDivElement | null>;
  frameRef: RefObject<{ width: number; height: number }>;
  trimRef: RefObject<Span>;
  /** The main video: a new document is drawn at the frame it shows. */
  videoRef: RefObject<HTMLVideoElement | null>;
  preview: CaptionPreview | undefined;
}) {
  const overlayRef = useRef<CaptionOverlay | null>(null);
  const [overlayState, setOverlayState] = useState<OverlayState>('waiting');
  const [documentsDrawn, setDocumentsDrawn] = useState(0);

  // The renderer (JASSUB's worker and its WebAssembly) starts with the player, while the first
  // caption document is still being made on the server (a first open waited for both
  // one after the other); it lives as long as the player.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    // A fresh canvas each time: a canvas can hand its drawing to a worker only once.
    const canvas = document.createElement('canvas');
    canvas.className = classes.captions ?? '';
    canvas.dataset.testid = 'caption-canvas';
    host.append(canvas);
    let overlay: CaptionOverlay;
    try {
      overlay = new CaptionOverlay(canvas, blankDocument(frameRef.current, trimRef.current.start));
    } catch {
      canvas.remove();
      setOverlayState('failed');
      return;
    }
    overlayRef.current = overlay;
    setOverlayState('loading');
    let alive = true;
    overlay.ready.then(
      () => alive && setOverlayState('started'),
      () => alive && setOverlayState('failed'),
    );
    return () => {
      alive = false;
      overlayRef.current = null;
      void overlay.destroy();
      canvas.remove();
    };
    // The refs are the player's own, stable for its life: the renderer starts once.
  }, [hostRef, frameRef, trimRef]);

  // Every new document (template, trim, aspect, text) replaces the track and redraws the frame.
  useEffect(() => {
    const overlay = overlayRef.current;
    if (!overlay || !preview || (overlayState !== 'started' && overlayState !== 'ready')) return;
    let alive = true;
    overlay
      .setDocument(toDocument(preview))
      // Drawn at the frame on screen (the first document may arrive before any seek drew one).
      .then(() =>
        overlay.render(videoRef.current?.currentTime ?? trimRef.current.start / 1000, true),
      )
      .then(() => {
        if (!alive) return;
        setOverlayState('ready');
        setDocumentsDrawn((count) => count + 1);
      })
      .catch(() => alive && setOverlayState('failed'));
    return () => {
      alive = false;
    };
  }, [preview, overlayState, videoRef, trimRef]);
  return { overlayRef, overlayState, documentsDrawn };
}
