import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Grid,
  Group,
  Loader,
  Menu,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ERROR_CODES,
  USAGE_LIMIT_CODES,
  type CaptionDisplay,
  type CaptionPosition,
  type CaptionSize,
  type ExportAspect,
  type ExportQuality,
  type SubtitleFormat,
  type SubtitleLanguage,
  type Task,
  type Transcript,
} from '@moments/contract';
import { IconAlertTriangle, IconDownload, IconFileText } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../api/client';
import { CaptionPreviewPlayer, type PreviewPlayerHandle } from '../studio/CaptionPreviewPlayer';
import { CaptionStyleFields, displayNeedsTranslation } from '../studio/CaptionStyleFields';
import { useCaptionTemplates, useClipTask, useTranscript } from '../studio/api';
import { exportFrameSize } from '../studio/frame';
import { VIDEO_ASPECT_OPTIONS } from '../studio/options';
import { formatClock } from '../studio/trim';
import classes from '../studio/studio.module.css';
import { LabelledSegments } from '../studio/LabelledSegments';
import {
  subtitleUrl,
  useStartCaptionExport,
  useTaskCaptionPreview,
  useTaskFraming,
  useTaskMedia,
  useTranslationSupport,
  type TaskCaptionOptions,
} from './api';

const POSITIONS: { value: CaptionPosition; label: string }[] = [
  { value: 'bottom', label: 'Bottom' },
  { value: 'middle', label: 'Middle' },
  { value: 'top', label: 'Top' },
];
const SIZES: { value: CaptionSize; label: string }[] = [
  { value: 'small', label: 'S' },
  { value: 'medium', label: 'M' },
  { value: 'large', label: 'L' },
];
const SUBTITLE_FORMATS: { value: SubtitleFormat; label: string }[] = [
  { value: 'srt', label: 'SRT' },
  { value: 'vtt', label: 'WebVTT' },
  { value: 'ass', label: 'ASS (styled)' },
];
const PREVIEW_DEBOUNCE_MS = 400;
const ROW_HEIGHT = 64;

/** /video/{taskId}/captions: the whole video with its animated captions, edited and exported. */
export default function CaptionResultPage() {
  const { taskId = '' } = useParams();
  const task = useClipTask(taskId);
  const transcript = useTranscript(taskId);
  const media = useTaskMedia(taskId);

  const failed = task.error ?? transcript.error ?? media.error;
  if (failed) {
    const missing = isApiError(failed) && failed.status === 404;
    return (
      <Center h="50vh" p="md">
        <Alert
          color={missing ? 'gray' : 'red'}
          title={missing ? 'Captions not found' : 'Could not open the captions'}
          maw={480}
        >
          {missing
            ? 'This video task does not exist, is not yours, or has no transcript yet.'
            : isApiError(failed)
              ? failed.message
              : 'Something went wrong.'}{' '}
          <Anchor component={Link} to="/library/videoTasks">
            Go to your video tasks
          </Anchor>
        </Alert>
      </Center>
    );
  }
  if (!task.data || !transcript.data || !media.data) {
    return (
      <Center h="50vh">
        <Loader type="dots" role="status" aria-label="Loading the captions" />
      </Center>
    );
  }
  if (!media.data.url) {
    return (
      <Center h="50vh" p="md">
        <Alert color="gray" title="The source video is gone" maw={480}>
          The video of this task is no longer stored, so its captions cannot be previewed or
          exported.
        </Alert>
      </Center>
    );
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
  const templates = useCaptionTemplates();
  const support = useTranslationSupport();
  const startExport = useStartCaptionExport();
  const player = useRef<PreviewPlayerHandle>(null);

  const [template, setTemplate] = useState('karaoke');
  const [display, setDisplay] = useState<CaptionDisplay>(
    task.target_lang ? task.caption_display : 'source',
  );
  const [targetLang, setTargetLang] = useState<string | null>(task.target_lang);
  const [aspect, setAspect] = useState<ExportAspect>('original');
  const [quality, setQuality] = useState<ExportQuality>('720p');
  const [position, setPosition] = useState<CaptionPosition>('bottom');
  const [size, setSize] = useState<CaptionSize>('medium');
  const [removeFillers, setRemoveFillers] = useState(false);
  const [edits, setEdits] = useState<Record<number, string>>({});

  const lineTexts = useMemo(
    () => transcript.segments.map((segment) => segment.words.map((word) => word.text).join(' ')),
    [transcript],
  );
  const edited = Object.keys(edits).length > 0;
  const transcriptText = useMemo(
    () => (edited ? lineTexts.map((text, index) => edits[index] ?? text).join(' ') : undefined),
    [edited, edits, lineTexts],
  );
  const needsTranslation = displayNeedsTranslation(display);
  const options = useMemo<TaskCaptionOptions>(
    () => ({
      aspect,
      quality,
      template,
      layout: 'auto',
      caption_display: display,
      target_lang: needsTranslation && targetLang ? targetLang : undefined,
      transcript_text: transcriptText,
      caption_position: position,
      caption_size: size,
      remove_fillers: removeFillers,
    }),
    [
      aspect,
      quality,
      template,
      display,
      needsTranslation,
      targetLang,
      transcriptText,
      position,
      size,
      removeFillers,
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
  const frame =
    aspect === 'original'
      ? preview.data && debounced.aspect === 'original'
        ? { width: preview.data.width, height: preview.data.height }
        : exportFrameSize('16:9', quality)
      : exportFrameSize(aspect, quality);
  const framingShown =
    framing.data &&
    framing.data.output.width === frame.width &&
    framing.data.output.height === frame.height
      ? framing.data
      : undefined;

  const languages = support.data?.languages ?? [];
  const chosenLanguage = languages.find((language) => language.code === targetLang);
  const translationBlocked =
    needsTranslation && (!targetLang || chosenLanguage?.available === false);
  const previewError = preview.error && isApiError(preview.error) ? preview.error : null;
  const exportError = startExport.error;
  const showExportError =
    isApiError(exportError) &&
    !USAGE_LIMIT_CODES.has(exportError.code) &&
    exportError.code !== ERROR_CODES.NETWORK_DISCONNECTED;

  const commitLine = useCallback(
    (index: number, text: string) =>
      setEdits((current) => {
        const next = { ...current };
        if (text.trim() === lineTexts[index] || !text.trim()) delete next[index];
        else next[index] = text.trim();
        return next;
      }),
    [lineTexts],
  );
  const seek = useCallback((ms: number) => player.current?.seek(ms), []);

  const onExport = () =>
    startExport.mutate(
      { task_id: task.id, options },
      { onSuccess: (job) => void navigate(`/job/${job.job_id}`) },
    );

  const subtitleLangs: { value: SubtitleLanguage; label: string }[] = [
    { value: 'source', label: 'Spoken language' },
    ...(needsTranslation && targetLang && !translationBlocked
      ? [
          { value: 'target' as const, label: `Translation (${targetLang})` },
          { value: 'both' as const, label: 'Both' },
        ]
      : []),
  ];

  return (
    <Stack maw={1280} mx="auto" p={{ base: 'sm', sm: 'md' }} gap="md">
      <Group justify="space-between" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Title order={2} size="h3" lineClamp={2}>
            {task.video.title || 'Untitled video'}
          </Title>
          <Text size="sm" c="dimmed">
            Animated captions · {formatClock(durationMs)} · {transcript.language}
          </Text>
        </div>
        <Group gap="xs">
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" leftSection={<IconFileText size={18} />}>
                Subtitle files
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {subtitleLangs.map((lang) => (
                <div key={lang.value}>
                  <Menu.Label>{lang.label}</Menu.Label>
                  {SUBTITLE_FORMATS.map((format) => (
                    <Menu.Item
                      key={format.value}
                      component="a"
                      href={subtitleUrl(task.id, format.value, lang.value, options)}
                      download
                    >
                      {format.label}
                    </Menu.Item>
                  ))}
                </div>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Button
            leftSection={<IconDownload size={18} />}
            onClick={onExport}
            loading={startExport.isPending}
            disabled={translationBlocked}
          >
            Export video
          </Button>
        </Group>
      </Group>
      {showExportError && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="The export did not start">
          {exportError.message}
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="sm" radius="md" className={classes.previewPanel}>
            <CaptionPreviewPlayer
              ref={player}
              mediaUrl={mediaUrl}
              preview={preview.data}
              frame={frame}
              layout={aspect === 'original' ? 'blur_fit' : 'auto'}
              framing={aspect === 'original' ? undefined : framingShown}
              analysing={aspect !== 'original' && (framing.isFetching || !framingShown)}
              trim={span}
            />
            {previewError && (
              <Alert
                color="yellow"
                mt="xs"
                title="Captions cannot be previewed"
                data-testid="preview-error"
              >
                {previewError.message}
              </Alert>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <CaptionStyleFields
                  templates={templates.data}
                  template={template}
                  onTemplateChange={setTemplate}
                  display={display}
                  onDisplayChange={setDisplay}
                  languages={languages}
                  targetLang={targetLang}
                  onTargetLangChange={setTargetLang}
                />
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                  <LabelledSegments
                    label="Position"
                    data={POSITIONS}
                    value={position}
                    onChange={setPosition}
                  />
                  <LabelledSegments label="Size" data={SIZES} value={size} onChange={setSize} />
                </SimpleGrid>
                <Checkbox
                  label="Remove filler words (um, uh, repeated words) from the captions and the exported cut"
                  checked={removeFillers}
                  onChange={(event) => setRemoveFillers(event.currentTarget.checked)}
                />
              </Stack>
            </Paper>

            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <LabelledSegments
                  label="Frame"
                  data={VIDEO_ASPECT_OPTIONS}
                  value={aspect}
                  onChange={setAspect}
                />
                <LabelledSegments
                  label="Quality"
                  data={['720p', '1080p']}
                  value={quality}
                  onChange={setQuality}
                />
              </Stack>
            </Paper>

            <Paper withBorder p="md" radius="md">
              <Group justify="space-between" mb="xs">
                <Text fw={600}>Transcript</Text>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  disabled={!edited}
                  onClick={() => setEdits({})}
                >
                  Undo text edits
                </Button>
              </Group>
              <Text size="xs" c="dimmed" mb="xs">
                One line per turn. Fix a misheard word and press Enter; the words you change are
                re-timed. Click a time to see that moment.
              </Text>
              <TranscriptList
                lines={transcript.segments.map((segment, index) => ({
                  start: segment.start,
                  text: edits[index] ?? lineTexts[index]!,
                }))}
                onCommit={commitLine}
                onSeek={seek}
              />
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/**
 * The transcript, one row per line, virtualised: a long video's thousand lines cost only the rows
 * on screen.
 */
function TranscriptList({
  lines,
  onCommit,
  onSeek,
}: {
  lines: { start: number; text: string }[];
  onCommit(index: number, text: string): void;
  onSeek(ms: number): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  return (
    <div
      ref={scroller}
      style={{ height: 420, overflowY: 'auto', contain: 'strict' }}
      data-testid="transcript-list"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              height: item.size,
              transform: `translateY(${item.start}px)`,
            }}
          >
            <TranscriptLine
              index={item.index}
              start={lines[item.index]!.start}
              text={lines[item.index]!.text}
              onCommit={onCommit}
              onSeek={onSeek}
            />
          </div>
        ))}
      </div>
    </div>
  );
}

const TranscriptLine = memo(function TranscriptLine({
  index,
  start,
  text,
  onCommit,
  onSeek,
}: {
  index: number;
  start: number;
  text: string;
  onCommit(index: number, text: string): void;
  onSeek(ms: number): void;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="center" h={ROW_HEIGHT - 8}>
      <UnstyledButton
        onClick={() => onSeek(start)}
        aria-label={`Play from ${formatClock(start)}`}
        w={56}
      >
        <Text size="xs" c="dimmed" ff="monospace">
          {formatClock(start)}
        </Text>
      </UnstyledButton>
      <TextInput
        // Re-mounts when the committed text changes (e.g. undo), keeping typing uncontrolled and cheap.
        key={text}
        defaultValue={text}
        aria-label={`Line ${index + 1}`}
        style={{ flex: 1 }}
        onFocus={() => onSeek(start)}
        onBlur={(event) => onCommit(index, event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onCommit(index, event.currentTarget.value);
        }}
      />
    </Group>
  );
});
