import type { UrlSource, VideoMeta } from '@moments/contract';
import { useEffect, useRef, useState } from 'react';
import { ApiError, isApiError } from '../api/client';
import { t } from '../messages/catalogue';
import { fetchVideoMeta, parseInput } from './api';

/** How long typing must pause before the box is read. */
const TYPING_PAUSE_MS = 450;

export type LinkPreview =
  | { kind: 'empty' }
  | { kind: 'checking' }
  | { kind: 'keyword'; text: string }
  | { kind: 'login-needed'; url: string }
  | { kind: 'loading'; url: string; platform: UrlSource | null }
  | { kind: 'ready'; url: string; platform: UrlSource | null; video: VideoMeta }
  | { kind: 'error'; error: ApiError };

/**
 * Reads the home box (a link or keywords): parse_url tells a link from keywords; a link's
 * metadata is fetched, and typing again cancels the request still in flight.
 * `commit()` reads the current text at once (Enter, or the `url` query parameter on arrival).
 */
export function useLinkPreview(text: string, signedIn: boolean) {
  const [committed, setCommitted] = useState(text);
  const [attempt, setAttempt] = useState(0);
  const [preview, setPreview] = useState<LinkPreview>({ kind: 'empty' });
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => {
    if (text === committed) return;
    // Typing again: whatever was asked for the previous text is no longer wanted.
    inFlight.current?.abort();
    const timer = setTimeout(() => setCommitted(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, committed]);

  useEffect(() => {
    const value = committed.trim();
    if (!value) {
      setPreview({ kind: 'empty' });
      return;
    }
    const controller = new AbortController();
    inFlight.current = controller;
    setPreview({ kind: 'checking' });
    void (async () => {
      const parsed = await parseInput(value, controller.signal);
      if (parsed.input_type === 'KEYWORD' || !parsed.url) {
        setPreview({ kind: 'keyword', text: value });
        return;
      }
      if (!signedIn) {
        setPreview({ kind: 'login-needed', url: parsed.url });
        return;
      }
      setPreview({ kind: 'loading', url: parsed.url, platform: parsed.video_platform });
      const video = await fetchVideoMeta(parsed.url, controller.signal);
      if (!controller.signal.aborted) {
        setPreview({ kind: 'ready', url: parsed.url, platform: parsed.video_platform, video });
      }
    })().catch((error: unknown) => {
      if (controller.signal.aborted) return;
      setPreview({
        kind: 'error',
        error: isApiError(error)
          ? error
          : new ApiError('INTERNAL', t('ingest.box.detailsFailed'), 0, true),
      });
    });
    return () => controller.abort();
  }, [committed, signedIn, attempt]);

  return {
    preview,
    commit: () => {
      setCommitted(text);
      setAttempt((n) => n + 1);
    },
    /** True while the text on screen has not been read yet. */
    pending: text !== committed,
  };
}
