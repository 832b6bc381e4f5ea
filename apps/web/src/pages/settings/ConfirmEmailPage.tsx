import { Alert, Anchor, Button, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { ERROR_CODES } from '@moments/contract';
import { IconMailCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { confirmEmail } from '../../api/account';
import { isApiError } from '../../api/client';
import { t } from '../../messages/catalogue';

function linkFailure(error: unknown): string {
  if (isApiError(error)) {
    if (error.code === ERROR_CODES.EMAIL_LINK_USED) return t('pages.confirmEmail.used');
    if (error.code === ERROR_CODES.EMAIL_LINK_EXPIRED) return t('pages.confirmEmail.expired');
    if (error.code === ERROR_CODES.NOT_FOUND) return t('pages.confirmEmail.unknown');
    if (error.message) return error.message;
  }
  return t('pages.profile.account.failed');
}

/**
 * /settings/email/confirm?token= (anonymous: the mail may be opened on another device). The
 * change is made on a click, not on load, so a mail scanner that opens links spends nothing.
 */
export default function ConfirmEmailPage() {
  const token = useSearchParams()[0].get('token') ?? '';
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      setConfirmed((await confirmEmail(token)).email);
      // The profile shows the new address without a reload.
      await queryClient.invalidateQueries();
    } catch (failure) {
      setError(linkFailure(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack maw={560} mx="auto" gap="lg" py="md">
      <Card p="xl">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconMailCheck size={28} />
          </ThemeIcon>
          <Title order={1} size="h2">
            {t(confirmed ? 'pages.confirmEmail.doneTitle' : 'pages.confirmEmail.title')}
          </Title>
          {confirmed ? (
            <Text>
              {t('pages.confirmEmail.done', { email: confirmed })}{' '}
              <Anchor component={Link} to="/settings/profile">
                {t('title.settings')}
              </Anchor>
            </Text>
          ) : (
            <>
              <Text>{t('pages.confirmEmail.ask')}</Text>
              <Button loading={pending} disabled={!token} onClick={() => void confirm()}>
                {t('pages.confirmEmail.button')}
              </Button>
            </>
          )}
          {error && (
            <Alert color="red" w="100%" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
