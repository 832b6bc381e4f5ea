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
import { formatDuration } from '@moments/domain/format';
import { IconFolder, IconMovie, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useDeleteJob, useJobList } from './api';
import { JOB_TYPE_LABELS, JobStatusBadge } from './JobStatusBadge';
import { t } from '../messages/catalogue';
import { formatRelativeTime } from '../messages/domain';

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
        <Loader type="dots" role="status" aria-label={t('a11y.loadingProjects')} />
      </Center>
    );
  }
  if (jobs.isLoadingError) {
    return (
      <Alert color="red" title={t('title.couldNotLoadYourProjects')}>
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
          title={t('title.noProjectsYet')}
          description={t('jobs.projects.empty')}
        >
          <EmptyState.Actions>
            <Button component={Link} to="/library/moments">
              {t('jobs.projects.pickMoment')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      </Card>
    );
  }

  return (
    <Stack gap="md">
      <SimpleGrid
        cols={{ base: 1, xs: 2, md: 3 }}
        spacing="md"
        aria-label={t('a11y.projects')}
        role="list"
      >
        {jobs.data.map((job) => (
          <ProjectCard key={job.job_id} job={job} onDelete={() => setToDelete(job)} />
        ))}
      </SimpleGrid>
      {(page > 1 || jobs.data.length === PAGE_SIZE) && (
        <Group justify="center">
          <Button variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
            {t('jobs.projects.newer')}
          </Button>
          <Button
            variant="default"
            disabled={jobs.data.length < PAGE_SIZE}
            onClick={() => setPage(page + 1)}
          >
            {t('jobs.projects.older')}
          </Button>
        </Group>
      )}
      <Modal
        opened={toDelete !== null}
        onClose={() => setToDelete(null)}
        title={t('title.deleteThisExport')}
        centered
      >
        <Stack>
          <Text size="sm">{t('jobs.projects.deleteText', { title: toDelete?.title ?? '' })}</Text>
          {remove.isError && (
            <Text size="sm" c="red">
              {remove.error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setToDelete(null)}>
              {t('jobs.projects.cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                toDelete && remove.mutate(toDelete.job_id, { onSuccess: () => setToDelete(null) })
              }
            >
              {t('jobs.projects.confirmDelete')}
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
        aria-label={t('jobs.projects.open', { title: job.title })}
      >
        <Center h={160} bg="dark.7" style={{ overflow: 'hidden' }}>
          {job.poster_url ? (
            // The export's poster: a frame of the finished MP4 the server stored.
            <img
              src={job.poster_url}
              alt=""
              loading="lazy"
              data-testid="thumbnail"
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
            {job.title || t('jobs.untitled')}
          </Anchor>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('jobs.projects.delete', { title: job.title })}
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
          <Progress value={job.progress} size="sm" animated aria-label={t('a11y.exportProgress')} />
        )}
      </Stack>
    </Card>
  );
}
