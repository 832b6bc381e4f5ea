import { Alert, Button, Card, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { REFERRAL_QUERY_PARAM } from '@moments/domain';
import { formatCredits } from '@moments/domain/format';
import { IconCircleCheck, IconUsers } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../account/session';
import { useInviteLanding } from './api';

/** spec §2 /invite/landing (anonymous): where an invite link leads a friend. */
export default function InviteLandingPage() {
  const [params] = useSearchParams();
  const code = params.get(REFERRAL_QUERY_PARAM);
  const { data } = useInviteLanding(code);
  const { status } = useSession();
  const signupTo = `/login?type=signup${data?.valid && code ? `&${REFERRAL_QUERY_PARAM}=${encodeURIComponent(code)}` : ''}`;
  return (
    <Stack maw={680} mx="auto" gap="lg" py="md">
      <Card p="xl">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconUsers size={28} />
          </ThemeIcon>
          <Title order={2}>
            {data?.inviter
              ? `${data.inviter} invited you to Moments`
              : "You've been invited to Moments"}
          </Title>
          <Text c="dimmed" maw={520}>
            Moments turns long videos into short clips: it finds the best moments, adds animated
            captions and reframes them for every social platform.
          </Text>
          {code && data && !data.valid && (
            <Alert color="yellow" w="100%">
              This invite link is not valid any more, but you can still sign up free.
            </Alert>
          )}
          {data?.valid && (
            <Text>
              Sign up through this invite and get{' '}
              <b>{formatCredits(data.reward.friend)} extra credits</b> when you start your first
              paid plan.
            </Text>
          )}
          {status === 'authenticated' ? (
            <Button component={Link} to="/home" size="md">
              Go to Moments
            </Button>
          ) : (
            <Group>
              <Button component={Link} to={signupTo} size="md">
                Sign up free
              </Button>
              <Button component={Link} to="/login" variant="default" size="md">
                Log in
              </Button>
            </Group>
          )}
        </Stack>
      </Card>
      <Card p="lg">
        <List spacing="xs" icon={<IconCircleCheck size={18} aria-hidden color="teal" />}>
          <List.Item>Paste a link or upload a video</List.Item>
          <List.Item>Get its most shareable moments with reasons and scores</List.Item>
          <List.Item>Export vertical clips with word-by-word captions</List.Item>
        </List>
      </Card>
    </Stack>
  );
}
