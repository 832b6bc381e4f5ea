import type { ClipSettings } from '@moments/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { saveClipDraft, studioKeys } from '../api';

/** Settings are saved this long after the last change: a drag or a word typed is one save. */
const DRAFT_SAVE_DEBOUNCE_MS = 700;
/** A save that failed (the server unreachable) is tried again this often while changes wait. */
const DRAFT_RETRY_MS = 5_000;

/**
 * Where the clip's changes stand: `saved` (the server holds what is on screen), `pending`
 * (changed, saved in a moment), `saving`, or `failed` (the last save did not get through).
 */
export type DraftStatus = 'saved' | 'pending' | 'saving' | 'failed';

/**
 * Keeps the clip's settings saved on the server as the user edits (debounced), so the editor
 * opens the clip as it was left, after a reload and on another device. `savedSettings`: what the
 * server already holds (the draft the editor opened with, or the defaults when there is none and
 * nothing needs saving). `flush` saves now and tells whether the server has everything.
 */
export function useDraftAutosave(
  momentId: string,
  settings: ClipSettings,
  savedSettings: ClipSettings,
) {
  const queryClient = useQueryClient();
  const current = JSON.stringify(settings);
  const [saved, setSaved] = useState(() => JSON.stringify(savedSettings));
  const savedRef = useRef(saved);
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef({ current, settings });
  latest.current = { current, settings };
  const inFlight = useRef<Promise<boolean> | null>(null);

  const save = useCallback(async (): Promise<boolean> => {
    // One save at a time; a change made meanwhile is saved when it ends.
    while (inFlight.current) await inFlight.current;
    const { current: sending, settings: body } = latest.current;
    if (sending === savedRef.current) return true;
    const attempt = (async () => {
      setSaving(true);
      try {
        const draft = await saveClipDraft(momentId, body);
        queryClient.setQueryData(studioKeys.draft(momentId), draft);
        savedRef.current = sending;
        setSaved(sending);
        setFailed(false);
        return true;
      } catch {
        // The status line says the changes are not saved; the retry timer and the leave guard
        // take it from there, so the error itself needs no more than that.
        setFailed(true);
        return false;
      } finally {
        setSaving(false);
      }
    })();
    inFlight.current = attempt;
    try {
      return await attempt;
    } finally {
      inFlight.current = null;
    }
  }, [momentId, queryClient]);

  const dirty = current !== saved;
  useEffect(() => {
    if (!dirty || saving) return;
    const timer = setTimeout(() => void save(), failed ? DRAFT_RETRY_MS : DRAFT_SAVE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [current, dirty, saving, failed, save]);

  /** Saves what is on screen now; true when the server has it all. */
  const flush = useCallback(async () => {
    const ok = await save();
    return ok && latest.current.current === savedRef.current;
  }, [save]);

  const status: DraftStatus = !dirty ? 'saved' : saving ? 'saving' : failed ? 'failed' : 'pending';
  return { status, unsaved: dirty, flush };
}

/**
 * Leaving with changes the server does not have: an in-app link first tries to save them and
 * goes on when that works; when it does not (the server unreachable) the user is asked
 * (`blocked`, then `stay` or `leave`). Closing or reloading the page sends what waits as it
 * unloads and, if the last save failed, lets the browser ask.
 */
export function useLeaveGuard(
  momentId: string,
  settings: ClipSettings,
  draft: { status: DraftStatus; unsaved: boolean; flush(): Promise<boolean> },
) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      draft.unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  const [asking, setAsking] = useState(false);
  const held = useRef({ blocker, flush: draft.flush });
  held.current = { blocker, flush: draft.flush };
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let cancelled = false;
    void held.current.flush().then((ok) => {
      if (cancelled) return;
      if (ok) held.current.blocker.proceed?.();
      else setAsking(true);
    });
    return () => {
      cancelled = true;
    };
  }, [blocker.state]);

  const unload = useRef({ momentId, settings, draft });
  unload.current = { momentId, settings, draft };
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      const { momentId: id, settings: body, draft: state } = unload.current;
      if (!state.unsaved) return;
      // Sent as the page goes; its reply is never read, and the next visit reads the draft.
      void saveClipDraft(id, body, { keepalive: true }).catch(() => undefined);
      if (state.status === 'failed') {
        event.preventDefault();
        // Older browsers ask only when returnValue is set.
        event.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  return {
    asking,
    stay() {
      setAsking(false);
      if (blocker.state === 'blocked') blocker.reset();
    },
    leave() {
      setAsking(false);
      if (blocker.state === 'blocked') blocker.proceed();
    },
  };
}
