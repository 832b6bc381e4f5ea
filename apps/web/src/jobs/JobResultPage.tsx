import {
  Alert,
  Anchor,
  Button,
  Center,
  CopyButton,
  Group,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { Job } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import {
  IconAlertTriangle,
  IconCheck,
  IconDownload,
  IconEdit,
  IconLogin,
  IconShare,
} from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { useSession } from '../account/session';
import { isApiError } from '../api/client';
import { useTopBarVideo } from '../layout/topBarVideo';
import { topBarVideoOf } from '../moments/useVideoTopBar';
import { useTask } from '../tasks/useTasks';
import { loginRedirectHref } from '../routing/paths';
import { useClipShare, useJob } from './api';
import { editPathOf } from './paths';
import { t } from '../messages/catalogue';
import { JOB_TYPE_LABELS, JobStatusBadge } from './JobStatusBadge';

/**
 * /job/{jobId}: an export's progress, then its video with download and share (a route
 * without a login guard, so a signed-out visitor is asked to log in rather than redirected).
 */
export default function JobResultPage() {
  const { jobId = '' } = useParams();
  const location = useLocation();
  const session = useSession();
  const job = useJob(jobId, session.status === 'authenticated');
  const loggedOut =
    session.status === 'anonymous' || (isApiError(job.error) && job.error.status === 401);

  // The top bar shows the job's video (title with its hover card), from its task.
  const task = useTask(job.data?.task_id ?? undefined);
  const video = task.data?.video;
  const topBar = useMemo(
    () => (video ? topBarVideoOf(video) : job.data ? { title: job.data.title } : null),
    [video, job.data],
  );
  useTopBarVideo(topBar);

  if (loggedOut) {
    return (
      <Center h="50vh" p="md">
        <Paper withBorder p="xl" radius="md" maw={440}>
          <Stack align="center" gap="sm">
            <Title order={1} size="h3">
              {t('jobs.result.logInTitle')}
            </Title>
            <Text c="dimmed" ta="center">
              {t('jobs.result.logInText')}
            </Text>
            <Button
              component={Link}
              to={loginRedirectHref(location.pathname, location.search)}
              leftSection={<IconLogin size={18} />}
            >
              {t('jobs.result.logIn')}
            </Button>
          </Stack>
        </Paper>
      </Center>
    );
  }
  const missing = isApiError(job.error) && job.error.status === 404;
  // A failed background refresh keeps the export on screen (a share panel open stays open); only
  // a first load that failed, or an export that is gone, replaces it.
  if (job.error && (!job.data || missing)) {
    return (
      <Center h="50vh" p="md">
        <Alert
          color={missing ? 'gray' : 'red'}
          title={missing ? t('jobs.result.notFound') : t('jobs.result.loadFailed')}
          maw={480}
        >
          {missing ? t('jobs.result.notFoundText') : job.error.message}{' '}
          <Anchor component={Link} to="/library/projects">
            {t('jobs.result.seeProjects')}
          </Anchor>
        </Alert>
      </Center>
    );
  }
  if (!job.data) {
    return (
      <Center h="50vh">
        <Loader type="dots" role="status" aria-label={t('a11y.loadingTheExport')} />
      </Center>
    );
  }
  return <JobResult job={job.data} onMediaExpired={() => void job.refetch()} />;
}

function JobResult({ job, onMediaExpired }: { job: Job; onMediaExpired(): void }) {
  return (
    <Stack maw={860} mx="auto" p={{ base: 'sm', sm: 'md' }} gap="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Title order={1} size="h3" lineClamp={2}>
            {job.title || t('jobs.untitled')}
          </Title>
          <Text size="sm" c="dimmed">
            {JOB_TYPE_LABELS[job.type]}
            {job.duration_ms ? ` · ${formatDuration(job.duration_ms)}` : ''}
          </Text>
        </div>
        <JobStatusBadge job={job} />
      </Group>

      {job.status === 'IN_PROGRESS' && (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600}>{t('jobs.result.rendering')}</Text>
              <Text fw={600} data-testid="job-progress">
                {t('jobs.result.percent', { percent: Math.floor(job.progress) })}
              </Text>
            </Group>
            <Progress value={job.progress} animated striped aria-label={t('a11y.exportProgress')} />
            <Text size="sm" c="dimmed">
              {t('jobs.result.canLeave')}
            </Text>
          </Stack>
        </Paper>
      )}

      {job.status === 'ERROR' && (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={t('title.theExportFailed')}
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{job.error_reason || t('jobs.result.renderFailed')}</Text>
            <Button
              component={Link}
              to={editPathOf(job)}
              variant="white"
              color="red"
              leftSection={<IconEdit size={16} />}
            >
              {job.moment_id ? t('jobs.result.backToEditor') : t('jobs.result.backToVideos')}
            </Button>
          </Stack>
        </Alert>
      )}

      {job.status === 'DONE' && job.file_url && (
        <DoneExport job={job} fileUrl={job.file_url} onMediaExpired={onMediaExpired} />
      )}
    </Stack>
  );
}

function DoneExport({
  job,
  fileUrl,
  onMediaExpired,
}: {
  job: Job;
  fileUrl: string;
  onMediaExpired(): void;
}) {
  const [shareOpen, setShareOpen] = useState(false);
  // One refresh per visit: a file that fails with a fresh address is not an expiry.
  const refreshed = useRef(false);
  const onVideoError = () => {
    if (refreshed.current) return;
    refreshed.current = true;
    onMediaExpired();
  };
  return (
    <Stack gap="md">
      {/* A box of fixed height: the buttons below stay put while the player learns its size. */}
      <Paper
        withBorder
        radius="md"
        p={0}
        style={{
          overflow: 'hidden',
          background: '#000',
          display: 'flex',
          justifyContent: 'center',
          height: 'min(70vh, 720px)',
        }}
      >
        <video
          src={fileUrl}
          poster={job.poster_url ?? undefined}
          controls
          playsInline
          preload="metadata"
          aria-label={t('a11y.exportedVideo')}
          // The signed address expires after some hours; fetching the job again renews it.
          onError={onVideoError}
          style={{ display: 'block', width: '100%', height: '100%', objectFit: 'contain' }}
        />
      </Paper>
      <Group gap="sm">
        <Button
          component="a"
          href={fileUrl}
          download={`${job.title || t('jobs.result.fileName')}.mp4`}
          leftSection={<IconDownload size={18} />}
        >
          {t('jobs.result.download')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconShare size={18} />}
          onClick={() => setShareOpen((open) => !open)}
        >
          {t('a11y.share')}
        </Button>
        {job.moment_id && (
          <Button
            component={Link}
            to={editPathOf(job)}
            variant="subtle"
            leftSection={<IconEdit size={18} />}
          >
            {t('jobs.result.editAgain')}
          </Button>
        )}
      </Group>
      {shareOpen && <ClipSharePanel job={job} />}
    </Stack>
  );
}

/**
 * Share: an unlisted public page of this clip that anyone can open without an account,
 * made on demand and revocable; the link shown is that page, not this owner-only one.
 */
function ClipSharePanel({ job }: { job: Job }) {
  const { share, unshare } = useClipShare(job.job_id);
  const link = job.share_id ? `${window.location.origin}/s/${job.share_id}?clip=1` : null;
  return (
    <Paper withBorder p="sm" radius="md" aria-label={t('clip.share.title')} component="section">
      <Stack gap="xs">
        <Text fw={600}>{t('clip.share.title')}</Text>
        <Text size="sm" c="dimmed">
          {t('clip.share.text')}
        </Text>
        {link ? (
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label={t('clip.share.link')}
              value={link}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              style={{ flex: 1 }}
            />
            <CopyButton value={link}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'filled'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : undefined}
                  onClick={copy}
                >
                  {copied ? t('jobs.share.copied') : t('a11y.copyLink')}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : null}
        <Group gap="xs">
          {link ? (
            <Button
              variant="default"
              color="red"
              loading={unshare.isPending}
              onClick={() => unshare.mutate()}
            >
              {t('clip.share.stop')}
            </Button>
          ) : (
            <Button loading={share.isPending} onClick={() => share.mutate()}>
              {t('clip.share.start')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
