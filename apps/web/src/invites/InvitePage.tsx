import {
  Alert,
  Button,
  Card,
  CopyButton,
  Group,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { formatCredits } from '@moments/domain/format';
import { IconCheck, IconCopy, IconGift, IconUserPlus } from '@tabler/icons-react';
import { t } from '../messages/catalogue';
import { useInviteInfo } from './api';
import { rewardCredits } from './credits';

/** /invite: the user's referral link and what a friend and the user get. */
export default function InvitePage() {
  const { data, isPending, isError } = useInviteInfo();
  return (
    <Stack maw={760} mx="auto" gap="lg" py="md">
      <Card p="xl">
        <Stack gap="md">
          <Group gap="sm">
            <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
              <IconGift size={24} />
            </ThemeIcon>
            <Title order={1} size="h2">
              {t('invites.page.title')}
            </Title>
          </Group>
          {isError && <Alert color="red">{t('invites.page.loadFailed')}</Alert>}
          {isPending ? (
            <Skeleton h={72} />
          ) : (
            data && (
              <>
                <Text>
                  {t('invites.page.rewardBefore')} <b>{rewardCredits(data.reward.referrer)}</b>{' '}
                  {t('invites.page.rewardMiddle')}{' '}
                  <b>{rewardCredits(data.reward.friend, { extra: true })}</b>
                  {t('invites.page.rewardAfter')}
                </Text>
                <Group align="end" gap="sm" wrap="nowrap">
                  <TextInput
                    flex={1}
                    label={t('invites.page.link')}
                    value={data.link}
                    readOnly
                    onFocus={(event) => event.currentTarget.select()}
                  />
                  <CopyButton value={data.link}>
                    {({ copied, copy }) => (
                      <Button
                        onClick={copy}
                        leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                        color={copied ? 'teal' : undefined}
                      >
                        {copied ? t('invites.page.copied') : t('a11y.copyLink')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </>
            )
          )}
        </Stack>
      </Card>
      {data && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Card p="lg">
            <Text c="dimmed" size="sm">
              {t('invites.page.friendsJoined')}
            </Text>
            <Text fz={32} fw={700}>
              {data.invited}
            </Text>
          </Card>
          <Card p="lg">
            <Text c="dimmed" size="sm">
              {t('invites.page.creditsEarned')}
            </Text>
            <Text fz={32} fw={700}>
              {formatCredits(data.rewarded * data.reward.referrer)}
            </Text>
          </Card>
        </SimpleGrid>
      )}
      <Card p="lg">
        <Title order={2} size="h4" mb="sm">
          {t('invites.page.howItWorks')}
        </Title>
        <List spacing="xs" icon={<IconUserPlus size={16} aria-hidden />}>
          <List.Item>{t('invites.page.step.send')}</List.Item>
          <List.Item>{t('invites.page.step.signUp')}</List.Item>
          <List.Item>{t('invites.page.step.reward')}</List.Item>
        </List>
      </Card>
    </Stack>
  );
}
