import {
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Image,
  MultiSelect,
  NumberInput,
  Progress,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  ExportOptions,
  PLATFORMS,
  type ExportBatchClip,
  type JobStatus,
  type Moment,
  type Platform,
} from '@moments/contract';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { t, type MessageKey } from '../messages/catalogue';
import { useBatch, useCreateBatch, usePublishKit } from './api';

const STATUS_COLORS: Record<JobStatus, string> = {
  IN_PROGRESS: 'blue',
  DONE: 'teal',
  ERROR: 'red',
};

function CopyText({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button
          size="compact-xs"
          variant={copied ? 'light' : 'subtle'}
          color={copied ? 'teal' : undefined}
          leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
          onClick={copy}
          aria-label={`${t('batch.kit.copy')}: ${label}`}
        >
          {copied ? t('batch.kit.copied') : t('batch.kit.copy')}
        </Button>
      )}
    </CopyButton>
  );
}

/** The rows of one platform's texts: what each is called, and the text a copy button copies. */
const KIT_KEYS: readonly MessageKey[] = [
  'batch.kit.title',
  'batch.kit.caption',
  'batch.kit.hashtags',
];
function kitRows(texts: { title: string; caption: string; hashtags: string[] }) {
  const values = [texts.title, texts.caption, texts.hashtags.join(' ')];
  return KIT_KEYS.map((key, i) => [key, values[i]!] as const);
}

/** A finished clip's publish kit: its cover, and per platform the texts with copy buttons. */
function PublishKitPanel({ jobId, title }: { jobId: string; title: string }) {
  const kit = usePublishKit(jobId, true);
  if (!kit.data) return null;
  return (
    <Stack gap="xs" data-testid="publish-kit">
      <Image src={kit.data.cover_url} alt={t('batch.kit.cover', { title })} w={120} radius="sm" />
      <Tabs defaultValue={kit.data.platforms[0]?.platform}>
        <Tabs.List>
          {kit.data.platforms.map((texts) => (
            <Tabs.Tab key={texts.platform} value={texts.platform}>
              {t(`batch.platform.${texts.platform}` as MessageKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {kit.data.platforms.map((texts) => (
          <Tabs.Panel key={texts.platform} value={texts.platform} pt="xs">
            <Stack gap={6}>
              {kitRows(texts).map(([key, value]) => (
                <Group key={key} justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text size="xs" c="dimmed" fw={600}>
                      {t(key)}
                    </Text>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                      {value}
                    </Text>
                  </Stack>
                  <CopyText value={value} label={t(key)} />
                </Group>
              ))}
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

function BatchClipRow({ clip }: { clip: ExportBatchClip }) {
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder p="sm" data-testid="batch-clip">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600} lineClamp={1}>
          {clip.title}
        </Text>
        <Badge color={STATUS_COLORS[clip.status]} variant="light">
          {t(`batch.status.${clip.status}` as MessageKey)}
        </Badge>
      </Group>
      {clip.status === 'IN_PROGRESS' && (
        <Progress
          mt="xs"
          value={clip.progress}
          aria-label={t('batch.clip.progress', { title: clip.title, progress: clip.progress })}
        />
      )}
      {clip.status === 'ERROR' && clip.error_reason && (
        <Text size="xs" c="red" mt={4}>
          {clip.error_reason}
        </Text>
      )}
      {clip.status === 'DONE' && (
        <Stack gap="xs" mt="xs">
          <Button size="compact-sm" variant="light" onClick={() => setOpen((shown) => !shown)}>
            {t('batch.kit')}
          </Button>
          {open && <PublishKitPanel jobId={clip.job_id} title={clip.title} />}
        </Stack>
      )}
    </Card>
  );
}

/** The batch's clips with their progress, and the ZIP once a clip is ready. */
function BatchView({ batchId }: { batchId: string }) {
  const batch = useBatch(batchId);
  if (!batch.data) return null;
  return (
    <Stack gap="sm" data-testid="batch-view">
      <Progress
        value={batch.data.progress}
        aria-label={t('batch.progress', { progress: batch.data.progress })}
      />
      {batch.data.zip_url && batch.data.status !== 'IN_PROGRESS' && (
        <Button
          component="a"
          href={batch.data.zip_url}
          download
          leftSection={<IconDownload size={16} />}
        >
          {t('batch.zip')}
        </Button>
      )}
      {batch.data.clips.map((clip) => (
        <BatchClipRow key={clip.job_id} clip={clip} />
      ))}
    </Stack>
  );
}

/**
 * "Export all" on a task's moments page: its best N moments (or the ones picked) with one
 * platform and the editor's default options, as one batch.
 */
export function ExportAllPanel({ taskId, moments }: { taskId: string; moments: Moment[] }) {
  const defaults = ExportOptions.parse({});
  const [topN, setTopN] = useState(Math.min(5, moments.length));
  const [picked, setPicked] = useState<string[]>([]);
  const [platform, setPlatform] = useState<Platform>('tiktok');
  const [quality, setQuality] = useState<'720p' | '1080p'>(defaults.quality);
  const [hook, setHook] = useState('');
  const [batchId, setBatchId] = useState<string | null>(null);
  const create = useCreateBatch();
  const count = picked.length || topN;

  const start = () => {
    const options = {
      ...defaults,
      quality,
      platform,
      ...(hook.trim() ? { hook_title: { text: hook.trim(), seconds: 3 } } : {}),
    };
    create.mutate(
      picked.length
        ? { task_id: taskId, moment_ids: picked, options }
        : { task_id: taskId, top_n: topN, options },
      { onSuccess: (created) => setBatchId(created.batch_id) },
    );
  };

  return (
    <Card p="md" data-testid="export-all">
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('batch.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('batch.intro')}
        </Text>
        <Group grow align="flex-end">
          <NumberInput
            label={t('batch.topN')}
            min={1}
            max={Math.min(30, moments.length)}
            value={topN}
            disabled={picked.length > 0}
            onChange={(value) => setTopN(Math.max(1, Number(value) || 1))}
          />
          <Select
            label={t('batch.platform')}
            data={PLATFORMS.map((value) => ({
              value,
              label: t(`batch.platform.${value}` as MessageKey),
            }))}
            value={platform}
            allowDeselect={false}
            onChange={(value) => value && setPlatform(value as Platform)}
          />
          <Select
            label={t('batch.quality')}
            data={['720p', '1080p']}
            value={quality}
            allowDeselect={false}
            onChange={(value) => value && setQuality(value as '720p' | '1080p')}
          />
        </Group>
        <MultiSelect
          label={t('batch.only')}
          placeholder={picked.length ? undefined : t('batch.only.placeholder')}
          data={moments.map((moment) => ({ value: moment.id, label: moment.title }))}
          value={picked}
          onChange={setPicked}
          maxValues={30}
          clearable
        />
        <TextInput
          label={t('batch.hook')}
          value={hook}
          maxLength={120}
          onChange={(event) => setHook(event.currentTarget.value)}
        />
        <Button onClick={start} loading={create.isPending} disabled={count < 1}>
          {t('batch.start', { count })}
        </Button>
        {batchId && <BatchView batchId={batchId} />}
      </Stack>
    </Card>
  );
}
