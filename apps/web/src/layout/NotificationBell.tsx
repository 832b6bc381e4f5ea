import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  Group,
  Indicator,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconBell, IconBellOff, IconChecks, IconPlugConnectedX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { NotificationItem } from '../notifications/NotificationItem';
import { useNotificationActions, useNotificationList } from '../notifications/useNotifications';
import { useOpenNotification } from '../notifications/useOpenNotification';
import { t } from '../messages/catalogue';
import { useRealtimeStatus } from '../realtime';

const DROPDOWN_ITEMS = 8;

/** Header bell with the unread count and the latest notifications. */
export function NotificationBell() {
  const [opened, setOpened] = useState(false);
  const list = useNotificationList();
  const { markAllViewed } = useNotificationActions();
  const open = useOpenNotification();
  const realtime = useRealtimeStatus();
  const unread = list.unreadCount;
  const label = unread
    ? t('layout.notifications.unread', { count: unread })
    : t('layout.notifications');

  return (
    <Popover width={380} position="bottom-end" shadow="md" opened={opened} onChange={setOpened}>
      <Popover.Target>
        <Tooltip label={t('layout.notifications')} disabled={opened}>
          <Indicator
            label={unread > 99 ? '99+' : unread}
            size={18}
            color="red"
            offset={6}
            disabled={unread === 0}
            data-testid="notification-badge"
            data-count={unread}
            data-realtime={realtime.connected ? 'connected' : realtime.state}
          >
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={label}
              onClick={() => setOpened((o) => !o)}
            >
              <IconBell size={20} />
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Group justify="space-between" px="md" py="sm">
          <Text fw={700}>{t('layout.notifications')}</Text>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconChecks size={14} />}
            disabled={unread === 0}
            onClick={() => void markAllViewed()}
          >
            {t('layout.notifications.markAllRead')}
          </Button>
        </Group>
        <Divider />
        {realtime.lastError && !realtime.connected && (
          <Alert
            m="xs"
            p="xs"
            color="yellow"
            variant="light"
            icon={<IconPlugConnectedX size={16} />}
          >
            <Text size="xs">
              {t('layout.notifications.livePaused', { reason: realtime.lastError })}
            </Text>
          </Alert>
        )}
        {!list.loaded ? (
          <Stack align="center" py="lg">
            <Loader size="sm" type="dots" />
          </Stack>
        ) : list.notifications.length === 0 ? (
          <Stack gap="xs" align="center" py="lg" px="md">
            <IconBellOff size={28} color="var(--mantine-color-gray-5)" />
            <Text fw={600}>{t('title.noNotificationsYet')}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('layout.notifications.emptyText')}
            </Text>
          </Stack>
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            <Stack gap={2} p={4}>
              {list.notifications.slice(0, DROPDOWN_ITEMS).map((notification) => (
                <NotificationItem
                  key={notification.id}
                  notification={notification}
                  compact
                  onOpen={(n) => {
                    setOpened(false);
                    void open(n);
                  }}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
        <Divider />
        <Group justify="center" p="xs">
          <Button
            component={Link}
            to="/notification"
            variant="subtle"
            size="xs"
            onClick={() => setOpened(false)}
          >
            {t('layout.notifications.seeAll')}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
