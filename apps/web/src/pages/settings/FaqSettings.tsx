import { Accordion, Alert, Card, Stack, Title } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { SUPPORT_EMAIL } from '../../config';

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
    a: 'Tasks and exports use credits from your plan. Failed tasks and exports cost nothing. Your remaining credits are shown under Settings → Profile.',
  },
  {
    q: 'Where is my data stored?',
    a: 'Moments is self-hosted: your videos, transcripts and account live on the server run by whoever operates this installation.',
  },
];

/** spec §2 /settings/faq; `?feedback=1` (legacy user-feedback link) opens the feedback note. */
export function FaqSettings() {
  const [params] = useSearchParams();
  return (
    <Stack gap="lg">
      {params.get('feedback') === '1' && (
        <Alert icon={<IconMessage size={18} />} title="Send us feedback" variant="light">
          Tell us what works and what doesn't at {SUPPORT_EMAIL}. We read every message.
        </Alert>
      )}
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
