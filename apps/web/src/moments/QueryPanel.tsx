import {
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { Task } from '@moments/contract';
import { formatRelativeTime } from '../messages/domain';
import { IconMessageQuestion, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { creditCostText } from '../account/plan';
import { useSession } from '../account/session';
import { useAskQuestion, useQueryHistory, useQuestionQuote } from './api';
import { t } from '../messages/catalogue';

const STATUS_COLORS: Record<Task['status'], string> = {
  START: 'gray',
  IN_PROGRESS: 'blue',
  DONE: 'teal',
  ERROR: 'red',
};

/**
 * Moment search: the question this task answers, the earlier questions on the same
 * video (query history through root_task_id), and a box to ask another one.
 */
export function QueryPanel({ task }: { task: Task }) {
  const rootTaskId = task.root_task_id ?? task.id;
  const history = useQueryHistory(rootTaskId);
  const ask = useAskQuestion(task);
  const quote = useQuestionQuote(rootTaskId);
  const { user } = useSession();
  const navigate = useNavigate();
  const [question, setQuestion] = useState('');
  const questions = (history.data ?? []).filter((item) => item.query);

  return (
    <Card p="lg" data-testid="query-panel">
      <Stack gap="md">
        {task.query && (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            {/* Never shrunk: a long question squeezed the icon to a dot. */}
            <IconMessageQuestion
              size={22}
              color="var(--mantine-color-violet-6)"
              style={{ flexShrink: 0 }}
              aria-hidden
            />
            <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {t('moments.query.yours')}
              </Text>
              <Title order={4} style={{ overflowWrap: 'anywhere' }}>
                {task.query}
              </Title>
            </Stack>
          </Group>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const query = question.trim();
            if (!query) return;
            ask.mutate(query, {
              onSuccess: (started) => {
                setQuestion('');
                void navigate(`/video/${encodeURIComponent(started.id)}/moments`);
              },
            });
          }}
        >
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={task.query ? t('moments.query.another') : t('moments.query.first')}
              placeholder={t('moments.query.placeholder')}
              leftSection={<IconSearch size={16} />}
              value={question}
              maxLength={500}
              onChange={(event) => setQuestion(event.currentTarget.value)}
              error={ask.error?.message}
            />
            <Button type="submit" loading={ask.isPending} disabled={!question.trim()}>
              {t('moments.query.ask')}
            </Button>
          </Group>
          {quote.data && (
            <Text size="xs" c="dimmed" mt={4} data-testid="question-cost">
              {creditCostText(quote.data.total, user)}
            </Text>
          )}
        </form>
        {questions.length > 0 && (
          <Stack gap={4}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('moments.query.history')}
            </Text>
            {questions.map((item) => (
              <UnstyledButton
                key={item.id}
                component={Link}
                to={`/video/${encodeURIComponent(item.id)}/moments`}
                p={6}
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  background: item.id === task.id ? 'var(--mantine-color-violet-0)' : undefined,
                }}
                aria-current={item.id === task.id ? 'page' : undefined}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" truncate="end" fw={item.id === task.id ? 600 : 400}>
                    {item.query}
                  </Text>
                  <Group gap={6} wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {formatRelativeTime(item.created_at)}
                    </Text>
                    <Badge
                      size="xs"
                      // White on the darkest shade reads at 5:1 or more; the light variant's
                      // teal on its tint did not (4.5:1).
                      variant="filled"
                      color={`${STATUS_COLORS[item.status]}.9`}
                    >
                      {item.status === 'IN_PROGRESS'
                        ? t('tasks.row.progress', { percent: Math.round(item.progress) })
                        : t(`tasks.status.${item.status}`)}
                    </Badge>
                  </Group>
                </Group>
              </UnstyledButton>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
