import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import type { Moment } from '@moments/contract';
import {
  IconCut,
  IconHeart,
  IconHeartFilled,
  IconNotes,
  IconRefresh,
  IconShare,
  IconThumbDown,
  IconThumbDownFilled,
  IconThumbUp,
  IconThumbUpFilled,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCreateNote } from '../summaries/api';
import { useMomentActions } from './api';
import { absoluteLink } from './format';
import { ShareModal } from './ShareModal';
import { ThumbDownModal } from './ThumbDownModal';
import { t } from '../messages/catalogue';

async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false; // no clipboard permission: the dialog shows the link to copy by hand
  }
}

/** What an owner does with a moment: rate, favourite, share, re-score, open in the clip editor. */
export function MomentActions({ moment }: { moment: Moment }) {
  const { feedback, favorite, share, unshare, refresh } = useMomentActions(moment);
  const createNote = useCreateNote();
  const navigate = useNavigate();
  const [askingWhy, setAskingWhy] = useState(false);
  const [shared, setShared] = useState<{
    link: string;
    copied: boolean;
    published: boolean;
  } | null>(null);
  const failed = [feedback, favorite, share, unshare, refresh, createNote].find(
    (mutation) => mutation.isError,
  );

  const thumbUp = () =>
    feedback.mutate(moment.feedback === 'THUMB_UP' ? { action: null } : { action: 'THUMB_UP' });
  const thumbDown = () => {
    if (moment.feedback === 'THUMB_DOWN') feedback.mutate({ action: null });
    else setAskingWhy(true);
  };
  // Sharing makes an unlisted link; publishing to the home page is a separate choice in the dialog.
  const shareLink = () =>
    share.mutate(
      { publish: false },
      {
        onSuccess: async ({ path }) => {
          const link = absoluteLink(path);
          setShared({ link, copied: await copyToClipboard(link), published: false });
        },
      },
    );
  const setPublished = (publish: boolean) =>
    share.mutate(
      { publish },
      {
        onSuccess: ({ published }) =>
          setShared((current) => current && { ...current, published: published ?? publish }),
      },
    );
  const noteFromMoment = () =>
    createNote.mutate(
      { from: 'moment', id: moment.id },
      { onSuccess: (note) => navigate(`/note/detail/${note.id}`) },
    );
  const stopSharing = () => unshare.mutate(undefined, { onSuccess: () => setShared(null) });

  return (
    <>
      <Group gap={4} wrap="wrap" data-testid="moment-actions">
        <Tooltip
          label={
            moment.feedback === 'THUMB_UP' ? t('moments.actions.undoUp') : t('moments.actions.up')
          }
          withArrow
        >
          <ActionIcon
            variant={moment.feedback === 'THUMB_UP' ? 'light' : 'subtle'}
            color={moment.feedback === 'THUMB_UP' ? 'teal' : 'gray'}
            size="lg"
            aria-label={t('a11y.thumbsUp')}
            aria-pressed={moment.feedback === 'THUMB_UP'}
            loading={feedback.isPending && feedback.variables?.action !== 'THUMB_DOWN'}
            onClick={thumbUp}
          >
            {moment.feedback === 'THUMB_UP' ? (
              <IconThumbUpFilled size={18} />
            ) : (
              <IconThumbUp size={18} />
            )}
          </ActionIcon>
        </Tooltip>
        <Tooltip
          label={
            moment.feedback === 'THUMB_DOWN'
              ? t('moments.actions.undoDown')
              : t('moments.actions.down')
          }
          withArrow
        >
          <ActionIcon
            variant={moment.feedback === 'THUMB_DOWN' ? 'light' : 'subtle'}
            color={moment.feedback === 'THUMB_DOWN' ? 'red' : 'gray'}
            size="lg"
            aria-label={t('a11y.thumbsDown')}
            aria-pressed={moment.feedback === 'THUMB_DOWN'}
            onClick={thumbDown}
          >
            {moment.feedback === 'THUMB_DOWN' ? (
              <IconThumbDownFilled size={18} />
            ) : (
              <IconThumbDown size={18} />
            )}
          </ActionIcon>
        </Tooltip>
        <Tooltip
          label={
            moment.favorite ? t('moments.actions.unfavourite') : t('moments.actions.favourite')
          }
          withArrow
        >
          <ActionIcon
            variant={moment.favorite ? 'light' : 'subtle'}
            color={moment.favorite ? 'pink' : 'gray'}
            size="lg"
            aria-label={t('a11y.favourite')}
            aria-pressed={moment.favorite}
            loading={favorite.isPending}
            onClick={() => favorite.mutate(!moment.favorite)}
          >
            {moment.favorite ? <IconHeartFilled size={18} /> : <IconHeart size={18} />}
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('moments.actions.share')} withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('a11y.share')}
            loading={share.isPending}
            onClick={shareLink}
          >
            <IconShare size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('moments.actions.note')} withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('a11y.createNote')}
            loading={createNote.isPending}
            onClick={noteFromMoment}
          >
            <IconNotes size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('moments.actions.rescore')} withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('a11y.refreshScore')}
            loading={refresh.isPending}
            onClick={() => refresh.mutate()}
          >
            <IconRefresh size={18} />
          </ActionIcon>
        </Tooltip>
        <Button
          component={Link}
          to={`/moment/${encodeURIComponent(moment.id)}/clip`}
          size="xs"
          variant="light"
          leftSection={<IconCut size={14} />}
          ml="auto"
        >
          {t('a11y.editClip')}
        </Button>
      </Group>
      {failed && (
        <Text size="xs" c="red" role="alert">
          {failed.error?.message ?? t('moments.actions.failed')}
        </Text>
      )}
      <ThumbDownModal
        opened={askingWhy}
        onClose={() => setAskingWhy(false)}
        submitting={feedback.isPending}
        onSubmit={(reason, content) =>
          feedback.mutate(
            { action: 'THUMB_DOWN', reason, content },
            { onSuccess: () => setAskingWhy(false) },
          )
        }
      />
      <ShareModal
        link={shared?.link ?? null}
        copied={shared?.copied ?? false}
        published={shared?.published ?? false}
        busy={share.isPending || unshare.isPending}
        onPublishChange={setPublished}
        onUnshare={stopSharing}
        onClose={() => setShared(null)}
      />
    </>
  );
}
