import { Button, Card, Center, EmptyState, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { useNotificationActions, useNotificationList } from './useNotifications';
import { NotificationItem } from './NotificationItem';
import { useOpenNotification } from './useOpenNotification';
import { t } from '../messages/catalogue';

/** /notification (the mobile menu entry): every notification, 20 at a time. */
export default function NotificationsPage() {
  const list = useNotificationList();
  const { markAllViewed, remove } = useNotificationActions();
  const open = useOpenNotification();

  return (
    <Stack maw={760} mx="auto" gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {t('notifications.page.title')}
        </Title>
        <Button
          variant="light"
          size="sm"
          leftSection={<IconChecks size={16} />}
          disabled={list.unreadCount === 0}
          onClick={() => void markAllViewed()}
        >
          {t('notifications.page.markAllRead')}
        </Button>
      </Group>
      {!list.loaded ? (
        <Center py="xl">
          <Loader type="dots" />
        </Center>
      ) : list.notifications.length === 0 ? (
        <Card p="xl">
          <EmptyState
            variant="light"
            icon={<IconBellOff size={26} />}
            title={t('title.noNotificationsYet')}
            description={t('notifications.page.empty')}
          />
        </Card>
      ) : (
        <Card p={4} data-testid="notification-list">
          <Stack gap={2}>
            {list.notifications.map((notification) => (
              <NotificationItem
                key={notification.id}
                notification={notification}
                onOpen={(n) => void open(n)}
                onDelete={(n) => void remove([n.id])}
              />
            ))}
          </Stack>
          {list.hasMore && (
            <Group justify="center" p="sm">
              <Button variant="default" loading={list.loadingMore} onClick={list.loadMore}>
                {t('notifications.page.loadMore')}
              </Button>
            </Group>
          )}
          {!list.hasMore && list.notifications.length > 20 && (
            <Text size="xs" c="dimmed" ta="center" p="sm">
              {t('notifications.page.end')}
            </Text>
          )}
        </Card>
      )}
    </Stack>
  );
}
