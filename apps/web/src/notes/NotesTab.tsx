import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreateNote, useNotes } from '../summaries/api';
import { t } from '../messages/catalogue';
import { formatRelativeTime } from '../messages/domain';

/** The library's Notes tab: search, open, and start a blank note. */
export function NotesTab() {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query.trim());
  const notes = useNotes(deferred);
  const create = useCreateNote();
  const navigate = useNavigate();
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <TextInput
          aria-label={t('a11y.searchNotes')}
          placeholder={t('a11y.searchNotes')}
          leftSection={<IconSearch size={16} />}
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Button
          leftSection={<IconPlus size={16} />}
          loading={create.isPending}
          onClick={() =>
            create.mutate(
              { from: 'blank' },
              { onSuccess: (note) => navigate(`/note/detail/${note.id}`) },
            )
          }
        >
          {t('notes.list.new')}
        </Button>
      </Group>
      {create.isError && <Alert color="red">{create.error.message}</Alert>}
      {notes.isPending ? (
        <Loader role="status" aria-label={t('a11y.loadingNotes')} />
      ) : notes.isError ? (
        <Alert color="red">{t('notes.list.loadFailed', { reason: notes.error.message })}</Alert>
      ) : notes.data.length === 0 ? (
        <Card withBorder p="xl">
          <Title order={2} size="h4">
            {deferred ? t('notes.list.noMatch') : t('notes.list.empty')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('notes.list.emptyText')}
          </Text>
        </Card>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {notes.data.map((note) => (
            <li key={note.id}>
              <UnstyledButton
                component={Link}
                to={`/note/detail/${note.id}`}
                style={{ display: 'block' }}
              >
                <Card withBorder data-testid="note-card">
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={600} lineClamp={1}>
                      {note.title || t('notes.untitled')}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {t('notes.list.edited', { when: formatRelativeTime(note.updated_at) })}
                    </Text>
                  </Group>
                </Card>
              </UnstyledButton>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
