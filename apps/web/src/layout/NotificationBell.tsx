import { ActionIcon, Button, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';

/**
 * Header bell with its dropdown (spec §2). The realtime issue fills it with the notification list
 * and the unread indicator; until then it says honestly that nothing has arrived.
 */
export function NotificationBell() {
  const [opened, setOpened] = useState(false);
  return (
    <Popover width={340} position="bottom-end" shadow="md" opened={opened} onChange={setOpened}>
      <Popover.Target>
        <Tooltip label="Notifications" disabled={opened}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label="Notifications"
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" align="center" py="md">
          <IconBellOff size={28} color="var(--mantine-color-gray-5)" />
          <Text fw={600}>No notifications yet</Text>
          <Text size="sm" c="dimmed" ta="center">
            Finished exports and video tasks will show up here.
          </Text>
          <Button
            component={Link}
            to="/notification"
            variant="light"
            size="xs"
            onClick={() => setOpened(false)}
          >
            Open notifications
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
