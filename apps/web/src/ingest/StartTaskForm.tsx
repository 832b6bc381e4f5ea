import {
  Alert,
  Anchor,
  Button,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { CaptionDisplay, ClipLength, UrlSource, VideoMeta } from '@moments/contract';
import { CAPTION_DISPLAYS, CLIP_LENGTHS, USAGE_LIMIT_CODES } from '@moments/contract';
import { taskCost } from '@moments/domain/plans';
import { creditCostText } from '../account/plan';
import { useSession } from '../account/session';
import { IconAlertCircle, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../api/client';
import type { TaskStartOptions } from '../tasks/api';
import { useStartTask } from '../tasks/useTasks';
import { useTranslationSupport } from '../captions/api';
import { SOURCE_LANGUAGES, TARGET_LANGUAGES } from './languages';
import { t } from '../messages/catalogue';

type Mode = TaskStartOptions['mode'];

const MODES: Array<{ value: Mode; label: string }> = [
  { value: 'viral', label: t('ingest.mode.viral') },
  { value: 'search', label: t('ingest.mode.search') },
  { value: 'caption', label: t('ingest.mode.caption') },
];

const CLIP_LENGTH_LABELS: Record<ClipLength, string> = {
  auto: t('ingest.clipLength.auto'),
  under_30: t('ingest.clipLength.under_30'),
  '30_60': t('ingest.clipLength.30_60'),
  '60_90': t('ingest.clipLength.60_90'),
};

const CAPTION_DISPLAY_LABELS: Record<CaptionDisplay, string> = {
  all: t('ingest.captionDisplay.all'),
  source: t('ingest.captionDisplay.source'),
  translate: t('ingest.captionDisplay.translate'),
  none: t('ingest.captionDisplay.none'),
};

/**
 * The task start: what to do with the video (viral moments, a question, captions), the
 * languages, caption display, and an optional audience ("act as") and question.
 */
export function StartTaskForm({
  video,
  urlSource,
  initialMode = 'viral',
  wantsTranslation = false,
}: {
  video: VideoMeta;
  urlSource: UrlSource;
  /** The task a Tools entry opened the form for. */
  initialMode?: Mode;
  /** The tool translates: the target language is asked for first. */
  wantsTranslation?: boolean;
}) {
  const navigate = useNavigate();
  const startTask = useStartTask();
  const [mode, setMode] = useState<Mode>(initialMode);
  const [sourceLang, setSourceLang] = useState('auto');
  const [targetLang, setTargetLang] = useState<string | null>(null);
  const [captionDisplay, setCaptionDisplay] = useState<CaptionDisplay>('source');
  const [actAs, setActAs] = useState('');
  const [clipLength, setClipLength] = useState<ClipLength>('auto');
  const [query, setQuery] = useState('');
  const [queryMissing, setQueryMissing] = useState(false);

  const { user } = useSession();
  // The one cost function (packages/domain taskQuote): what Start charges, summary included.
  const cost = video.duration != null ? taskCost(mode, video.duration * 1000) : null;
  // The picker says per language whether this install can translate into it.
  const translation = useTranslationSupport();
  const unavailable = new Set(
    (translation.data?.languages ?? [])
      .filter((language) => !language.available)
      .map((language) => language.code),
  );
  const noEngine = translation.data !== undefined && translation.data.engine === null;
  const targetLanguages = TARGET_LANGUAGES.map((language) =>
    unavailable.has(language.value) || (noEngine && language.value !== sourceLang)
      ? { ...language, label: t('ingest.start.languageNeedsLlm', { language: language.label }) }
      : language,
  );
  const error = startTask.error;
  // Balance and usage limits open their own dialog; other failures are shown here.
  const inlineError = isApiError(error) && !USAGE_LIMIT_CODES.has(error.code) ? error : null;

  const submit = () => {
    if (mode === 'search' && !query.trim()) {
      setQueryMissing(true);
      return;
    }
    startTask.mutate(
      {
        video,
        options: {
          mode,
          urlSource,
          sourceLang,
          targetLang: mode === 'caption' ? (targetLang ?? undefined) : undefined,
          captionDisplay: mode === 'caption' ? captionDisplay : 'source',
          actAs: mode === 'caption' ? undefined : actAs,
          query: mode === 'search' ? query : undefined,
          clipLength: mode === 'viral' ? clipLength : undefined,
        },
      },
      {
        onSuccess: (task) =>
          void navigate('/library/videoTasks', { state: { startedTaskId: task.id } }),
      },
    );
  };

  return (
    <form
      aria-label={t('a11y.startATask')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <SegmentedControl
          fullWidth
          value={mode}
          onChange={(value) => setMode(value as Mode)}
          data={MODES}
          aria-label={t('a11y.whatToMake')}
          styles={{ label: { whiteSpace: 'normal', lineHeight: 1.25 } }}
        />
        {mode === 'search' && (
          <TextInput
            label={t('ingest.start.question')}
            description={t('ingest.start.questionHelp')}
            placeholder={t('ingest.start.questionExample')}
            value={query}
            maxLength={500}
            error={queryMissing ? t('ingest.start.questionMissing') : undefined}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              setQueryMissing(false);
            }}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label={t('ingest.start.spokenLanguage')}
            data={SOURCE_LANGUAGES}
            value={sourceLang}
            onChange={(value) => setSourceLang(value ?? 'auto')}
            allowDeselect={false}
            searchable
          />
          {mode === 'caption' ? (
            <Select
              label={t('ingest.start.translateTo')}
              placeholder={
                wantsTranslation ? t('ingest.start.pickLanguage') : t('ingest.start.noTranslation')
              }
              description={
                noEngine ? (
                  <span data-testid="translation-offer">
                    {t('ingest.start.needsLlm')}{' '}
                    <Anchor component={Link} to="/settings/faq?question=translation" inherit>
                      {t('ingest.start.needsLlmHow')}
                    </Anchor>
                  </span>
                ) : undefined
              }
              data={targetLanguages}
              value={targetLang}
              onChange={(value) => {
                setTargetLang(value);
                // Showing a translation needs a target language.
                if (!value && captionDisplay !== 'source' && captionDisplay !== 'none') {
                  setCaptionDisplay('source');
                }
              }}
              clearable
              searchable
            />
          ) : (
            <TextInput
              label={t('ingest.start.audience')}
              placeholder={t('ingest.start.audienceExample')}
              description={t('ingest.start.audienceHelp')}
              value={actAs}
              maxLength={200}
              onChange={(event) => setActAs(event.currentTarget.value)}
            />
          )}
        </SimpleGrid>
        {mode === 'viral' && (
          <Select
            label={t('ingest.start.clipLength')}
            description={t('ingest.start.clipLengthHelp')}
            data={CLIP_LENGTHS.map((value) => ({ value, label: CLIP_LENGTH_LABELS[value] }))}
            value={clipLength}
            onChange={(value) => setClipLength((value as ClipLength | null) ?? 'auto')}
            allowDeselect={false}
          />
        )}
        {mode === 'caption' && (
          <Select
            label={t('ingest.start.captionDisplay')}
            data={CAPTION_DISPLAYS.map((value) => ({
              value,
              label: CAPTION_DISPLAY_LABELS[value],
              disabled: (value === 'all' || value === 'translate') && !targetLang,
            }))}
            value={captionDisplay}
            onChange={(value) => setCaptionDisplay((value as CaptionDisplay | null) ?? 'source')}
            allowDeselect={false}
          />
        )}
        {inlineError && (
          <Alert
            color="red"
            icon={<IconAlertCircle size={18} />}
            role="alert"
            title={t('title.couldNotStart')}
          >
            {inlineError.message}
          </Alert>
        )}
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed" data-testid="task-cost">
            {creditCostText(cost, user)}
          </Text>
          <Button
            type="submit"
            size="md"
            loading={startTask.isPending}
            leftSection={<IconPlayerPlay size={18} />}
          >
            {t('ingest.start.start')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
