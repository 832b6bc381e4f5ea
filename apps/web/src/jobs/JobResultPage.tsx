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
import { useJob } from './api';
import { JOB_TYPE_LABELS, JobStatusBadge } from './JobStatusBadge';

/** Where to fix an export: its moment's editor, or the tasks list for whole-video caption exports. */
export function editPathOf(job: Pick<Job, 'moment_id'>): string {
  return job.moment_id ? `/moment/${job.moment_id}/clip` : '/library/videoTasks';
}

/**
 * /job/{jobId}: an export's progress, then its video with download and share (spec §2; listed
 * without login, so a signed-out visitor is asked to log in rather than redirected).
 */
export default function JobResultPage() {
  const { jobId = '' } = useParams();
  const location = useLocation();
  const session = useSession();
  const job = useJob(jobId, session.status === 'authenticated');
  const loggedOut =
    session.status === 'anonymous' || (isApiError(job.error) && job.error.status === 401);

  // spec §2: the top bar shows the job's video (title with its hover card), from its task.
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
            <Title order={3}>Log in to see this export</Title>
            <Text c="dimmed" ta="center">
              Exports are kept in their owner&apos;s account. Log in to watch and download it.
            </Text>
            <Button
              component={Link}
              to={loginRedirectHref(location.pathname, location.search)}
              leftSection={<IconLogin size={18} />}
            >
              Log in
            </Button>
          </Stack>
        </Paper>
      </Center>
    );
  }
  if (job.error) {
    const missing = isApiError(job.error) && job.error.status === 404;
    return (
      <Center h="50vh" p="md">
        <Alert
          color={missing ? 'gray' : 'red'}
          title={missing ? 'Export not found' : 'Could not load the export'}
          maw={480}
        >
          {missing
            ? 'This export does not exist, was deleted, or belongs to someone else.'
            : job.error.message}{' '}
          <Anchor component={Link} to="/library/projects">
            See your projects
          </Anchor>
        </Alert>
      </Center>
    );
  }
  if (!job.data) {
    return (
      <Center h="50vh">
        <Loader type="dots" role="status" aria-label="Loading the export" />
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
          <Title order={2} size="h3" lineClamp={2}>
            {job.title || 'Untitled export'}
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
              <Text fw={600}>Rendering your clip…</Text>
              <Text fw={600} data-testid="job-progress">
                {Math.floor(job.progress)}%
              </Text>
            </Group>
            <Progress value={job.progress} animated striped aria-label="Export progress" />
            <Text size="sm" c="dimmed">
              You can leave this page; you will get a notification when the video is ready.
            </Text>
          </Stack>
        </Paper>
      )}

      {job.status === 'ERROR' && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="The export failed">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{job.error_reason || 'The video could not be rendered.'}</Text>
            <Button
              component={Link}
              to={editPathOf(job)}
              variant="white"
              color="red"
              leftSection={<IconEdit size={16} />}
            >
              {job.moment_id ? 'Back to the editor' : 'Back to your videos'}
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
  const shareLink = `${window.location.origin}/job/${job.job_id}`;
  return (
    <Stack gap="md">
      <Paper
        withBorder
        radius="md"
        p={0}
        style={{
          overflow: 'hidden',
          background: '#000',
          display: 'flex',
          justifyContent: 'center',
        }}
      >
        <video
          src={fileUrl}
          controls
          playsInline
          preload="metadata"
          aria-label="Exported video"
          // The signed address expires after some hours; fetching the job again renews it.
          onError={onVideoError}
          style={{ display: 'block', maxWidth: '100%', maxHeight: '70vh' }}
        />
      </Paper>
      <Group gap="sm">
        <Button
          component="a"
          href={fileUrl}
          download={`${job.title || 'clip'}.mp4`}
          leftSection={<IconDownload size={18} />}
        >
          Download MP4
        </Button>
        <Button
          variant="default"
          leftSection={<IconShare size={18} />}
          onClick={() => setShareOpen((open) => !open)}
        >
          Share
        </Button>
        {job.moment_id && (
          <Button
            component={Link}
            to={editPathOf(job)}
            variant="subtle"
            leftSection={<IconEdit size={18} />}
          >
            Edit again
          </Button>
        )}
      </Group>
      {shareOpen && (
        <Paper withBorder p="sm" radius="md">
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label="Link to this export"
              description="Whoever opens it must be logged in to this account."
              value={shareLink}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              style={{ flex: 1 }}
            />
            <CopyButton value={shareLink}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'light' : 'filled'}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : undefined}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Paper>
      )}
    </Stack>
  );
}
