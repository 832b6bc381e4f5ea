import { Button, Group, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrandDiscord, IconGift } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { hasNoCreditsLeft } from '../account/plan';
import { useSession } from '../account/session';
import { COMMUNITY_CHAT_URL } from '../config';
import { STORAGE_KEYS, readStored, writeStored } from '../lib/storage';
import { YearlyPlanGuardPopup } from './NotYearlyPlanModal';

/**
 * spec §2 pop-ups on home for logged-in users: the welcome offer first, then the community chat.
 * Both remember being closed locally; `auto_parse_video=1` suppresses both.
 */
export function HomePopups() {
  const { user } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [welcomeSeen, setWelcomeSeen] = useState(
    () => readStored(STORAGE_KEYS.welcomeOfferSeen) === '1',
  );
  const [communityClosed, setCommunityClosed] = useState(
    () => readStored(STORAGE_KEYS.communityChatClosed) === '1',
  );

  if (!user || params.get('auto_parse_video') === '1') return null;

  const closeWelcome = () => {
    writeStored(STORAGE_KEYS.welcomeOfferSeen, '1');
    setWelcomeSeen(true);
  };
  const closeCommunity = () => {
    writeStored(STORAGE_KEYS.communityChatClosed, '1');
    setCommunityClosed(true);
  };
  const outOfCredits = hasNoCreditsLeft(user);

  return (
    <>
      <Modal
        opened={!welcomeSeen}
        onClose={closeWelcome}
        size="md"
        title={<ModalLabel text="Welcome gift" />}
      >
        <Stack align="center" ta="center" gap="md" pb="sm">
          <ThemeIcon
            size={64}
            radius="xl"
            variant="gradient"
            gradient={{ from: 'violet.6', to: 'grape.5' }}
          >
            <IconGift size={34} />
          </ThemeIcon>
          <Title order={2}>Welcome to Moments, {user.username}!</Title>
          <Text c="dimmed">
            As a new member you get <b>50% off the annual plan</b>: more credits, longer videos and
            exports without limits on style.
          </Text>
          <Group>
            <Button variant="default" onClick={closeWelcome}>
              Maybe later
            </Button>
            <Button
              onClick={() => {
                closeWelcome();
                void navigate('/settings/plan?type=yearly');
              }}
            >
              Unlock 50% off
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={welcomeSeen && !communityClosed}
        onClose={closeCommunity}
        size="md"
        title={<ModalLabel text="Community" />}
      >
        <Stack align="center" ta="center" gap="md" pb="sm">
          <ThemeIcon size={64} radius="xl" variant="light" color="indigo">
            <IconBrandDiscord size={34} />
          </ThemeIcon>
          <Title order={2}>{outOfCredits ? 'Out of credits?' : 'Join the community'}</Title>
          <Text c="dimmed">
            {outOfCredits
              ? 'Join our community chat: members share tips, get help from the team and hear first about free credit giveaways.'
              : 'Share your clips, swap tips with other creators and tell us what to build next.'}
          </Text>
          <Group>
            <Button variant="default" onClick={closeCommunity}>
              Close
            </Button>
            <Button
              component="a"
              href={COMMUNITY_CHAT_URL}
              target="_blank"
              rel="noopener noreferrer"
              leftSection={<IconBrandDiscord size={16} />}
              onClick={closeCommunity}
            >
              Join the chat
            </Button>
          </Group>
        </Stack>
      </Modal>
      {welcomeSeen && communityClosed && <YearlyPlanGuardPopup user={user} />}
    </>
  );
}

function ModalLabel({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed" fw={600}>
      {text}
    </Text>
  );
}
