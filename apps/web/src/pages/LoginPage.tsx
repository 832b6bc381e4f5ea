import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ERROR_CODES, LoginBody, SignupBody } from '@moments/contract';
import { REFERRAL_QUERY_PARAM } from '@moments/domain';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../account/session';
import { login, signup } from '../api/account';
import { isApiError } from '../api/client';
import { t, type MessageKey } from '../messages/catalogue';
import { formatWait, passwordProblemText } from '../messages/domain';
import { safeRedirectTarget } from '../routing/paths';

type Field = 'email' | 'password' | 'username';
type FieldErrors = Partial<Record<Field, string>>;

/** Server error codes shown next to the field they concern. */
function fieldErrorsFor(code: string, message: string): FieldErrors | null {
  switch (code) {
    case ERROR_CODES.EMAIL_TAKEN:
      return { email: t('pages.login.emailTaken') };
    case ERROR_CODES.USERNAME_TAKEN:
      return { username: t('pages.login.usernameTaken') };
    case ERROR_CODES.WEAK_PASSWORD:
      return { password: message || t('pages.login.weakPassword') };
    case ERROR_CODES.INVALID_CREDENTIALS:
      return { password: t('pages.login.invalidCredentials') };
    default:
      return null;
  }
}

const CLIENT_MESSAGES: Record<Field, MessageKey> = {
  email: 'pages.form.invalidEmail',
  password: 'pages.login.enterPassword',
  username: 'pages.login.usernameRule',
};

/** /login; `?type=signup` selects sign-up; `?redirect=` is where to return. */
export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const { status, setUser } = useSession();
  const mode = params.get('type') === 'signup' ? 'signup' : 'login';
  const redirectTo = safeRedirectTarget(params.get('redirect'));

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [username, setUsername] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  if (status === 'authenticated' && !submitting) return <Navigate to={redirectTo} replace />;

  const switchMode = (next: string) => {
    setErrors({});
    setFormError(null);
    setParams(
      (prev) => {
        if (next === 'signup') prev.set('type', 'signup');
        else prev.delete('type');
        return prev;
      },
      { replace: true },
    );
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed =
      mode === 'signup'
        ? SignupBody.safeParse({
            email,
            password,
            username,
            // Kept from /invite/landing, so the referral is recorded at sign-up.
            referral: params.get(REFERRAL_QUERY_PARAM) ?? undefined,
          })
        : LoginBody.safeParse({ email, password });
    const next: FieldErrors = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = issue.path[0] as Field;
      next[field] ??= t(CLIENT_MESSAGES[field]);
    }
    if (mode === 'signup' && !next.password) {
      // The server's rule, checked here first (loaded on demand: its dictionaries are large), and
      // beside a bad email too: every field that is wrong says so at once.
      const { passwordProblem } = await import('@moments/domain/password');
      const problem = passwordProblem(password, email, username);
      if (problem) next.password = passwordProblemText(problem);
    }
    if (Object.keys(next).length > 0) {
      setErrors(next);
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const result =
        mode === 'signup'
          ? await signup(parsed.data as SignupBody)
          : await login(parsed.data as LoginBody);
      setUser(result.user);
      void navigate(redirectTo, { replace: true });
    } catch (error) {
      if (!isApiError(error)) throw error;
      const fieldErrors = fieldErrorsFor(error.code, error.message);
      if (fieldErrors) setErrors(fieldErrors);
      else if (error.code === ERROR_CODES.RATE_LIMITED) {
        // The wait the server gave, in words; without one, the server's own words.
        setFormError(
          error.retryAfterSeconds === null
            ? error.message
            : t('pages.login.rateLimited', { wait: formatWait(error.retryAfterSeconds) }),
        );
      } else if (error.code === ERROR_CODES.NETWORK_DISCONNECTED) {
        setFormError(t('pages.login.unreachable'));
      } else setFormError(error.message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Center py={{ base: 'md', sm: 48 }}>
      <Card w="100%" maw={420} p="xl" shadow="sm">
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={1} size="h2">
              {t(mode === 'signup' ? 'pages.login.signupTitle' : 'pages.login.loginTitle')}
            </Title>
            <Text c="dimmed" size="sm">
              {t(mode === 'signup' ? 'pages.login.signupIntro' : 'pages.login.loginIntro')}
            </Text>
          </Stack>
          <SegmentedControl
            fullWidth
            value={mode}
            onChange={switchMode}
            data={[
              { label: t('layout.logIn'), value: 'login' },
              { label: t('layout.signUp'), value: 'signup' },
            ]}
          />
          <form onSubmit={(event) => void onSubmit(event)} noValidate>
            <Stack gap="md">
              {formError && (
                <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />}>
                  {formError}
                </Alert>
              )}
              {mode === 'signup' && (
                <TextInput
                  label={t('pages.login.username')}
                  name="username"
                  autoComplete="username"
                  value={username}
                  onChange={(event) => setUsername(event.currentTarget.value)}
                  error={errors.username}
                  required
                />
              )}
              <TextInput
                label={t('pages.form.email')}
                name="email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                error={errors.email}
                required
              />
              <PasswordInput
                label={t('pages.login.password')}
                name="password"
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                description={mode === 'signup' ? t('pages.login.passwordRule') : undefined}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                error={errors.password}
                required
              />
              <Button type="submit" size="md" loading={submitting} fullWidth>
                {t(mode === 'signup' ? 'layout.signUpFree' : 'layout.logIn')}
              </Button>
            </Stack>
          </form>
          <Text size="xs" c="dimmed" ta="center">
            {t('pages.login.agreeBefore')}{' '}
            <Anchor component={Link} to="/terms-of-use" size="xs" underline="always">
              {t('title.termsOfUse')}
            </Anchor>{' '}
            {t('pages.login.agreeAnd')}{' '}
            <Anchor component={Link} to="/privacy-policy" size="xs" underline="always">
              {t('title.privacyPolicy')}
            </Anchor>
            .
          </Text>
        </Stack>
      </Card>
    </Center>
  );
}
