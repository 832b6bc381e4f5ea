import { Group, Paper, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type {
  BrandKit,
  ClipSettings,
  ExportLayout,
  ExportQuality,
  MomentView,
  Task,
  Transcript,
} from '@moments/contract';
import { useMemo, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { exportAllowanceText } from '../account/plan';
import { useSession } from '../account/session';
import { useTopBarVideo, type TopBarVideo } from '../layout/topBarVideo';
import {
  exportTypeOf,
  framingOptionsOf,
  useCaptionPreview,
  useClipDraft,
  useClipFraming,
  useClipMoment,
  useClipTask,
  useExportSettings,
  useKeepLayout,
  useStartExport,
  useTranscript,
} from './api';
import { CaptionPreviewPlayer, type PreviewPlayerHandle } from './CaptionPreviewPlayer';
import { CaptionStyleFields } from './CaptionStyleFields';
import { HookAndPlatformFields } from './HookAndPlatformFields';
import { safeRect } from '@moments/domain/platforms';
import { ClipCutSection, ClipTextPanel } from './ClipTextPanel';
import { FramingNote } from './FramingNote';
import { TrimTimeline } from './TrimTimeline';
import { exportFrameSize, type ClipAspect } from './frame';
import { CLIP_ASPECT_OPTIONS } from './options';
import { flattenWords, neighbourhoodOf, snapTrim, spanText, type Span } from './trim';
import { LabelledSegments } from './LabelledSegments';
import { EditorShell, EditorSubtitle, PreviewError, SettingsPanel } from './editor/EditorShell';
import { EditorLoadFailed, EditorLoading, SourceVideoGone } from './editor/EditorStates';
import { ExportButton } from './editor/ExportButton';
import { DraftStatusLine, LeaveUnsavedDialog } from './editor/DraftStatus';
import { useDraftAutosave, useLeaveGuard } from './editor/useDraftAutosave';
import { useClipSettings } from './editor/useClipSettings';
import { BrandKitPicker } from './editor/BrandKitPicker';
import { useBrandKits } from '../api/brandKits';
import { apiErrorOf, framingFor, PREVIEW_DEBOUNCE_MS } from './editor/useCaptionStyle';
import { t } from '../messages/catalogue';

/** How the clip is framed; `auto` lets each stretch of the footage decide. */
const LAYOUTS: { value: ExportLayout; label: string }[] = [
  { value: 'auto', label: t('studio.layout.auto') },
  { value: 'speaker', label: t('studio.layout.speaker') },
  { value: 'split', label: t('studio.layout.split') },
  { value: 'fit', label: t('studio.layout.fit') },
  { value: 'slide_speaker', label: t('studio.layout.slideSpeaker') },
];
const QUALITIES: ExportQuality[] = ['720p', '1080p'];

/** /moment/{momentId}/clip: trim, frame and caption a moment, preview it, export it. */
export default function ClipEditorPage() {
  const { momentId = '' } = useParams();
  // "Edit again" on an export opens the settings that export was made with.
  const [params] = useSearchParams();
  const jobId = params.get('job');
  const moment = useClipMoment(momentId);
  const taskId = moment.data?.task_id;
  const task = useClipTask(taskId);
  const transcript = useTranscript(taskId);
  const draft = useClipDraft(momentId);
  const exported = useExportSettings(jobId);
  // Read afresh: the kit used last (the next clip's default) may have changed since.
  const kits = useBrandKits();

  // An export that is gone (deleted since) opens the clip as its draft has it.
  const failed = moment.error ?? task.error ?? transcript.error ?? draft.error;
  if (failed) {
    return (
      <EditorLoadFailed
        error={failed}
        notFoundTitle={t('studio.notFound.title')}
        failedTitle={t('studio.failed.title')}
        notFoundText={t('studio.notFound.text')}
        backTo="/library/moments"
        backLabel={t('studio.back')}
      />
    );
  }
  if (
    !moment.data ||
    !task.data ||
    !transcript.data ||
    draft.data === undefined ||
    !(kits.isFetchedAfterMount || kits.isError) ||
    (jobId && exported.data === undefined && !exported.error)
  ) {
    return <EditorLoading label={t('studio.loading')} />;
  }
  return (
    <ClipEditor
      // One editor per moment: dropping `job` from the address once opened keeps this one.
      key={momentId}
      moment={moment.data}
      task={task.data}
      transcript={transcript.data}
      saved={draft.data?.settings ?? null}
      opened={(jobId && exported.data) || null}
      // A list that failed to load leaves the editor without kits rather than without a clip.
      kits={kits.data ?? []}
    />
  );
}

/** The moment's video in the top bar while its clip is edited. */
function useMomentTopBar(moment: MomentView) {
  const topBarVideo = useMemo<TopBarVideo>(
    () => ({
      title: moment.video.title || moment.title,
      thumbnail: moment.video.thumbnail,
      duration: moment.video.duration,
      channel: moment.video.channel_title,
      viewCount: moment.video.view_count,
      platform: moment.video.video_platform,
      publishedAt: moment.video.published_at,
    }),
    [moment],
  );
  useTopBarVideo(topBarVideo);
}

function ClipEditor({
  moment,
  task,
  transcript,
  saved,
  opened,
  kits,
}: {
  moment: MomentView;
  task: Task;
  transcript: Transcript;
  /** The clip's draft as the user last left it, if any. */
  saved: ClipSettings | null;
  /** The settings of the export being edited again, if any (they replace the draft). */
  opened: ClipSettings | null;
  kits: BrandKit[];
}) {
  const navigate = useNavigate();
  const { user } = useSession();
  const startExport = useStartExport();
  const player = useRef<PreviewPlayerHandle>(null);
  useMomentTopBar(moment);

  const words = useMemo(() => flattenWords(transcript.segments), [transcript]);
  const videoMs = transcript.duration_ms || task.duration_ms || moment.end;
  const momentSpan = useMemo(
    () =>
      snapTrim({ start: moment.start, end: moment.end }, words, {
        start: moment.start,
        end: moment.end,
      }),
    [moment.start, moment.end, words],
  );
  const clip = useClipSettings({ moment, task, momentSpan, saved, opened, kits });
  const { first, settings, options, style, trim, setTrim, aspect, setAspect, layout } = clip;
  const { quality, setQuality, editedText, setEditedText } = clip;
  // The trim's room reaches a restored trim wider than the moment's own neighbourhood.
  const range = useMemo(
    () =>
      neighbourhoodOf(
        {
          start: Math.min(momentSpan.start, first.start_ms),
          end: Math.max(momentSpan.end, first.end_ms),
        },
        videoMs,
      ),
    [momentSpan, videoMs, first.start_ms, first.end_ms],
  );
  const keepLayout = useKeepLayout(moment.id);
  const chooseLayout = (next: ExportLayout) => {
    clip.setLayout(next);
    keepLayout.mutate(next);
  };
  const [textReset, setTextReset] = useState(false);
  const draft = useDraftAutosave(moment.id, settings, clip.held);
  const leave = useLeaveGuard(moment.id, settings, draft);
  const [debouncedOptions] = useDebouncedValue(options, PREVIEW_DEBOUNCE_MS);
  const framingOptions = useMemo(() => framingOptionsOf(debouncedOptions), [debouncedOptions]);
  const framing = useClipFraming(moment.id, framingOptions);
  const frame = exportFrameSize(aspect, quality);
  const framingShown = framingFor(framing.data, frame);
  // The captions' box or outline follows the plan's verdict on the picture under them.
  const preview = useCaptionPreview(
    moment.id,
    debouncedOptions,
    framingShown?.caption_background.bottom,
  );
  const framingError = apiErrorOf(framing.error);

  const changeTrim = (next: Span, edge: 'start' | 'end') => {
    setTrim(next);
    // The edited text belongs to the old span; the new span starts from its own words.
    if (editedText !== null) {
      setEditedText(null);
      setTextReset(true);
    }
    player.current?.seek(edge === 'start' ? next.start : Math.max(next.start, next.end - 200));
  };

  const onExport = () =>
    startExport.mutate(
      { type: exportTypeOf(moment.type), moment_id: moment.id, options },
      { onSuccess: (job) => void navigate(`/job/${job.job_id}`) },
    );

  if (!moment.media_url) {
    return <SourceVideoGone>{t('studio.sourceGone')}</SourceVideoGone>;
  }

  const exportButton = (
    <ExportButton
      onClick={onExport}
      loading={startExport.isPending}
      disabled={style.translationBlocked}
      // The free plan's exports left, shown before the user clicks export.
      note={exportAllowanceText(user)}
      noteTestId="exports-remaining"
    >
      {t('studio.export.mp4', { quality })}
    </ExportButton>
  );

  return (
    <EditorShell
      maw={1200}
      nowrap
      title={moment.title || t('studio.untitledMoment')}
      subtitle={
        <EditorSubtitle clamp={1}>
          {t('studio.subtitle', { video: moment.video.title })}
        </EditorSubtitle>
      }
      actions={
        <Group visibleFrom="sm" wrap="nowrap">
          <DraftStatusLine status={draft.status} />
          {exportButton}
        </Group>
      }
      exportError={startExport.error}
      preview={
        <>
          <CaptionPreviewPlayer
            ref={player}
            mediaUrl={moment.media_url}
            poster={moment.thumbnail}
            preview={preview.data}
            frame={frame}
            layout={layout}
            framing={framingShown}
            analysing={!framingError && (framing.isFetching || !framingShown)}
            trim={trim}
            safeZone={clip.safeZoneShown ? safeRect(clip.platform, frame) : null}
          />
          <PreviewError error={apiErrorOf(preview.error)} />
          <FramingNote layout={layout} framing={framingShown} error={framingError} />
        </>
      }
    >
      <Paper withBorder p="md" radius="md">
        <Text fw={600} mb="xs">
          {t('a11y.trim')}
        </Text>
        <TrimTimeline
          range={range}
          moment={momentSpan}
          words={words}
          trim={trim}
          onTrimChange={changeTrim}
        />
      </Paper>

      <SettingsPanel>
        <BrandKitPicker
          kits={kits}
          kit={clip.kit}
          onChoose={clip.chooseKit}
          style={style.overrides}
          onSaved={style.resetOverrides}
        />
        <CaptionStyleFields {...style.fields} />
        <ClipPublishFields
          clip={clip}
          title={moment.title || moment.video.title}
          safeZone={[clip.safeZoneShown, clip.setSafeZoneShown]}
        />
      </SettingsPanel>

      <ClipShapeFields
        aspect={[aspect, setAspect]}
        layout={[layout, chooseLayout]}
        quality={[quality, setQuality]}
      />

      <ClipCutSection words={words} trim={trim} cuts={clip} preview={preview.data} />

      <ClipTextPanel
        text={editedText ?? spanText(words, trim)}
        edited={editedText !== null}
        resetByTrim={textReset}
        onChange={(text) => {
          setEditedText(text);
          setTextReset(false);
        }}
        onUndo={() => setEditedText(null)}
      />

      <Group justify="flex-end">
        <Group hiddenFrom="sm">
          <DraftStatusLine status={draft.status} />
        </Group>
        {exportButton}
      </Group>
      <LeaveUnsavedDialog opened={leave.asking} onStay={leave.stay} onLeave={leave.leave} />
    </EditorShell>
  );
}

/** The clip's shape, framing and quality, each a row of choices. */
function ClipShapeFields({
  aspect: [aspect, setAspect],
  layout: [layout, setLayout],
  quality: [quality, setQuality],
}: {
  aspect: [ClipAspect, (aspect: ClipAspect) => void];
  layout: [ExportLayout, (layout: ExportLayout) => void];
  quality: [ExportQuality, (quality: ExportQuality) => void];
}) {
  return (
    <SettingsPanel>
      <LabelledSegments
        label={t('studio.aspect')}
        data={CLIP_ASPECT_OPTIONS}
        value={aspect}
        onChange={setAspect}
      />
      <LabelledSegments
        label={t('studio.framing')}
        data={LAYOUTS}
        value={layout}
        onChange={setLayout}
      />
      <LabelledSegments
        label={t('studio.quality')}
        data={QUALITIES}
        value={quality}
        onChange={setQuality}
      />
    </SettingsPanel>
  );
}

/** The hook title and the platform of the clip; a platform brings its shape (9:16). */
function ClipPublishFields({
  clip,
  title,
  safeZone: [shown, setShown],
}: {
  clip: ReturnType<typeof useClipSettings>;
  title: string;
  safeZone: [boolean, (shown: boolean) => void];
}) {
  return (
    <HookAndPlatformFields
      hookTitle={clip.hookTitle}
      onHookTitleChange={clip.setHookTitle}
      defaultTitle={title}
      platform={clip.platform}
      onPlatformChange={clip.setPlatform}
      onAspectChange={(next) => next !== 'original' && clip.setAspect(next)}
      clipMs={clip.trim.end - clip.trim.start}
      safeZoneShown={shown}
      onSafeZoneShownChange={setShown}
    />
  );
}
