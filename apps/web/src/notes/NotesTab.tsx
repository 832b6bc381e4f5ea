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
import { formatRelativeTime } from '@moments/domain/format';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useDeferredValue, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreateNote, useNotes } from '../summaries/api';

/** issue 10: the library's Notes tab: search, open, and start a blank note. */
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
          aria-label="Search notes"
          placeholder="Search notes"
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
          New note
        </Button>
      </Group>
      {create.isError && <Alert color="red">{create.error.message}</Alert>}
      {notes.isPending ? (
        <Loader role="status" aria-label="Loading notes" />
      ) : notes.isError ? (
        <Alert color="red">Your notes could not be loaded: {notes.error.message}</Alert>
      ) : notes.data.length === 0 ? (
        <Card withBorder p="xl">
          <Title order={2} size="h4">
            {deferred ? 'No note matches your search' : 'No notes yet'}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            Create a note from a video&apos;s summary or a moment, or start a blank one.
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
                      {note.title || 'Untitled note'}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      Edited {formatRelativeTime(note.updated_at)}
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
