import {
  Alert,
  Button,
  Card,
  Checkbox,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { ComingSoonBody, EXTERNAL_TOOLS } from '@moments/contract';
import { IconCircleCheck, IconRocket } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { subscribeToComingSoon } from '../api/account';
import { isApiError } from '../api/client';
import { EXTERNAL_TOOL_LABELS } from '../config';
import { t } from '../messages/catalogue';

/** /comingsoon: sign up for updates about tools that are not out yet (POST /sys/coming_soon). */
export default function ComingSoonPage() {
  const [types, setTypes] = useState<string[]>([]);
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ types?: string; email?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = ComingSoonBody.safeParse({ types, email });
    if (!parsed.success) {
      const fields = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      setErrors({
        types: fields.has('types') ? t('pages.comingSoon.pickTool') : undefined,
        email: fields.has('email') ? t('pages.form.invalidEmail') : undefined,
      });
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      await subscribeToComingSoon(parsed.data);
      setDone(true);
    } catch (error) {
      setFormError(isApiError(error) ? error.message : t('pages.form.failed'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Stack maw={560} mx="auto" py={{ base: 'md', sm: 48 }} gap="lg">
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconRocket size={30} />
        </ThemeIcon>
        <Title order={1} fz={{ base: 28, sm: 36 }}>
          {t('pages.comingSoon.title')}
        </Title>
        <Text c="dimmed">{t('pages.comingSoon.intro')}</Text>
      </Stack>
      <Card p="xl" shadow="sm">
        {done ? (
          <Stack align="center" ta="center" gap="sm" role="status">
            <IconCircleCheck size={40} color="var(--mantine-color-teal-6)" />
            <Title order={3}>{t('pages.comingSoon.doneTitle')}</Title>
            <Text c="dimmed">{t('pages.comingSoon.doneText', { email: email.trim() })}</Text>
          </Stack>
        ) : (
          <form onSubmit={(event) => void onSubmit(event)} noValidate>
            <Stack gap="lg">
              {formError && (
                <Alert color="red" variant="light">
                  {formError}
                </Alert>
              )}
              <Checkbox.Group
                label={t('pages.comingSoon.tools')}
                value={types}
                onChange={setTypes}
                error={errors.types}
              >
                <Stack gap="xs" mt="xs">
                  {EXTERNAL_TOOLS.map((tool) => (
                    <Checkbox key={tool} value={tool} label={EXTERNAL_TOOL_LABELS[tool]} />
                  ))}
                </Stack>
              </Checkbox.Group>
              <TextInput
                label={t('pages.form.email')}
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                error={errors.email}
              />
              <Button type="submit" loading={submitting}>
                {t('pages.comingSoon.notifyMe')}
              </Button>
            </Stack>
          </form>
        )}
      </Card>
    </Stack>
  );
}
