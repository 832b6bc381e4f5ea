import { Card, Loader, Stack, Switch, Title } from '@mantine/core';
import { useMailPreferences, useSetMailPreference } from './api';
import { t } from '../messages/catalogue';
import { mailCategoryLabel } from '../messages/domain';

/** Settings → Profile: which mails the user gets; turns back on what an unsubscribe link stopped. */
export function MailPreferencesCard() {
  const { data, isPending } = useMailPreferences();
  const setPreference = useSetMailPreference();
  return (
    <Card p="xl">
      <Title order={2} size="h4" mb="md">
        {t('mail.preferences.title')}
      </Title>
      {isPending && <Loader size="sm" role="status" aria-label={t('a11y.loadingMailSettings')} />}
      <Stack gap="sm">
        {data?.categories.map(({ category, label, enabled }) => (
          <Switch
            key={category}
            label={mailCategoryLabel(category, label)}
            checked={enabled}
            disabled={setPreference.isPending}
            onChange={(event) =>
              setPreference.mutate({ category, enabled: event.currentTarget.checked })
            }
          />
        ))}
      </Stack>
    </Card>
  );
}
