import {
  Anchor,
  Avatar,
  Button,
  Group,
  Loader,
  Menu,
  Modal,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { EXTERNAL_TOOLS, type UserInfo } from '@moments/contract';
import {
  IconBolt,
  IconBrandDiscord,
  IconChevronDown,
  IconExternalLink,
  IconTools,
  IconUserPlus,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { COMMUNITY_CHAT_URL, EXTERNAL_TOOL_LABELS, externalToolUrl } from '../config';
import { NotificationBell } from './NotificationBell';
import { t } from '../messages/catalogue';

export function userInitial(user: Pick<UserInfo, 'username' | 'email'>): string {
  return (user.username.trim()[0] ?? user.email[0] ?? '?').toUpperCase();
}

function AccountAvatar({ user, size = 34 }: { user: UserInfo; size?: number }) {
  return (
    <Tooltip label={user.username}>
      <Avatar
        component={Link}
        to="/settings/profile"
        size={size}
        radius="xl"
        color="violet"
        variant="filled"
        aria-label={t('layout.accountSettingsFor', { name: user.username })}
      >
        {userInitial(user)}
      </Avatar>
    </Tooltip>
  );
}

/** The header when logged in: bell, upgrade, avatar. */
export function AccountActions({ user }: { user: UserInfo }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <NotificationBell />
      <Button
        component={Link}
        to="/settings/plan"
        variant="gradient"
        gradient={{ from: 'violet.6', to: 'grape.5', deg: 135 }}
        leftSection={<IconBolt size={16} />}
        size="sm"
      >
        {t('layout.upgrade')}
      </Button>
      <AccountAvatar user={user} />
    </Group>
  );
}

/** Mobile header when logged in: the same bell and upgrade as on the web, compact. */
export function MobileAccountActions({ user }: { user: UserInfo }) {
  return (
    <Group gap={6} wrap="nowrap">
      <NotificationBell />
      <Button
        component={Link}
        to="/settings/plan"
        size="compact-sm"
        variant="gradient"
        gradient={{ from: 'violet.6', to: 'grape.5', deg: 135 }}
        aria-label={t('a11y.upgrade')}
        px={8}
      >
        <IconBolt size={16} />
      </Button>
      <Button
        component={Link}
        to="/invite"
        size="compact-sm"
        variant="light"
        aria-label={t('a11y.inviteFriends')}
        px={8}
      >
        <IconUserPlus size={16} />
      </Button>
      <AccountAvatar user={user} size={30} />
    </Group>
  );
}

/** The Tools dropdown: the tools' pages in a new tab. */
function ToolsMenu() {
  return (
    <Menu position="bottom-start" shadow="md" width={240}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          rightSection={<IconChevronDown size={14} />}
          leftSection={<IconTools size={16} />}
        >
          {t('layout.tools')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {EXTERNAL_TOOLS.map((tool) => (
          // Each tool opens in a new tab, the product's own start form by default.
          <Menu.Item
            key={tool}
            component="a"
            href={externalToolUrl(tool)}
            target="_blank"
            rel="noopener noreferrer"
            rightSection={<IconExternalLink size={14} />}
          >
            {EXTERNAL_TOOL_LABELS[tool]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The help page's feedback form, loaded when a visitor opens it. */
const FeedbackForm = lazy(() =>
  import('../pages/settings/FaqSettings').then((module) => ({ default: module.FeedbackForm })),
);

/**
 * The community link of the logged-out header: a configured chat opens in a new tab; without one
 * the help page's feedback form would be behind the login, so a visitor gets the form right here.
 */
function CommunityLink() {
  const [open, setOpen] = useState(false);
  const label = (
    <Group gap={6} wrap="nowrap">
      <IconBrandDiscord size={16} aria-hidden />
      {t('layout.community')}
    </Group>
  );
  if (!COMMUNITY_CHAT_URL.startsWith('/')) {
    return (
      <Anchor
        href={COMMUNITY_CHAT_URL}
        target="_blank"
        rel="noopener noreferrer"
        c="dimmed"
        size="sm"
        fw={500}
        px="xs"
      >
        {label}
      </Anchor>
    );
  }
  return (
    <>
      <Button variant="subtle" color="gray" size="sm" px="xs" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('layout.community')} centered>
        <Stack gap="sm">
          <Text size="sm">{t('layout.community.intro')}</Text>
          <Suspense fallback={<Loader size="sm" aria-label={t('a11y.loading')} />}>
            <FeedbackForm />
          </Suspense>
        </Stack>
      </Modal>
    </>
  );
}

/** The header when logged out: Tools, community chat, Log in, Sign up free. */
export function GuestActions() {
  return (
    <Group gap="xs" wrap="nowrap">
      <ToolsMenu />
      <CommunityLink />
      <Button component={Link} to="/login" variant="default">
        {t('layout.logIn')}
      </Button>
      <Button component={Link} to="/login?type=signup">
        {t('layout.signUpFree')}
      </Button>
    </Group>
  );
}
