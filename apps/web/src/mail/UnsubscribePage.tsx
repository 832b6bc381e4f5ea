import { Alert, Anchor, Button, Card, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck, IconMailOff } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useUnsubscribe, useUnsubscribeInfo } from './api';
import { t } from '../messages/catalogue';
import { mailCategoryLabel } from '../messages/domain';

/** /unsubscribe/{encodedParam} (anonymous): says what stops, and stops it on confirm. */
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
          <Title order={1} size="h2">
            {t(stopped ? 'mail.unsubscribe.doneTitle' : 'mail.unsubscribe.title')}
          </Title>
          {info.isPending && <Loader role="status" aria-label={t('a11y.loading')} />}
          {info.isError && (
            <Alert color="red" w="100%" role="alert">
              {t('mail.unsubscribe.invalid')}{' '}
              <Anchor component={Link} to="/settings/profile">
                {t('title.settings')}
              </Anchor>
              .
            </Alert>
          )}
          {info.data && !stopped && (
            <>
              <Text>{t('mail.unsubscribe.ask', { email: info.data.email })}</Text>
              <Text fw={700} data-testid="unsubscribe-category">
                {mailCategoryLabel(info.data.category, info.data.label)}
              </Text>
              <Text size="sm" c="dimmed">
                {t('mail.unsubscribe.others')}
              </Text>
              <Button
                color="red.9"
                loading={unsubscribe.isPending}
                onClick={() => unsubscribe.mutate()}
              >
                {t('mail.unsubscribe.button')}
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
              {t('mail.unsubscribe.done', {
                email: info.data.email,
                category: mailCategoryLabel(info.data.category, info.data.label),
              })}{' '}
              <Anchor component={Link} to="/settings/profile">
                {t('mail.unsubscribe.settingsProfile')}
              </Anchor>
              .
            </Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
