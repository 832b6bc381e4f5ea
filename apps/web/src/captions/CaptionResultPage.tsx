import { Checkbox, Group, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type {
  CaptionPosition,
  CaptionSize,
  ExportAspect,
  ExportQuality,
  HookTitle,
  Platform,
  Task,
  Transcript,
} from '@moments/contract';
import { safeRect } from '@moments/domain/platforms';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { exportQuote } from '@moments/domain/plans';
import { creditCostText } from '../account/plan';
import { useSession } from '../account/session';
import { CaptionPreviewPlayer, type PreviewPlayerHandle } from '../studio/CaptionPreviewPlayer';
import { CaptionStyleFields } from '../studio/CaptionStyleFields';
import { HookAndPlatformFields } from '../studio/HookAndPlatformFields';
import { useClipTask, useTranscript } from '../studio/api';
import { exportFrameSize } from '../studio/frame';
import { VIDEO_ASPECT_OPTIONS } from '../studio/options';
import { formatClock } from '../studio/trim';
import { LabelledSegments } from '../studio/LabelledSegments';
import {
  EditorShell,
  EditorSubtitle,
  PreviewError,
  SettingsPanel,
} from '../studio/editor/EditorShell';
import { EditorLoadFailed, EditorLoading, SourceVideoGone } from '../studio/editor/EditorStates';
import { ExportButton } from '../studio/editor/ExportButton';
import {
  apiErrorOf,
  framingFor,
  PREVIEW_DEBOUNCE_MS,
  useCaptionStyle,
} from '../studio/editor/useCaptionStyle';
import { SubtitleFilesMenu } from './SubtitleFilesMenu';
import { TranscriptPanel, useTranscriptEdits } from './TranscriptPanel';
import {
  useStartCaptionExport,
  useTaskCaptionPreview,
  useTaskFraming,
  useTaskMedia,
  type TaskCaptionOptions,
} from './api';
import { languageLabel } from '../ingest/languages';
import { t } from '../messages/catalogue';

const POSITIONS: { value: CaptionPosition; label: string }[] = [
  { value: 'bottom', label: t('captions.position.bottom') },
  { value: 'middle', label: t('captions.position.middle') },
  { value: 'top', label: t('captions.position.top') },
];
const SIZES: { value: CaptionSize; label: string }[] = [
  { value: 'small', label: t('captions.size.small') },
  { value: 'medium', label: t('captions.size.medium') },
  { value: 'large', label: t('captions.size.large') },
];

/** /video/{taskId}/captions: the whole video with its animated captions, edited and exported. */
export default function CaptionResultPage() {
  const { taskId = '' } = useParams();
  const task = useClipTask(taskId);
  const transcript = useTranscript(taskId);
  const media = useTaskMedia(taskId);

  const failed = task.error ?? transcript.error ?? media.error;
  if (failed) {
    return (
      <EditorLoadFailed
        error={failed}
        notFoundTitle={t('captions.notFound.title')}
        failedTitle={t('captions.failed.title')}
        notFoundText={t('captions.notFound.text')}
        backTo="/library/videoTasks"
        backLabel={t('captions.back')}
      />
    );
  }
  if (!task.data || !transcript.data || !media.data) {
    return <EditorLoading label={t('captions.loading')} />;
  }
  if (!media.data.url) {
    return <SourceVideoGone>{t('captions.sourceGone')}</SourceVideoGone>;
  }
  return (
    <CaptionResult
      key={taskId}
      task={task.data}
      transcript={transcript.data}
      mediaUrl={media.data.url}
    />
  );
}

function CaptionResult({
  task,
  transcript,
  mediaUrl,
}: {
  task: Task;
  transcript: Transcript;
  mediaUrl: string;
}) {
  const navigate = useNavigate();
  const { user } = useSession();
  const startExport = useStartCaptionExport();
  const player = useRef<PreviewPlayerHandle>(null);

  const style = useCaptionStyle(
    task.target_lang ? task.caption_display : 'source',
    task.target_lang,
  );
  const [aspect, setAspect] = useState<ExportAspect>('original');
  const [quality, setQuality] = useState<ExportQuality>('720p');
  const [position, setPosition] = useState<CaptionPosition>('bottom');
  const [size, setSize] = useState<CaptionSize>('medium');
  const [removeFillers, setRemoveFillers] = useState(false);
  const publish = usePublishChoices();
  const edits = useTranscriptEdits(transcript);

  const options = useMemo<TaskCaptionOptions>(
    () => ({
      aspect,
      quality,
      template: style.template,
      layout: 'auto',
      caption_display: style.display,
      target_lang: style.translateTo,
      transcript_text: edits.transcriptText,
      caption_position: position,
      caption_size: size,
      remove_fillers: removeFillers,
      ...(Object.keys(style.overrides).length ? { style: style.overrides } : {}),
      ...publish.options,
    }),
    [
      aspect,
      quality,
      style.template,
      style.display,
      style.translateTo,
      edits.transcriptText,
      position,
      size,
      removeFillers,
      style.overrides,
      publish.options,
    ],
  );
  const [debounced] = useDebouncedValue(options, PREVIEW_DEBOUNCE_MS);
  const preview = useTaskCaptionPreview(task.id, debounced);
  const framing = useTaskFraming(task.id, {
    aspect: debounced.aspect,
    quality: debounced.quality,
    layout: 'auto',
  });

  const durationMs = transcript.duration_ms || task.duration_ms || 0;
  const span = useMemo(() => ({ start: 0, end: durationMs }), [durationMs]);
  // The one cost function: the whole-video render costs credits by the length it is exported
  // at, which the preview of these options says once fillers are cut (the server's quote too).
  const exportCost = exportQuote(
    'ANIMATED_CAPTION_EXPORT',
    preview.data?.duration_ms ?? durationMs,
  ).amount;
  const frame =
    aspect === 'original'
      ? preview.data && debounced.aspect === 'original'
        ? { width: preview.data.width, height: preview.data.height }
        : exportFrameSize('16:9', quality)
      : exportFrameSize(aspect, quality);
  const framingShown = framingFor(framing.data, frame);
  const seek = useCallback((ms: number) => player.current?.seek(ms), []);

  const onExport = () =>
    startExport.mutate(
      { task_id: task.id, options },
      { onSuccess: (job) => void navigate(`/job/${job.job_id}`) },
    );

  const actions = (
    <Group gap="xs">
      <SubtitleFilesMenu
        taskId={task.id}
        options={options}
        translation={style.translationBlocked ? undefined : style.translateTo}
      />
      <ExportButton
        onClick={onExport}
        loading={startExport.isPending}
        disabled={style.translationBlocked}
        note={creditCostText(exportCost, user)}
        noteTestId="export-cost"
      >
        {t('studio.export.start')}
      </ExportButton>
    </Group>
  );
  const previewPanel = (
    <>
      <CaptionPreviewPlayer
        ref={player}
        mediaUrl={mediaUrl}
        preview={preview.data}
        frame={frame}
        layout={aspect === 'original' ? 'blur_fit' : 'auto'}
        framing={aspect === 'original' ? undefined : framingShown}
        analysing={aspect !== 'original' && (framing.isFetching || !framingShown)}
        trim={span}
        safeZone={publish.safeZoneShown ? safeRect(publish.platform, frame) : null}
      />
      <PreviewError error={apiErrorOf(preview.error)} />
    </>
  );

  return (
    <EditorShell
      maw={1280}
      title={task.video.title || t('summaries.untitledVideo')}
      subtitle={
        <EditorSubtitle>
          {t('captions.subtitle', {
            length: formatClock(durationMs),
            language: languageLabel(transcript.language) ?? t('ingest.language.unknown'),
          })}
        </EditorSubtitle>
      }
      actions={actions}
      exportError={startExport.error}
      preview={previewPanel}
    >
      <SettingsPanel>
        <CaptionStyleFields {...style.fields} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <LabelledSegments
            label={t('captions.position')}
            data={POSITIONS}
            value={position}
            onChange={setPosition}
          />
          <LabelledSegments
            label={t('captions.size')}
            data={SIZES}
            value={size}
            onChange={setSize}
          />
        </SimpleGrid>
        <Checkbox
          label={t('captions.removeFillers')}
          checked={removeFillers}
          onChange={(event) => setRemoveFillers(event.currentTarget.checked)}
        />
      </SettingsPanel>

      <SettingsPanel>
        <HookAndPlatformFields
          hookTitle={publish.hookTitle}
          onHookTitleChange={publish.setHookTitle}
          defaultTitle={task.video.title || t('summaries.untitledVideo')}
          platform={publish.platform}
          onPlatformChange={publish.setPlatform}
          onAspectChange={setAspect}
          clipMs={durationMs}
          safeZoneShown={publish.safeZoneShown}
          onSafeZoneShownChange={publish.setSafeZoneShown}
        />
      </SettingsPanel>

      <SettingsPanel>
        <LabelledSegments
          label={t('captions.frame')}
          data={VIDEO_ASPECT_OPTIONS}
          value={aspect}
          onChange={setAspect}
        />
        <LabelledSegments
          label={t('studio.quality')}
          data={['720p', '1080p']}
          value={quality}
          onChange={setQuality}
        />
      </SettingsPanel>

      <TranscriptPanel edits={edits} onSeek={seek} />
    </EditorShell>
  );
}

/**
 * The hook title over the video's first seconds and the platform it is made for, as the clip
 * editor offers them; `options` is what the preview and the export are asked with.
 */
function usePublishChoices() {
  const [hookTitle, setHookTitle] = useState<HookTitle | null>(null);
  const [platform, setPlatform] = useState<Platform>('generic');
  // Not an option of the export: whether the preview outlines the platform's safe zone.
  const [safeZoneShown, setSafeZoneShown] = useState(false);
  const options = useMemo(
    () => ({
      // A title being typed is sent once it has a letter.
      ...(hookTitle?.text.trim() ? { hook_title: hookTitle } : {}),
      platform,
    }),
    [hookTitle, platform],
  );
  return {
    hookTitle,
    setHookTitle,
    platform,
    setPlatform,
    safeZoneShown,
    setSafeZoneShown,
    options,
  };
}
