import { Alert, Button, Card, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { REFERRAL_QUERY_PARAM } from '@moments/domain';
import { IconCircleCheck, IconUsers } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../account/session';
import { t } from '../messages/catalogue';
import { useInviteLanding } from './api';
import { rewardCredits } from './credits';

/** /invite/landing (anonymous): where an invite link leads a friend. */
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
          <Title order={1} size="h2">
            {data?.inviter
              ? t('invites.landing.invitedBy', { inviter: data.inviter })
              : t('invites.landing.invited')}
          </Title>
          <Text c="dimmed" maw={520}>
            {t('invites.landing.pitch')}
          </Text>
          {code && data && !data.valid && (
            <Alert color="yellow" w="100%">
              {t('invites.landing.invalid')}
            </Alert>
          )}
          {data?.valid && (
            <Text>
              {t('invites.landing.rewardBefore')}{' '}
              <b>{rewardCredits(data.reward.friend, { extra: true })}</b>{' '}
              {t('invites.landing.rewardAfter')}
            </Text>
          )}
          {status === 'authenticated' ? (
            <Button component={Link} to="/home" size="md">
              {t('invites.landing.goToMoments')}
            </Button>
          ) : (
            <Group>
              <Button component={Link} to={signupTo} size="md">
                {t('invites.landing.signUp')}
              </Button>
              <Button component={Link} to="/login" variant="default" size="md">
                {t('invites.landing.logIn')}
              </Button>
            </Group>
          )}
        </Stack>
      </Card>
      <Card p="lg">
        <List spacing="xs" icon={<IconCircleCheck size={18} aria-hidden color="teal" />}>
          <List.Item>{t('invites.landing.step.paste')}</List.Item>
          <List.Item>{t('invites.landing.step.moments')}</List.Item>
          <List.Item>{t('invites.landing.step.export')}</List.Item>
        </List>
      </Card>
    </Stack>
  );
}
