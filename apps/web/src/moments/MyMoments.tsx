import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  EmptyState,
  Group,
  Image,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { Moment, Task } from '@moments/contract';
import { formatRelativeTime } from '../messages/domain';
import {
  IconAlertTriangle,
  IconCut,
  IconHeart,
  IconHeartFilled,
  IconPlayerPlayFilled,
  IconSparkles,
  IconThumbDown,
  IconThumbUp,
  IconX,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTaskIndex, useMyMoments, useUnclip, type MyMomentsList } from './api';
import { formatClipLength, formatSpan } from './format';
import { ScoreBadge } from './ScoreRing';
import { t } from '../messages/catalogue';

const LISTS: Array<{ value: MyMomentsList; label: string; empty: string; description: string }> = [
  {
    value: 'all',
    label: t('moments.mine.all'),
    empty: t('moments.mine.all.empty'),
    description: t('moments.mine.all.text'),
  },
  {
    value: 'favorites',
    label: t('moments.mine.favourites'),
    empty: t('moments.mine.favourites.empty'),
    description: t('moments.mine.favourites.text'),
  },
  {
    value: 'clipped',
    label: t('moments.mine.clipped'),
    empty: t('moments.mine.clipped.empty'),
    description: t('moments.mine.clipped.text'),
  },
];

export function isMyMomentsList(value: string | null): value is MyMomentsList {
  return LISTS.some((list) => list.value === value);
}

/** The user's moments as cards: all of them, favourites, or those exported as clips. */
export function MyMoments({
  list,
  onListChange,
}: {
  list: MyMomentsList;
  onListChange(list: MyMomentsList): void;
}) {
  const moments = useMyMoments(list);
  const tasks = useTaskIndex();
  const current = LISTS.find((item) => item.value === list) ?? LISTS[0]!;

  return (
    <Stack gap="md">
      <SegmentedControl
        value={list}
        onChange={(value) => onListChange(value as MyMomentsList)}
        data={LISTS.map(({ value, label }) => ({ value, label }))}
        aria-label={t('a11y.whichMoments')}
        w={{ base: '100%', xs: 'auto' }}
        style={{ alignSelf: 'flex-start' }}
      />
      {moments.isPending ? (
        <Center h={200}>
          <Loader />
        </Center>
      ) : moments.isError ? (
        <Alert
          color="red"
          icon={<IconAlertTriangle size={18} />}
          title={t('title.couldNotLoadYourMoments')}
        >
          {moments.error.message}
        </Alert>
      ) : moments.data.length === 0 ? (
        <Card p="xl">
          <EmptyState
            variant="light"
            icon={<IconSparkles size={26} />}
            title={current.empty}
            description={current.description}
          >
            <EmptyState.Actions>
              <Button component={Link} to="/home">
                {t('search.empty.addVideo')}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="my-moments">
          {moments.data.map((moment) => (
            <MyMomentCard
              key={moment.id}
              moment={moment}
              task={tasks.data?.get(moment.task_id)}
              clipped={list === 'clipped'}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function MyMomentCard({
  moment,
  task,
  clipped,
}: {
  moment: Moment;
  task?: Task;
  clipped: boolean;
}) {
  const unclip = useUnclip();
  const href = `/video/${encodeURIComponent(moment.task_id)}/moments?moment=${encodeURIComponent(moment.id)}`;
  return (
    <Card
      p={0}
      data-testid="my-moment-card"
      data-moment-id={moment.id}
      style={{ overflow: 'hidden' }}
    >
      <Box component={Link} to={href} pos="relative" display="block">
        <VisuallyHidden>{moment.title}</VisuallyHidden>
        {(moment.thumbnail ?? task?.video.thumbnail) ? (
          <Image
            src={moment.thumbnail ?? task?.video.thumbnail}
            alt=""
            h={140}
            fit="cover"
            loading="lazy"
            data-testid="thumbnail"
          />
        ) : (
          <Center
            h={140}
            style={{
              background:
                'linear-gradient(135deg, var(--mantine-color-violet-1), var(--mantine-color-indigo-0))',
            }}
          >
            <IconPlayerPlayFilled size={36} color="var(--mantine-color-violet-4)" />
          </Center>
        )}
        <Badge
          pos="absolute"
          bottom={8}
          right={8}
          color="dark"
          variant="filled"
          radius="sm"
          tt="none"
          style={{ opacity: 0.85 }}
        >
          {formatClipLength(moment.start, moment.end)}
        </Badge>
      </Box>
      <Stack gap={6} p="md" style={{ flex: 1 }}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Text
            component={Link}
            to={href}
            fw={600}
            lineClamp={2}
            style={{ color: 'inherit', textDecoration: 'none' }}
          >
            {moment.title}
          </Text>
          <ScoreBadge score={moment.score} />
        </Group>
        {task && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {task.video.title || t('summaries.untitledVideo')}
          </Text>
        )}
        <Group gap={6} mt="auto" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {formatSpan(moment.start, moment.end)} · {formatRelativeTime(moment.created_at)}
          </Text>
          <Group gap={2} ml="auto" wrap="nowrap">
            {moment.favorite ? (
              <IconHeartFilled
                size={16}
                color="var(--mantine-color-pink-6)"
                aria-label={t('a11y.favourite')}
              />
            ) : (
              <IconHeart size={16} color="var(--mantine-color-gray-4)" aria-hidden />
            )}
            {moment.feedback === 'THUMB_UP' && (
              <IconThumbUp
                size={16}
                color="var(--mantine-color-teal-6)"
                aria-label={t('a11y.ratedGood')}
              />
            )}
            {moment.feedback === 'THUMB_DOWN' && (
              <IconThumbDown
                size={16}
                color="var(--mantine-color-red-6)"
                aria-label={t('a11y.ratedBad')}
              />
            )}
            <Tooltip label={t('a11y.editClip')} withArrow>
              <ActionIcon
                component={Link}
                to={`/moment/${encodeURIComponent(moment.id)}/clip`}
                variant="subtle"
                color="gray"
                size="sm"
                aria-label={t('a11y.editClip')}
              >
                <IconCut size={16} />
              </ActionIcon>
            </Tooltip>
            {clipped && (
              <Tooltip label={t('a11y.removeFromClipped')} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="sm"
                  aria-label={t('a11y.removeFromClipped')}
                  loading={unclip.isPending}
                  onClick={() => unclip.mutate(moment.id)}
                >
                  <IconX size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}
