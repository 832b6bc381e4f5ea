import {
  Alert,
  Anchor,
  Button,
  Center,
  Grid,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ERROR_CODES,
  USAGE_LIMIT_CODES,
  type CaptionDisplay,
  type ExportLayout,
  type ExportQuality,
  type MomentView,
  type Task,
  type Transcript,
} from '@moments/contract';
import { IconAlertTriangle, IconDownload } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { exportAllowanceText } from '../account/plan';
import { useSession } from '../account/session';
import { isApiError } from '../api/client';
import { useTopBarVideo, type TopBarVideo } from '../layout/topBarVideo';
import {
  exportTypeOf,
  framingOptionsOf,
  useCaptionPreview,
  useClipFraming,
  useCaptionTemplates,
  useClipMoment,
  useClipTask,
  useStartExport,
  useTranscript,
  type ClipOptions,
} from './api';
import { useTranslationSupport } from '../captions/api';
import { CaptionPreviewPlayer, type PreviewPlayerHandle } from './CaptionPreviewPlayer';
import { CaptionStyleFields, displayNeedsTranslation } from './CaptionStyleFields';
import { TrimTimeline } from './TrimTimeline';
import classes from './studio.module.css';
import { exportFrameSize, type ClipAspect } from './frame';
import { CLIP_ASPECT_OPTIONS } from './options';
import { flattenWords, neighbourhoodOf, snapTrim, spanText, type Span } from './trim';
import { LabelledSegments } from './LabelledSegments';

const LAYOUTS: { value: ExportLayout; label: string }[] = [
  { value: 'auto', label: 'Follow speaker' },
  { value: 'blur_fit', label: 'Blurred fit' },
];
const QUALITIES: ExportQuality[] = ['720p', '1080p'];

/** Options are sent this long after the last change: typing and dragging stay smooth. */
const PREVIEW_DEBOUNCE_MS = 400;

/** /moment/{momentId}/clip: trim, frame and caption a moment, preview it, export it. */
export default function ClipEditorPage() {
  const { momentId = '' } = useParams();
  const moment = useClipMoment(momentId);
  const taskId = moment.data?.task_id;
  const task = useClipTask(taskId);
  const transcript = useTranscript(taskId);

  const failed = moment.error ?? task.error ?? transcript.error;
  if (failed) {
    const missing = isApiError(failed) && failed.status === 404;
    return (
      <Center h="50vh" p="md">
        <Alert
          color={missing ? 'gray' : 'red'}
          title={missing ? 'Moment not found' : 'Could not open the editor'}
          maw={480}
        >
          {missing
            ? 'This moment does not exist or is not yours.'
            : isApiError(failed)
              ? failed.message
              : 'Something went wrong.'}{' '}
          <Anchor component={Link} to="/library/moments">
            Go to your moments
          </Anchor>
        </Alert>
      </Center>
    );
  }
  if (!moment.data || !task.data || !transcript.data) {
    return (
      <Center h="50vh">
        <Loader type="dots" role="status" aria-label="Loading the editor" />
      </Center>
    );
  }
  return (
    <ClipEditor key={momentId} moment={moment.data} task={task.data} transcript={transcript.data} />
  );
}

function ClipEditor({
  moment,
  task,
  transcript,
}: {
  moment: MomentView;
  task: Task;
  transcript: Transcript;
}) {
  const navigate = useNavigate();
  const { user } = useSession();
  const templates = useCaptionTemplates();
  const startExport = useStartExport();
  const player = useRef<PreviewPlayerHandle>(null);

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
  const range = useMemo(() => neighbourhoodOf(momentSpan, videoMs), [momentSpan, videoMs]);

  const [trim, setTrim] = useState<Span>(momentSpan);
  const [aspect, setAspect] = useState<ClipAspect>('9:16');
  const [layout, setLayout] = useState<ExportLayout>('auto');
  const [quality, setQuality] = useState<ExportQuality>('1080p');
  const [template, setTemplate] = useState('karaoke');
  const [display, setDisplay] = useState<CaptionDisplay>(task.caption_display);
  const [targetLang, setTargetLang] = useState<string | null>(task.target_lang);
  const languages = useTranslationSupport().data?.languages ?? [];
  const chosenLanguage = languages.find((language) => language.code === targetLang);
  const [editedText, setEditedText] = useState<string | null>(null);
  const [textReset, setTextReset] = useState(false);

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

  const needsTranslation = displayNeedsTranslation(display);
  const options = useMemo<ClipOptions>(
    () => ({
      aspect,
      quality,
      template,
      layout,
      caption_display: display,
      target_lang: needsTranslation && targetLang ? targetLang : undefined,
      transcript_text: editedText ?? undefined,
      start_ms: trim.start,
      end_ms: trim.end,
    }),
    [aspect, quality, template, layout, display, needsTranslation, targetLang, editedText, trim],
  );
  const [debouncedOptions] = useDebouncedValue(options, PREVIEW_DEBOUNCE_MS);
  const preview = useCaptionPreview(moment.id, debouncedOptions);
  const framingOptions = useMemo(() => framingOptionsOf(debouncedOptions), [debouncedOptions]);
  const framing = useClipFraming(moment.id, framingOptions);
  const frame = exportFrameSize(aspect, quality);
  // A plan for another frame shape (the options are still settling) would stretch the picture.
  const framingShown =
    framing.data &&
    framing.data.output.width === frame.width &&
    framing.data.output.height === frame.height &&
    !(layout === 'blur_fit' && framing.data.layout === 'crop')
      ? framing.data
      : undefined;
  const framingError = framing.error && isApiError(framing.error) ? framing.error : null;
  const analysingFraming =
    layout === 'auto' && !framingError && (framing.isFetching || !framingShown);

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

  const exportError = startExport.error;
  // Usage limits and lost connections have their own global dialogs (spec §8).
  const showExportError =
    isApiError(exportError) &&
    !USAGE_LIMIT_CODES.has(exportError.code) &&
    exportError.code !== ERROR_CODES.NETWORK_DISCONNECTED;
  const previewError = preview.error && isApiError(preview.error) ? preview.error : null;

  if (!moment.media_url) {
    return (
      <Center h="50vh" p="md">
        <Alert color="gray" title="The source video is gone" maw={480}>
          The video this moment came from is no longer stored, so it cannot be edited or exported.
        </Alert>
      </Center>
    );
  }

  // Issue 9: the free plan's exports left, shown before the user clicks export.
  const allowance = exportAllowanceText(user);
  const exportButton = (
    <Stack gap={2} align="flex-end">
      <Button
        leftSection={<IconDownload size={18} />}
        onClick={onExport}
        loading={startExport.isPending}
        disabled={needsTranslation && (!targetLang || chosenLanguage?.available === false)}
      >
        Export {quality} MP4
      </Button>
      {allowance && (
        <Text size="xs" c="dimmed" data-testid="exports-remaining">
          {allowance}
        </Text>
      )}
    </Stack>
  );

  return (
    <Stack maw={1200} mx="auto" p={{ base: 'sm', sm: 'md' }} gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Title order={2} size="h3" lineClamp={2}>
            {moment.title || 'Untitled moment'}
          </Title>
          <Text size="sm" c="dimmed" lineClamp={1}>
            Clip editor · {moment.video.title}
          </Text>
        </div>
        <Group visibleFrom="sm">{exportButton}</Group>
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
              mediaUrl={moment.media_url}
              preview={preview.data}
              frame={frame}
              layout={layout}
              framing={framingShown}
              analysing={analysingFraming}
              trim={trim}
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
            {framingError ? (
              <Text size="xs" c="dimmed" mt={6} ta="center" data-testid="framing-note">
                The framing cannot be previewed ({framingError.message}); the preview shows a
                centred crop.
              </Text>
            ) : (
              layout === 'auto' &&
              framingShown?.layout === 'blur_fit' && (
                <Text size="xs" c="dimmed" mt={6} ta="center" data-testid="framing-note">
                  No face found in this clip: it is fitted whole over a blurred copy of itself.
                </Text>
              )
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder p="md" radius="md">
              <Text fw={600} mb="xs">
                Trim
              </Text>
              <TrimTimeline
                range={range}
                moment={momentSpan}
                words={words}
                trim={trim}
                onTrimChange={changeTrim}
              />
            </Paper>

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
              </Stack>
            </Paper>

            <Paper withBorder p="md" radius="md">
              <Stack gap="sm">
                <LabelledSegments
                  label="Aspect ratio"
                  data={CLIP_ASPECT_OPTIONS}
                  value={aspect}
                  onChange={setAspect}
                />
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                  <LabelledSegments
                    label="Framing"
                    data={LAYOUTS}
                    value={layout}
                    onChange={setLayout}
                  />
                  <LabelledSegments
                    label="Quality"
                    data={QUALITIES}
                    value={quality}
                    onChange={setQuality}
                  />
                </SimpleGrid>
              </Stack>
            </Paper>

            <Paper withBorder p="md" radius="md">
              <Textarea
                label="Transcript of the clip"
                description="Fix misheard words here; the captions of the words you change are re-timed."
                autosize
                minRows={3}
                maxRows={10}
                value={editedText ?? spanText(words, trim)}
                onChange={(event) => {
                  setEditedText(event.currentTarget.value);
                  setTextReset(false);
                }}
              />
              <Group justify="space-between" mt={6} gap="xs">
                <Text size="xs" c="dimmed">
                  {textReset
                    ? 'The trim changed, so the text was reset to the words of the new span.'
                    : ''}
                </Text>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  disabled={editedText === null}
                  onClick={() => setEditedText(null)}
                >
                  Undo text edits
                </Button>
              </Group>
            </Paper>

            <Group justify="flex-end">{exportButton}</Group>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
