import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconShare, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../api/client';
import { ShareLinkModal } from '../summaries/ShareLinkModal';
import { useNote, useNoteActions } from '../summaries/api';
import { NoteEditor } from './NoteEditor';
import { t } from '../messages/catalogue';

const AUTOSAVE_DELAY_MS = 700;

/** /note/detail/{noteId}: edit with autosave, share, delete. Owner only. */
export default function NoteDetailPage() {
  const { noteId = '' } = useParams();
  const navigate = useNavigate();
  const note = useNote(noteId);
  const actions = useNoteActions(noteId);
  const [title, setTitle] = useState<string | null>(null);
  const [status, setStatus] = useState<'saved' | 'pending' | 'saving' | 'failed'>('saved');
  const [shareOpen, setShareOpen] = useState(false);
  const pending = useRef<{ title?: string; content_html?: string }>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = () => {
    const patch = pending.current;
    pending.current = {};
    if (!Object.keys(patch).length) return;
    setStatus('saving');
    actions.save.mutate(patch, {
      onSuccess: () => setStatus(Object.keys(pending.current).length ? 'pending' : 'saved'),
      onError: () => setStatus('failed'),
    });
  };
  const schedule = (patch: { title?: string; content_html?: string }) => {
    pending.current = { ...pending.current, ...patch };
    setStatus('pending');
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, AUTOSAVE_DELAY_MS);
  };
  // Leaving the page saves what is still waiting.
  const flushRef = useRef(flush);
  useEffect(() => {
    flushRef.current = flush;
  });
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      flushRef.current();
    },
    [],
  );

  if (note.isPending)
    return (
      <Container py="xl">
        <Loader role="status" aria-label={t('a11y.loadingTheNote')} />
      </Container>
    );
  // A failed background refresh keeps the note being written on screen; a deleted one does not.
  if (note.isLoadingError || (isApiError(note.error) && note.error.status === 404))
    return (
      <Container py="xl" size="sm">
        <Title order={1} size="h2" mb="md">
          {t('notes.detail.notFound')}
        </Title>
        <Text mb="md">
          {isApiError(note.error) && note.error.status === 404
            ? t('notes.detail.notYours')
            : note.error?.message}
        </Text>
        <Anchor component={Link} to="/library/notes">
          {t('notes.detail.backToNotes')}
        </Anchor>
      </Container>
    );

  const data = note.data;
  return (
    <Container size="md" py="md">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Anchor component={Link} to="/library/notes" size="sm">
            {t('notes.detail.allNotes')}
          </Anchor>
          <Group gap="xs">
            <Text
              size="sm"
              c={status === 'failed' ? 'red' : 'dimmed'}
              aria-live="polite"
              data-testid="note-save-status"
            >
              {status === 'saved'
                ? t('notes.detail.saved')
                : status === 'failed'
                  ? t('notes.detail.notSaved')
                  : t('notes.detail.saving')}
            </Text>
            <Button
              variant="default"
              leftSection={<IconShare size={16} />}
              onClick={() => setShareOpen(true)}
            >
              {t('a11y.share')}
            </Button>
            <Button
              variant="default"
              color="red"
              leftSection={<IconTrash size={16} />}
              loading={actions.remove.isPending}
              onClick={() => {
                if (!window.confirm(t('notes.detail.confirmDelete'))) return;
                clearTimeout(timer.current);
                pending.current = {};
                actions.remove.mutate(undefined, { onSuccess: () => navigate('/library/notes') });
              }}
            >
              {t('notes.detail.delete')}
            </Button>
          </Group>
        </Group>
        <VisuallyHidden>
          <Title order={1}>{title ?? data.title}</Title>
        </VisuallyHidden>
        <TextInput
          label={t('notes.detail.title')}
          size="lg"
          value={title ?? data.title}
          onChange={(event) => {
            setTitle(event.currentTarget.value);
            schedule({ title: event.currentTarget.value });
          }}
        />
        {data.task_id && (
          <Text size="sm">
            {t('notes.detail.from')}{' '}
            <Anchor component={Link} to={`/video/${data.task_id}/summary`}>
              {t('notes.detail.fromSummary')}
            </Anchor>
            {t('notes.detail.timeLinks')}
          </Text>
        )}
        <NoteEditor
          label={t('notes.detail.text')}
          initialHtml={data.content_html}
          onChange={(html) => schedule({ content_html: html })}
        />
        {actions.remove.isError && <Alert color="red">{actions.remove.error.message}</Alert>}
      </Stack>
      <ShareLinkModal
        opened={shareOpen}
        onClose={() => setShareOpen(false)}
        what="note"
        sharePath={data.share_id ? `/s/${data.share_id}?note=1` : null}
        onShare={() => actions.share.mutateAsync().then((r) => r.path)}
        onUnshare={() => actions.unshare.mutateAsync().then(() => undefined)}
      />
    </Container>
  );
}
