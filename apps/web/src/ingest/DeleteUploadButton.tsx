import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { VideoMeta } from '@moments/contract';
import { IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import { t } from '../messages/catalogue';

/**
 * The upload result page's delete: the file and its thumbnail leave the server for good (a
 * task still processing it answers UPLOAD_IN_USE, shown in the dialog).
 */
export function DeleteUploadButton({ video, uploadId }: { video: VideoMeta; uploadId: string }) {
  const [opened, setOpened] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      api.delete<null>(`/api/upload/${encodeURIComponent(uploadId)}`, {
        suppressErrorDialog: true,
      }),
    // A full load leaves no state of the deleted upload behind (the page, the upload form).
    onSuccess: () => window.location.assign('/home'),
  });
  return (
    <>
      <Group justify="flex-end">
        <Button
          variant="subtle"
          color="red.9"
          size="xs"
          leftSection={<IconTrash size={14} />}
          onClick={() => setOpened(true)}
        >
          {t('ingest.upload.delete')}
        </Button>
      </Group>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('ingest.upload.deleteTitle')}
        centered
      >
        <Stack>
          <Text size="sm">{t('ingest.upload.deleteText', { title: video.title })}</Text>
          {remove.isError && (
            <Text size="sm" c="red" role="alert">
              {remove.error.message}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t('pages.profile.account.cancel')}
            </Button>
            <Button color="red.9" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('ingest.upload.deleteConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
