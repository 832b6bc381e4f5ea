import {
  ActionIcon,
  Box,
  Group,
  Image,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import type { Notification } from '@moments/contract';
import { IconAlertTriangle, IconBell, IconCircleCheck, IconTrash } from '@tabler/icons-react';
import { describeNotification, type NotificationTone } from './describe';
import { t } from '../messages/catalogue';
import { formatRelativeTime } from '../messages/domain';

export const TONE_LOOK: Record<NotificationTone, { color: string; icon: typeof IconBell }> = {
  success: { color: 'teal', icon: IconCircleCheck },
  failure: { color: 'red', icon: IconAlertTriangle },
  info: { color: 'gray', icon: IconBell },
};

/** One row of the bell dropdown and of /notification. */
export function NotificationItem({
  notification,
  onOpen,
  onDelete,
  compact = false,
}: {
  notification: Notification;
  onOpen(notification: Notification): void;
  onDelete?(notification: Notification): void;
  compact?: boolean;
}) {
  const { title, body, tone } = describeNotification(notification);
  const look = TONE_LOOK[tone];
  const thumbnail =
    typeof notification.data.thumbnail === 'string' ? notification.data.thumbnail : null;
  return (
    <Group
      wrap="nowrap"
      gap="xs"
      align="flex-start"
      data-testid="notification-item"
      data-viewed={notification.viewed}
      px={compact ? 'xs' : 'md'}
      py="sm"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        background: notification.viewed ? undefined : 'var(--mantine-color-violet-0)',
      }}
    >
      <UnstyledButton onClick={() => onOpen(notification)} style={{ flex: 1, minWidth: 0 }}>
        <Group wrap="nowrap" gap="sm" align="flex-start">
          {thumbnail ? (
            // What it is about: the video's or the export's picture.
            <Box pos="relative" style={{ flexShrink: 0 }}>
              <Image
                src={thumbnail}
                alt=""
                w={compact ? 56 : 72}
                h={compact ? 32 : 40}
                radius="sm"
                fit="cover"
                loading="lazy"
                data-testid="thumbnail"
              />
              <ThemeIcon
                variant="filled"
                color={look.color}
                radius="xl"
                size={16}
                pos="absolute"
                bottom={-4}
                right={-4}
              >
                <look.icon size={11} />
              </ThemeIcon>
            </Box>
          ) : (
            <ThemeIcon variant="light" color={look.color} radius="xl" size={compact ? 32 : 38}>
              <look.icon size={compact ? 18 : 20} />
            </ThemeIcon>
          )}
          <Stack gap={2} miw={0} flex={1}>
            <Group gap={6} wrap="nowrap">
              <Text fw={notification.viewed ? 500 : 700} size="sm" truncate="end">
                {title}
              </Text>
              {!notification.viewed && (
                <Box
                  w={8}
                  h={8}
                  bg="violet.6"
                  style={{ borderRadius: '50%', flexShrink: 0 }}
                  aria-label={t('a11y.unread')}
                />
              )}
            </Group>
            <Text size="sm" c="dimmed" lineClamp={compact ? 2 : 3}>
              {body}
            </Text>
            <Text size="xs" c="dimmed">
              {formatRelativeTime(notification.created)}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
      {onDelete && (
        <Tooltip label={t('notifications.item.delete')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('a11y.deleteNotification')}
            onClick={() => onDelete(notification)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
