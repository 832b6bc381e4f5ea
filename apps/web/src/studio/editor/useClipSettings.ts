import type {
  BrandKit,
  ClipSettings,
  ExportLayout,
  ExportQuality,
  HookTitle,
  MomentView,
  Platform,
  Task,
} from '@moments/contract';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ClipOptions } from '../api';
import { brandKitForClip } from '@moments/domain/brand-kits';
import type { ClipAspect } from '../frame';
import { CLIP_ASPECT_OPTIONS } from '../options';
import type { Span } from '../trim';
import { useCaptionStyle } from './useCaptionStyle';

/** The editor's own starting point: the moment's span, framed as the clip keeps it. */
function defaultSettings(moment: MomentView, task: Task, momentSpan: Span): ClipSettings {
  return {
    aspect: '9:16',
    quality: '1080p',
    template: 'karaoke',
    // The layout kept with the clip (its older name `blur_fit` is `fit`).
    layout: moment.layout === 'blur_fit' ? 'fit' : (moment.layout ?? 'auto'),
    caption_display: task.caption_display,
    target_lang: task.target_lang,
    start_ms: momentSpan.start,
    end_ms: momentSpan.end,
    transcript_text: null,
    caption_position: 'bottom',
    caption_size: 'medium',
    remove_fillers: false,
    cuts: [],
    remove_silences: null,
  };
}

const isClipAspect = (aspect: ClipSettings['aspect']): aspect is ClipAspect =>
  CLIP_ASPECT_OPTIONS.some((option) => option.value === aspect);

/** What the preview and the export are asked with: the translation only when shown. */
const clipOptionsOf = (settings: ClipSettings, translateTo: string | undefined): ClipOptions => ({
  aspect: settings.aspect,
  quality: settings.quality,
  template: settings.template,
  layout: settings.layout,
  caption_display: settings.caption_display,
  target_lang: translateTo,
  transcript_text: settings.transcript_text ?? undefined,
  start_ms: settings.start_ms,
  end_ms: settings.end_ms,
  caption_position: settings.caption_position,
  caption_size: settings.caption_size,
  remove_fillers: settings.remove_fillers,
  // A cut the trim left out is dropped; one the trim crosses keeps its part inside.
  cuts: (settings.cuts ?? [])
    .map((cut) => ({
      start_ms: Math.max(cut.start_ms, settings.start_ms),
      end_ms: Math.min(cut.end_ms, settings.end_ms),
    }))
    .filter((cut) => cut.end_ms > cut.start_ms),
  remove_silences: settings.remove_silences ?? undefined,
  ...(settings.style && Object.keys(settings.style).length ? { style: settings.style } : {}),
  // A title being typed is sent once it has a letter.
  ...(settings.hook_title?.text.trim() ? { hook_title: settings.hook_title } : {}),
  platform: settings.platform ?? 'generic',
  ...(settings.brand_kit_id ? { brand_kit_id: settings.brand_kit_id } : {}),
});

interface ClipStart {
  moment: MomentView;
  task: Task;
  momentSpan: Span;
  saved: ClipSettings | null;
  opened: ClipSettings | null;
  /** The user's brand kits, as read when the editor opened and since. */
  kits: BrandKit[];
}

/** What the editor opens with, what the server holds already, and the kit applied at first. */
function startingPoint(start: ClipStart) {
  const defaults = defaultSettings(start.moment, start.task, start.momentSpan);
  const first = start.opened ?? start.saved ?? defaults;
  const held = start.saved ?? defaults;
  // The kit chosen for a clip with no choice yet is no change of the user's: nothing to save.
  const heldKit = brandKitForClip(held.brand_kit_id, start.kits);
  return {
    first,
    kitId: brandKitForClip(first.brand_kit_id, start.kits),
    held: held.brand_kit_id === undefined ? { ...held, brand_kit_id: heldKit } : held,
  };
}

/**
 * Every setting of the clip editor, starting from the export edited again (`opened`), else the
 * draft the user left (`saved`), else the defaults; read once, so a refetch never resets what
 * the user edits. `held` is what the server already has (nothing to save while it is shown).
 */
export function useClipSettings(start: ClipStart) {
  const [initial] = useState(() => startingPoint(start));
  const { first } = initial;
  const [kitId, setKitId] = useState<string | null>(initial.kitId);
  // A kit deleted meanwhile (in settings, another tab) is no longer applied.
  const kit = start.kits.find((candidate) => candidate.id === kitId) ?? null;
  const [trim, setTrim] = useState<Span>({ start: first.start_ms, end: first.end_ms });
  const [aspect, setAspect] = useState<ClipAspect>(
    isClipAspect(first.aspect) ? first.aspect : '9:16',
  );
  const [layout, setLayout] = useState<ExportLayout>(first.layout);
  const [quality, setQuality] = useState<ExportQuality>(first.quality);
  const style = useCaptionStyle(
    first.caption_display,
    first.target_lang,
    first.template,
    first.style ?? {},
    kit?.style,
  );
  /** Applying a kit brings its whole look: the changes made over the last one are dropped. */
  const chooseKit = (id: string | null) => {
    setKitId(id);
    style.resetOverrides();
  };
  const [hookTitle, setHookTitle] = useState<HookTitle | null>(first.hook_title ?? null);
  const [platform, setPlatform] = useState<Platform>(first.platform ?? 'generic');
  // Not a setting of the clip: whether the preview outlines the platform's safe zone.
  const [safeZoneShown, setSafeZoneShown] = useState(false);
  const [editedText, setEditedText] = useState<string | null>(first.transcript_text);
  const [cuts, setCuts] = useState<NonNullable<ClipSettings['cuts']>>(first.cuts ?? []);
  const [removeSilences, setRemoveSilences] = useState<ClipSettings['remove_silences']>(
    first.remove_silences ?? null,
  );
  // Not changed in this editor, but kept: an export made with them is edited again with them.
  const { caption_position, caption_size, remove_fillers } = first;

  const settings = useMemo<ClipSettings>(
    () => ({
      aspect,
      quality,
      template: style.template,
      layout,
      caption_display: style.display,
      target_lang: style.targetLang,
      start_ms: trim.start,
      end_ms: trim.end,
      transcript_text: editedText,
      caption_position,
      caption_size,
      remove_fillers,
      cuts,
      remove_silences: removeSilences,
      style: style.overrides,
      hook_title: hookTitle,
      platform,
      brand_kit_id: kit?.id ?? null,
    }),
    [
      aspect,
      quality,
      style.template,
      layout,
      style.display,
      style.targetLang,
      trim,
      editedText,
      caption_position,
      caption_size,
      remove_fillers,
      cuts,
      removeSilences,
      style.overrides,
      hookTitle,
      platform,
      kit,
    ],
  );
  const options = useMemo(
    () => clipOptionsOf(settings, style.translateTo),
    [settings, style.translateTo],
  );
  useDropJobParam(start.opened !== null);
  return {
    first,
    held: initial.held,
    settings,
    options,
    style,
    trim,
    setTrim,
    aspect,
    setAspect,
    layout,
    setLayout,
    quality,
    setQuality,
    editedText,
    setEditedText,
    cuts,
    setCuts,
    removeSilences,
    setRemoveSilences,
    hookTitle,
    setHookTitle,
    platform,
    setPlatform,
    safeZoneShown,
    setSafeZoneShown,
    kit,
    chooseKit,
  };
}

/**
 * Opened from an export: its settings are now the draft, so the address drops the job and a
 * reload opens the clip as it is being edited, not as the export was.
 */
function useDropJobParam(opened: boolean) {
  const [searchParams, setSearchParams] = useSearchParams();
  useEffect(() => {
    if (!opened || !searchParams.has('job')) return;
    setSearchParams(
      (params) => {
        params.delete('job');
        return params;
      },
      { replace: true },
    );
  }, [opened, searchParams, setSearchParams]);
}
