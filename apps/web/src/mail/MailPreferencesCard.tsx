import { Card, Loader, Stack, Switch, Title } from '@mantine/core';
import { useMailPreferences, useSetMailPreference } from './api';

/** Settings → Profile: which mails the user gets; turns back on what an unsubscribe link stopped. */
export function MailPreferencesCard() {
  const { data, isPending } = useMailPreferences();
  const setPreference = useSetMailPreference();
  return (
    <Card p="xl">
      <Title order={4} mb="md">
        Email
      </Title>
      {isPending && <Loader size="sm" role="status" aria-label="Loading mail settings" />}
      <Stack gap="sm">
        {data?.categories.map(({ category, label, enabled }) => (
          <Switch
            key={category}
            label={label}
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
