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
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../account/session';
import { api } from '../../api/client';

const FAQ = [
  {
    q: 'What does Moments do?',
    a: 'You give it a long video by link or upload. Moments transcribes it, finds the moments most likely to work as short clips, adds word-by-word animated captions, reframes them for vertical platforms and exports MP4 files.',
  },
  {
    q: 'Which video sources are supported?',
    a: 'Links from YouTube, Google Drive, Dailymotion, Vimeo, TikTok, Facebook, Twitch and Bilibili, direct links to media files, and uploads of mp4, mov and webm files.',
  },
  {
    q: 'How are credits counted?',
    a: 'Tasks and exports use credits from your plan; the cost is shown before you start. Failed tasks and exports cost nothing. Your remaining credits are shown under Settings → Profile.',
  },
  {
    q: 'Why did my video task fail?',
    a: 'The task card in Library → Video tasks shows the link or file it came from and the reason, for example a link that answered 404, a private video, or a file without an audio track. Fix the cause and press Retry; a failed task used no credits.',
  },
  {
    q: 'How do I get a vertical clip with captions?',
    a: 'Open a moment, press Clip, pick the aspect ratio and a caption template, adjust the start and end, and export. You get a notification (and a mail when you are away) when the file is ready.',
  },
  {
    q: 'How do invites work?',
    a: 'Share your link from Invite friends. When a friend signs up through it and starts a first paid plan, you both get credits, once per friend.',
  },
  {
    q: 'How do I stop emails?',
    a: 'Every email has an unsubscribe link that stops that kind of email in one click. Turn kinds of email on or off any time under Settings → Profile.',
  },
  {
    q: 'Where is my data stored?',
    a: 'Moments is self-hosted: your videos, transcripts and account live on the server run by whoever operates this installation.',
  },
];

function FeedbackForm() {
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
        content.trim().length < 5
          ? 'Write at least a few words.'
          : 'Enter a valid email so we can answer.',
      );
      return;
    }
    setError(null);
    send.mutate(parsed.data);
  };

  if (send.isSuccess) {
    return (
      <Alert color="teal" icon={<IconCheck size={18} />} title="Thank you" role="status">
        Your feedback was sent. We read every message.
      </Alert>
    );
  }
  return (
    <form onSubmit={onSubmit} aria-label="Feedback">
      <Stack gap="sm">
        <Textarea
          label="Your feedback"
          placeholder="What works, what doesn't, what you miss"
          autosize
          minRows={4}
          value={content}
          onChange={(event) => setContent(event.currentTarget.value)}
          error={error}
          data-autofocus
        />
        {!signedIn && (
          <TextInput
            label="Your email"
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
            Send feedback
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** spec §2 /settings/faq; `?feedback=1` (legacy user-feedback link) opens the feedback form. */
export function FaqSettings() {
  const [params, setParams] = useSearchParams();
  const open = params.get('feedback') === '1';
  return (
    <Stack gap="lg">
      <Card p="xl">
        <Group justify="space-between" mb={open ? 'md' : 0}>
          <Title order={4}>
            <IconMessage size={18} style={{ verticalAlign: 'middle' }} aria-hidden /> Send us
            feedback
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
              Write feedback
            </Button>
          )}
        </Group>
        {open && <FeedbackForm />}
      </Card>
      <Card p="xl">
        <Title order={4} mb="md">
          Frequently asked questions
        </Title>
        <Accordion variant="separated">
          {FAQ.map(({ q, a }) => (
            <Accordion.Item key={q} value={q}>
              <Accordion.Control>{q}</Accordion.Control>
              <Accordion.Panel>{a}</Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </Card>
    </Stack>
  );
}
