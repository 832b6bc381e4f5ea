import {
  Alert,
  Button,
  Card,
  Divider,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ERROR_CODES } from '@moments/contract';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { changeEmail, changePassword, deleteAccount } from '../../api/account';
import { isApiError } from '../../api/client';
import { t } from '../../messages/catalogue';

/** The server's message for a refused change (it names what was wrong), or a plain fallback. */
function failureText(error: unknown): string {
  if (isApiError(error)) {
    if (error.code === ERROR_CODES.WRONG_PASSWORD) return t('pages.profile.account.wrongPassword');
    if (error.message) return error.message;
  }
  return t('pages.profile.account.failed');
}

/** One form's submit state: pending, its failure, and a success line. */
function useFormCall<T>(call: () => Promise<T>, onDone?: (result: T) => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit = async (event?: FormEvent, doneText?: (result: T) => string) => {
    event?.preventDefault();
    setPending(true);
    setError(null);
    setDone(null);
    try {
      const result = await call();
      if (doneText) setDone(doneText(result));
      onDone?.(result);
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setPending(false);
    }
  };
  return { pending, error, done, submit };
}

function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const form = useFormCall(
    () => changePassword({ current_password: current, new_password: next }),
    () => {
      setCurrent('');
      setNext('');
    },
  );
  return (
    <form
      onSubmit={(event) =>
        void form.submit(event, () => t('pages.profile.account.passwordChanged'))
      }
    >
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('pages.profile.account.passwordTitle')}
        </Title>
        <PasswordInput
          label={t('pages.profile.account.currentPassword')}
          autoComplete="current-password"
          value={current}
          onChange={(event) => setCurrent(event.currentTarget.value)}
          required
        />
        <PasswordInput
          label={t('pages.profile.account.newPassword')}
          autoComplete="new-password"
          value={next}
          onChange={(event) => setNext(event.currentTarget.value)}
          required
        />
        <FormOutcome error={form.error} done={form.done} />
        <Group>
          <Button type="submit" loading={form.pending} disabled={!current || !next}>
            {t('pages.profile.account.changePassword')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ChangeEmailForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useFormCall(
    () => changeEmail({ email, password }),
    () => setPassword(''),
  );
  return (
    <form
      onSubmit={(event) =>
        void form.submit(event, (result) =>
          t('pages.profile.account.emailSent', { email: result.email }),
        )
      }
    >
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('pages.profile.account.emailTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('pages.profile.account.emailHint')}
        </Text>
        <TextInput
          type="email"
          label={t('pages.profile.account.newEmail')}
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          required
        />
        <PasswordInput
          label={t('pages.profile.account.currentPassword')}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          required
        />
        <FormOutcome error={form.error} done={form.done} />
        <Group>
          <Button type="submit" loading={form.pending} disabled={!email || !password}>
            {t('pages.profile.account.changeEmail')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteAccount() {
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  const form = useFormCall(
    () => deleteAccount({ password }),
    // A full load drops every per-user cache, as logging out does.
    () => window.location.assign('/home'),
  );
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        {t('pages.profile.account.deleteTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('pages.profile.account.deleteHint')}
      </Text>
      <Group>
        <Button color="red.9" variant="outline" onClick={() => setOpened(true)}>
          {t('pages.profile.account.deleteAccount')}
        </Button>
      </Group>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('pages.profile.account.deleteConfirmTitle')}
        centered
      >
        <form onSubmit={(event) => void form.submit(event)}>
          <Stack>
            <Text size="sm">{t('pages.profile.account.deleteConfirmText')}</Text>
            <PasswordInput
              label={t('pages.profile.account.currentPassword')}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              required
              data-autofocus
            />
            <FormOutcome error={form.error} done={null} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t('pages.profile.account.cancel')}
              </Button>
              <Button type="submit" color="red.9" loading={form.pending} disabled={!password}>
                {t('pages.profile.account.deleteForGood')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

function FormOutcome({ error, done }: { error: string | null; done: string | null }) {
  if (error) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
        {error}
      </Alert>
    );
  }
  if (done) {
    return (
      <Alert color="teal" variant="light" icon={<IconCheck size={18} />} role="status">
        {done}
      </Alert>
    );
  }
  return null;
}

/** Settings → Profile: the password, the email (confirmed by a mailed link) and account deletion. */
export function AccountSecurityCard() {
  return (
    <Card p={{ base: 'md', sm: 'xl' }} data-testid="account-security">
      <Title order={2} size="h4" mb="md">
        {t('pages.profile.account.title')}
      </Title>
      <Stack gap="lg">
        <ChangePasswordForm />
        <Divider />
        <ChangeEmailForm />
        <Divider />
        <DeleteAccount />
      </Stack>
    </Card>
  );
}
