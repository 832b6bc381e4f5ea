import { Notification as Toast, Portal, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Notification } from '@moments/contract';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect } from 'react';
import { MOBILE_MEDIA_QUERY } from '../theme';
import { describeNotification } from './describe';
import { TONE_LOOK } from './NotificationItem';
import { t } from '../messages/catalogue';

const TOAST_MS = 8000;

// Desktop: under the header, away from the bottom-right action rows (export, retry) they report
// on. Phones: above the bottom menu, where they cover no page title.
const PLACE_ON_PHONES = { bottom: 'calc(var(--app-shell-footer-height, 64px) + 12px)' };
const PLACE_ON_DESKTOP = { top: 'calc(var(--app-shell-header-height, 64px) + 12px)' };

function TimedToast({
  notification,
  onOpen,
  onDismiss,
}: {
  notification: Notification;
  onOpen(): void;
  /** Stable across renders, so the timer is not restarted. */
  onDismiss(id: string): void;
}) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(notification.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [onDismiss, notification.id]);
  const { title, body, tone } = describeNotification(notification);
  const look = TONE_LOOK[tone];
  return (
    <Toast
      color={look.color}
      icon={<look.icon size={18} />}
      title={title}
      onClose={() => onDismiss(notification.id)}
      closeButtonProps={{ 'aria-label': t('notifications.toast.dismiss') }}
      withBorder
      radius="md"
      style={{ boxShadow: 'var(--mantine-shadow-lg)' }}
      role="status"
      data-testid="notification-toast"
    >
      <UnstyledButton onClick={onOpen} w="100%">
        <Text size="sm" c="dimmed" lineClamp={2}>
          {body}
        </Text>
      </UnstyledButton>
    </Toast>
  );
}

/** A finished task or export pops up for a few seconds (task updates arrive as notifications). */
export function NotificationToasts({
  toasts,
  onOpen,
  onDismiss,
}: {
  toasts: Notification[];
  onOpen(notification: Notification): void;
  onDismiss(id: string): void;
}) {
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  if (toasts.length === 0) return null;
  return (
    <Portal>
      <Stack
        gap="sm"
        pos="fixed"
        right={16}
        {...(isMobile ? PLACE_ON_PHONES : PLACE_ON_DESKTOP)}
        w="min(360px, calc(100vw - 32px))"
        style={{ zIndex: 300 }}
      >
        {toasts.map((notification) => (
          <TimedToast
            key={notification.id}
            notification={notification}
            onOpen={() => onOpen(notification)}
            onDismiss={onDismiss}
          />
        ))}
      </Stack>
    </Portal>
  );
}
