import {
  Accordion,
  Alert,
  Button,
  Card,
  Group,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { HelpFeedbackBody } from '@moments/contract';
import { IconCheck, IconMessage } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PriceList } from '../../account/PriceList';
import { useSession } from '../../account/session';
import { api } from '../../api/client';
import { t, type MessageKey } from '../../messages/catalogue';

const FAQ: Array<{ q: MessageKey; a: MessageKey; more?: ReactNode }> = [
  { q: 'pages.faq.what.q', a: 'pages.faq.what.a' },
  { q: 'pages.faq.sources.q', a: 'pages.faq.sources.a' },
  { q: 'pages.faq.credits.q', a: 'pages.faq.credits.a', more: <PriceList /> },
  { q: 'pages.faq.failed.q', a: 'pages.faq.failed.a' },
  { q: 'pages.faq.clip.q', a: 'pages.faq.clip.a' },
  { q: 'pages.faq.translation.q', a: 'pages.faq.translation.a' },
  { q: 'pages.faq.invites.q', a: 'pages.faq.invites.a' },
  { q: 'pages.faq.emails.q', a: 'pages.faq.emails.a' },
  { q: 'pages.faq.data.q', a: 'pages.faq.data.a' },
];

/** The feedback form: signed in, sent as the user; a visitor gives an email to answer to. */
export function FeedbackForm() {
  const { status } = useSession();
  const signedIn = status === 'authenticated';
  const [content, setContent] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (body: HelpFeedbackBody) =>
      api.post<{ id: string }>('/api/feedback', body, { suppressErrorDialog: true }),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = HelpFeedbackBody.safeParse({ content, email: signedIn ? undefined : email });
    if (!parsed.success || (!signedIn && !email)) {
      setError(
        content.trim().length < 5 ? t('pages.feedback.tooShort') : t('pages.feedback.invalidEmail'),
      );
      return;
    }
    setError(null);
    send.mutate(parsed.data);
  };

  if (send.isSuccess) {
    return (
      <Alert color="teal" icon={<IconCheck size={18} />} title={t('title.thankYou')} role="status">
        {t('pages.feedback.sent')}
      </Alert>
    );
  }
  return (
    <form onSubmit={onSubmit} aria-label={t('a11y.feedback')}>
      <Stack gap="sm">
        <Textarea
          label={t('pages.feedback.label')}
          placeholder={t('pages.feedback.placeholder')}
          autosize
          minRows={4}
          value={content}
          onChange={(event) => setContent(event.currentTarget.value)}
          error={error}
          data-autofocus
        />
        {!signedIn && (
          <TextInput
            label={t('pages.feedback.email')}
            type="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
        )}
        {send.isError && (
          <Text c="red" size="sm" role="alert">
            {send.error.message}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={send.isPending}>
            {t('pages.feedback.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * /settings/faq; `?feedback=1` (legacy user-feedback link) opens the feedback form, `?question=`
 * opens that answer (the start form links to `translation`).
 */
export function FaqSettings() {
  const [params, setParams] = useSearchParams();
  const open = params.get('feedback') === '1';
  return (
    <Stack gap="lg">
      <Card p="xl">
        <Group justify="space-between" mb={open ? 'md' : 0}>
          <Title order={2} size="h4">
            <IconMessage size={18} style={{ verticalAlign: 'middle' }} aria-hidden />{' '}
            {t('pages.feedback.title')}
          </Title>
          {!open && (
            <Button
              variant="light"
              onClick={() =>
                setParams(
                  (prev) => {
                    prev.set('feedback', '1');
                    return prev;
                  },
                  { replace: true },
                )
              }
            >
              {t('pages.feedback.write')}
            </Button>
          )}
        </Group>
        {open && <FeedbackForm />}
      </Card>
      <Card p="xl">
        <Title order={2} size="h4" mb="md">
          {t('pages.faq.title')}
        </Title>
        <Accordion
          variant="separated"
          defaultValue={params.get('question') ? `pages.faq.${params.get('question')}.q` : null}
        >
          {FAQ.map(({ q, a, more }) => (
            <Accordion.Item key={q} value={q}>
              <Accordion.Control>{t(q)}</Accordion.Control>
              <Accordion.Panel>
                {more ? (
                  <Stack gap="xs">
                    <Text size="sm">{t(a)}</Text>
                    {more}
                  </Stack>
                ) : (
                  t(a)
                )}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Card>
    </Stack>
  );
}
