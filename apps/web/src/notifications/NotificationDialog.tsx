import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Notification } from '@moments/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { editPathOf } from '../jobs/paths';
import { fetchJob } from './api';
import { describeNotification } from './describe';
import { showNotificationDialog, useNotificationDialog } from './dialogStore';
import { TONE_LOOK } from './NotificationItem';
import { t } from '../messages/catalogue';

const BUTTON_LABELS = {
  'video-tasks': t('notifications.dialog.videoTasks'),
  job: t('notifications.dialog.job'),
  'moment-clip': t('notifications.dialog.momentClip'),
  none: t('common.close'),
} as const;

/** The dialogs of an opened notification. */
export function NotificationDialog() {
  const notification = useNotificationDialog();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const close = () => showNotificationDialog(null);

  const follow = async (opened: Notification) => {
    const { target } = describeNotification(opened);
    const data = opened.data as { job_id?: string; moment_id?: string | null };
    if (target === 'video-tasks') void navigate('/library/videoTasks');
    if (target === 'job' && data.job_id) void navigate(`/job/${data.job_id}`);
    if (target === 'moment-clip' && data.job_id) {
      // The failure dialog's button fetches the job to find its moment.
      setBusy(true);
      // Unreadable job: fall back to the notification's own moment id below.
      const job = await fetchJob(data.job_id).catch(() => null);
      setBusy(false);
      // The failed export's own settings open, so the user fixes what was exported.
      if (job?.moment_id) void navigate(editPathOf(job));
      else if (data.moment_id) void navigate(`/moment/${data.moment_id}/clip`);
    }
    close();
  };

  const text = notification ? describeNotification(notification) : null;
  const look = text ? TONE_LOOK[text.tone] : null;
  return (
    <Modal
      opened={notification !== null}
      onClose={close}
      withCloseButton={false}
      size="sm"
      aria-labelledby="notification-dialog-title"
    >
      {notification && text && look && (
        <Stack align="center" ta="center" gap="sm" py="sm" data-testid="notification-dialog">
          <ThemeIcon size={56} radius="xl" variant="light" color={look.color}>
            <look.icon size={30} />
          </ThemeIcon>
          <Text fw={700} size="lg" id="notification-dialog-title">
            {text.title}
          </Text>
          <Text size="sm" c="dimmed">
            {text.body}
          </Text>
          <Group mt="sm" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.close')}
            </Button>
            <Button loading={busy} onClick={() => void follow(notification)}>
              {BUTTON_LABELS[text.target]}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
