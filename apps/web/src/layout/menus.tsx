import { Indicator, NavLink, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconBell,
  IconCrown,
  IconHome,
  IconSettings,
  IconUserPlus,
  IconVideo,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { useNotificationList } from '../notifications/useNotifications';
import { activeMenuItem, type MenuItemKey } from '../routing/paths';

interface MenuEntry {
  key: MenuItemKey;
  label: string;
  to: string;
  icon: typeof IconHome;
}

/** spec §2 side menu: home, library, plan, invite friends, settings. */
const SIDE_MENU: MenuEntry[] = [
  { key: 'home', label: 'Home', to: '/home', icon: IconHome },
  { key: 'library', label: 'Library', to: '/library/videoTasks', icon: IconVideo },
  { key: 'plan', label: 'Plan', to: '/settings/plan', icon: IconCrown },
  { key: 'invite', label: 'Invite friends', to: '/invite', icon: IconUserPlus },
  { key: 'settings', label: 'Settings', to: '/settings/profile', icon: IconSettings },
];

/** spec §1/§2 mobile bottom menu: home, library, notifications, settings. */
const BOTTOM_MENU: MenuEntry[] = [
  { key: 'home', label: 'Home', to: '/home', icon: IconHome },
  { key: 'library', label: 'Library', to: '/library/videoTasks', icon: IconVideo },
  { key: 'notifications', label: 'Notifications', to: '/notification', icon: IconBell },
  { key: 'settings', label: 'Settings', to: '/settings/profile', icon: IconSettings },
];

export function SideMenu() {
  const active = activeMenuItem(useLocation().pathname);
  return (
    <Stack component="nav" aria-label="Side menu" gap={4}>
      {SIDE_MENU.map(({ key, label, to, icon: Icon }) => (
        <NavLink
          key={key}
          component={Link}
          to={to}
          label={label}
          active={active === key}
          aria-current={active === key ? 'page' : undefined}
          leftSection={<Icon size={20} stroke={1.7} />}
          variant="light"
          // The current page's entry keeps its background under the pointer: its violet text on
          // the darker hover shade falls below the 4.5:1 contrast ratio.
          vars={() => ({
            root: { '--nl-hover': 'var(--mantine-color-violet-light)' },
            children: {},
          })}
          styles={{
            root: { borderRadius: 'var(--mantine-radius-md)' },
            label: { fontWeight: 500 },
          }}
        />
      ))}
    </Stack>
  );
}

export function BottomMenu() {
  const active = activeMenuItem(useLocation().pathname);
  // A dot on the notifications entry while some are unread (the bell's count, on phones).
  const unreadNotifications = useNotificationList().unreadCount;
  return (
    <nav
      aria-label="Bottom menu"
      style={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', height: '100%' }}
    >
      {BOTTOM_MENU.map(({ key, label, to, icon: Icon }) => {
        const isActive = active === key;
        const color = isActive
          ? 'var(--mantine-primary-color-filled)'
          : 'var(--mantine-color-dimmed)';
        return (
          <UnstyledButton
            key={key}
            component={Link}
            to={to}
            aria-current={isActive ? 'page' : undefined}
            style={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 2,
              color,
            }}
          >
            <Indicator
              size={8}
              color="red"
              offset={2}
              disabled={key !== 'notifications' || unreadNotifications === 0}
            >
              <Icon size={22} stroke={isActive ? 2.2 : 1.7} />
            </Indicator>
            <Text size="xs" fw={isActive ? 700 : 500} c="inherit">
              {label}
            </Text>
          </UnstyledButton>
        );
      })}
    </nav>
  );
}
