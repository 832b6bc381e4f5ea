import { Alert, Anchor, Button, Card, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck, IconMailOff } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useUnsubscribe, useUnsubscribeInfo } from './api';

/** spec §2 /unsubscribe/{encodedParam} (anonymous): says what stops, and stops it on confirm. */
export default function UnsubscribePage() {
  const token = useParams().encodedParam ?? '';
  const info = useUnsubscribeInfo(token);
  const unsubscribe = useUnsubscribe(token);
  const stopped = info.data?.stopped ?? false;

  return (
    <Stack maw={560} mx="auto" gap="lg" py="md">
      <Card p="xl">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon
            size={56}
            radius="xl"
            variant="light"
            color={stopped ? 'teal' : undefined}
            aria-hidden
          >
            {stopped ? <IconMailCheck size={28} /> : <IconMailOff size={28} />}
          </ThemeIcon>
          <Title order={2}>{stopped ? 'You are unsubscribed' : 'Unsubscribe'}</Title>
          {info.isPending && <Loader role="status" aria-label="Loading" />}
          {info.isError && (
            <Alert color="red" w="100%" role="alert">
              This unsubscribe link is not valid. Use the link from the mail exactly as it came, or
              choose which mails you get in{' '}
              <Anchor component={Link} to="/settings/profile">
                Settings
              </Anchor>
              .
            </Alert>
          )}
          {info.data && !stopped && (
            <>
              <Text>
                Stop <b>{info.data.label.toLowerCase()}</b> mails to {info.data.email}? Other mails
                from Moments are not affected.
              </Text>
              <Button
                color="red.9"
                loading={unsubscribe.isPending}
                onClick={() => unsubscribe.mutate()}
              >
                Unsubscribe
              </Button>
              {unsubscribe.isError && (
                <Text c="red" size="sm" role="alert">
                  {unsubscribe.error.message}
                </Text>
              )}
            </>
          )}
          {info.data && stopped && (
            <Text>
              {info.data.email} no longer gets {info.data.label.toLowerCase()} mails. You can turn
              them back on any time in{' '}
              <Anchor component={Link} to="/settings/profile">
                Settings → Profile
              </Anchor>
              .
            </Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
