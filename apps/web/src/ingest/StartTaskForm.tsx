import {
  Alert,
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
import { useNavigate } from 'react-router';
import { isApiError } from '../api/client';
import type { TaskStartOptions } from '../tasks/api';
import { useStartTask } from '../tasks/useTasks';
import { useTranslationSupport } from '../captions/api';
import { SOURCE_LANGUAGES, TARGET_LANGUAGES } from './languages';

type Mode = TaskStartOptions['mode'];

const MODES: Array<{ value: Mode; label: string }> = [
  { value: 'viral', label: 'Find viral moments' },
  { value: 'search', label: 'Search by a question' },
  { value: 'caption', label: 'Animated captions' },
];

const CLIP_LENGTH_LABELS: Record<ClipLength, string> = {
  auto: 'Any length (15-90 s)',
  under_30: 'Under 30 s',
  '30_60': '30-60 s',
  '60_90': '60-90 s',
};

const CAPTION_DISPLAY_LABELS: Record<CaptionDisplay, string> = {
  all: 'Original and translation',
  source: 'Original language only',
  translate: 'Translation only',
  none: 'No captions',
};

/**
 * spec §3/§7 task start: what to do with the video (viral moments, a question, captions), the
 * languages, caption display, and an optional audience ("act as") and question.
 */
export function StartTaskForm({ video, urlSource }: { video: VideoMeta; urlSource: UrlSource }) {
  const navigate = useNavigate();
  const startTask = useStartTask();
  const [mode, setMode] = useState<Mode>('viral');
  const [sourceLang, setSourceLang] = useState('auto');
  const [targetLang, setTargetLang] = useState<string | null>(null);
  const [captionDisplay, setCaptionDisplay] = useState<CaptionDisplay>('source');
  const [actAs, setActAs] = useState('');
  const [clipLength, setClipLength] = useState<ClipLength>('auto');
  const [query, setQuery] = useState('');
  const [queryMissing, setQueryMissing] = useState(false);

  const { user } = useSession();
  // The price list (packages/domain): what this mode costs for this video, and what is left.
  const cost = video.duration != null ? taskCost(mode, video.duration * 1000) : null;
  // The picker says per language whether this install can translate into it (issue 13).
  const translation = useTranslationSupport();
  const unavailable = new Set(
    (translation.data?.languages ?? [])
      .filter((language) => !language.available)
      .map((language) => language.code),
  );
  const noEngine = translation.data !== undefined && translation.data.engine === null;
  const targetLanguages = TARGET_LANGUAGES.map((language) =>
    unavailable.has(language.value) || (noEngine && language.value !== sourceLang)
      ? { ...language, label: `${language.label} (needs an LLM endpoint)` }
      : language,
  );
  const error = startTask.error;
  // Balance and usage limits open their own dialog (spec §8); other failures are shown here.
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
      aria-label="Start a task"
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
          aria-label="What to make"
          styles={{ label: { whiteSpace: 'normal', lineHeight: 1.25 } }}
        />
        {mode === 'search' && (
          <TextInput
            label="Your question"
            description="Moments finds the parts of the video that answer it."
            placeholder="e.g. What does the speaker say about pricing?"
            value={query}
            maxLength={500}
            error={queryMissing ? 'Type what you are looking for' : undefined}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              setQueryMissing(false);
            }}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Select
            label="Spoken language"
            data={SOURCE_LANGUAGES}
            value={sourceLang}
            onChange={(value) => setSourceLang(value ?? 'auto')}
            allowDeselect={false}
            searchable
          />
          {mode === 'caption' ? (
            <Select
              label="Translate captions to"
              placeholder="No translation"
              description={
                noEngine
                  ? 'Translation needs a configured LLM endpoint (LLM_BASE_URL) on this server.'
                  : undefined
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
              label="Audience (optional)"
              placeholder="e.g. startup founders"
              description="Moments picks clips that speak to them."
              value={actAs}
              maxLength={200}
              onChange={(event) => setActAs(event.currentTarget.value)}
            />
          )}
        </SimpleGrid>
        {mode === 'viral' && (
          <Select
            label="Clip length"
            description="How long each moment may be."
            data={CLIP_LENGTHS.map((value) => ({ value, label: CLIP_LENGTH_LABELS[value] }))}
            value={clipLength}
            onChange={(value) => setClipLength((value as ClipLength | null) ?? 'auto')}
            allowDeselect={false}
          />
        )}
        {mode === 'caption' && (
          <Select
            label="Caption display"
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
            title="Could not start"
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
            Start
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
