import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  EmptyState,
  Group,
  Loader,
  Modal,
  Progress,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import type { Job } from '@moments/contract';
import { formatDuration, formatRelativeTime } from '@moments/domain/format';
import { IconFolder, IconMovie, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useDeleteJob, useJobList } from './api';
import { JOB_TYPE_LABELS, JobStatusBadge } from './JobStatusBadge';

const PAGE_SIZE = 12;

/** /library/projects: the user's exports, newest first, each linking to its /job page. */
export function ProjectsTab() {
  const [page, setPage] = useState(1);
  const jobs = useJobList(page, PAGE_SIZE);
  const remove = useDeleteJob();
  const [toDelete, setToDelete] = useState<Job | null>(null);

  if (jobs.isPending) {
    return (
      <Center py="xl">
        <Loader type="dots" role="status" aria-label="Loading projects" />
      </Center>
    );
  }
  if (jobs.isError) {
    return (
      <Alert color="red" title="Could not load your projects">
        {jobs.error.message}
      </Alert>
    );
  }
  if (!jobs.data.length && page === 1) {
    return (
      <Card p="xl">
        <EmptyState
          variant="light"
          icon={<IconFolder size={26} />}
          title="No projects yet"
          description="Clips you edit and export are kept here as projects."
        >
          <EmptyState.Actions>
            <Button component={Link} to="/library/moments">
              Pick a moment to clip
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Card>
    );
  }

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" aria-label="Projects" role="list">
        {jobs.data.map((job) => (
          <ProjectCard key={job.job_id} job={job} onDelete={() => setToDelete(job)} />
        ))}
      </SimpleGrid>
      {(page > 1 || jobs.data.length === PAGE_SIZE) && (
        <Group justify="center">
          <Button variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Button
            variant="default"
            disabled={jobs.data.length < PAGE_SIZE}
            onClick={() => setPage(page + 1)}
          >
            Older
          </Button>
        </Group>
      )}
      <Modal
        opened={toDelete !== null}
        onClose={() => setToDelete(null)}
        title="Delete this export?"
        centered
      >
        <Stack>
          <Text size="sm">
            “{toDelete?.title}” and its video file will be deleted. An export that is still
            rendering is stopped and its credit returned.
          </Text>
          {remove.isError && (
            <Text size="sm" c="red">
              {remove.error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setToDelete(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                toDelete && remove.mutate(toDelete.job_id, { onSuccess: () => setToDelete(null) })
              }
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function ProjectCard({ job, onDelete }: { job: Job; onDelete(): void }) {
  const href = `/job/${job.job_id}`;
  return (
    <Card withBorder radius="md" p={0} role="listitem" aria-label={job.title}>
      <Anchor
        component={Link}
        to={href}
        underline="never"
        c="inherit"
        aria-label={`Open ${job.title}`}
      >
        <Center h={160} bg="dark.7" style={{ overflow: 'hidden' }}>
          {job.status === 'DONE' && job.file_url ? (
            // The first frame of the export is its thumbnail; only its metadata is fetched.
            <video
              src={`${job.file_url}#t=0.5`}
              muted
              preload="metadata"
              playsInline
              aria-hidden
              style={{ height: '100%', maxWidth: '100%', objectFit: 'contain' }}
            />
          ) : (
            <IconMovie size={40} color="var(--mantine-color-gray-5)" />
          )}
        </Center>
      </Anchor>
      <Stack gap={6} p="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Anchor component={Link} to={href} fw={600} lineClamp={2} c="inherit">
            {job.title || 'Untitled export'}
          </Anchor>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Delete ${job.title}`}
            onClick={onDelete}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <Group gap="xs">
          <JobStatusBadge job={job} />
          <Text size="xs" c="dimmed">
            {JOB_TYPE_LABELS[job.type]}
            {job.duration_ms ? ` · ${formatDuration(job.duration_ms)}` : ''} ·{' '}
            {formatRelativeTime(job.created_at)}
          </Text>
        </Group>
        {job.status === 'IN_PROGRESS' && (
          <Progress value={job.progress} size="sm" animated aria-label="Export progress" />
        )}
      </Stack>
    </Card>
  );
}
