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
import { useInviteInfo } from './api';

/** spec §2 /invite: the user's referral link and what a friend and the user get. */
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
            <Title order={2}>Invite friends</Title>
          </Group>
          {isError && <Alert color="red">Your invite link could not be loaded. Try again.</Alert>}
          {isPending ? (
            <Skeleton h={72} />
          ) : (
            data && (
              <>
                <Text>
                  When a friend signs up with your link and takes a paid plan, you get{' '}
                  <b>{formatCredits(data.reward.referrer)} credits</b> and your friend gets{' '}
                  <b>{formatCredits(data.reward.friend)} extra credits</b>. Each friend counts once.
                </Text>
                <Group align="end" gap="sm" wrap="nowrap">
                  <TextInput
                    flex={1}
                    label="Your invite link"
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
                        {copied ? 'Copied' : 'Copy link'}
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
              Friends who joined
            </Text>
            <Text fz={32} fw={700}>
              {data.invited}
            </Text>
          </Card>
          <Card p="lg">
            <Text c="dimmed" size="sm">
              Credits earned
            </Text>
            <Text fz={32} fw={700}>
              {formatCredits(data.rewarded * data.reward.referrer)}
            </Text>
          </Card>
        </SimpleGrid>
      )}
      <Card p="lg">
        <Title order={3} size="h4" mb="sm">
          How it works
        </Title>
        <List spacing="xs" icon={<IconUserPlus size={16} aria-hidden />}>
          <List.Item>Send your link to a friend.</List.Item>
          <List.Item>They sign up free through it.</List.Item>
          <List.Item>
            When they start their first paid plan, you both get credits, once per friend.
          </List.Item>
        </List>
      </Card>
    </Stack>
  );
}
