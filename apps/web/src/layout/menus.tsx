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
import { activeBottomMenuItem, activeMenuItem, type MenuItemKey } from '../routing/paths';
import { t, type MessageKey } from '../messages/catalogue';

interface MenuEntry {
  key: MenuItemKey;
  label: MessageKey;
  to: string;
  icon: typeof IconHome;
}

/** The side menu: home, library, plan, invite friends, settings. */
const SIDE_MENU: MenuEntry[] = [
  { key: 'home', label: 'layout.menu.home', to: '/home', icon: IconHome },
  { key: 'library', label: 'title.library', to: '/library/videoTasks', icon: IconVideo },
  { key: 'plan', label: 'layout.menu.plan', to: '/settings/plan', icon: IconCrown },
  { key: 'invite', label: 'a11y.inviteFriends', to: '/invite', icon: IconUserPlus },
  { key: 'settings', label: 'title.settings', to: '/settings/profile', icon: IconSettings },
];

/** The mobile bottom menu: home, library, notifications, settings. */
const BOTTOM_MENU: MenuEntry[] = [
  { key: 'home', label: 'layout.menu.home', to: '/home', icon: IconHome },
  { key: 'library', label: 'title.library', to: '/library/videoTasks', icon: IconVideo },
  { key: 'notifications', label: 'layout.notifications', to: '/notification', icon: IconBell },
  { key: 'settings', label: 'title.settings', to: '/settings/profile', icon: IconSettings },
];

export function SideMenu() {
  const active = activeMenuItem(useLocation().pathname);
  return (
    <Stack component="nav" aria-label={t('a11y.sideMenu')} gap={4}>
      {SIDE_MENU.map(({ key, label, to, icon: Icon }) => (
        <NavLink
          key={key}
          component={Link}
          to={to}
          label={t(label)}
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

const ACTIVE_COLOR = 'var(--mantine-primary-color-filled)';
const IDLE_COLOR = 'var(--mantine-color-dimmed)';

export function BottomMenu() {
  const active = activeBottomMenuItem(useLocation().pathname);
  // A dot on the notifications entry while some are unread (the bell's count, on phones).
  const unreadNotifications = useNotificationList().unreadCount;
  return (
    <nav
      aria-label={t('a11y.bottomMenu')}
      style={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', height: '100%' }}
    >
      {BOTTOM_MENU.map(({ key, label, to, icon: Icon }) => {
        const isActive = active === key;
        const color = isActive ? ACTIVE_COLOR : IDLE_COLOR;
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
              {t(label)}
            </Text>
          </UnstyledButton>
        );
      })}
    </nav>
  );
}
