import { Button, Group, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrandDiscord, IconGift } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { hasNoCreditsLeft } from '../account/plan';
import { useSession } from '../account/session';
import { COMMUNITY_CHAT_URL } from '../config';
import {
  SESSION_KEYS,
  STORAGE_KEYS,
  readSession,
  readStored,
  writeSession,
  writeStored,
} from '../lib/storage';
import { t } from '../messages/catalogue';
import { NotYearlyPlanModal } from './NotYearlyPlanModal';
import { HOME_POPUPS, popupForVisit, type HomePopup } from './order';

function visitState(): { shown: HomePopup | null; closed: boolean } {
  const [shown, closed] = (readSession(SESSION_KEYS.popupThisVisit) ?? '').split(':');
  const known = HOME_POPUPS.find((popup) => popup === shown) ?? null;
  return { shown: known, closed: closed === 'closed' };
}

/**
 * The pop-ups on home for logged-in users, one per visit in priority order: the
 * welcome offer, then the community chat, then the not-yearly guard. Each remembers being closed
 * locally; `auto_parse_video=1` suppresses them.
 */
export function HomePopups() {
  const { user } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Re-read storage after a close, so the next pop-up waits for the next visit.
  const [, setClosedAt] = useState(0);

  if (!user || params.get('auto_parse_video') === '1') return null;
  const plan = user.subscription.current_plan;
  const visit = visitState();
  const popup = popupForVisit({
    welcomeSeen: readStored(STORAGE_KEYS.welcomeOfferSeen) === '1',
    communityClosed: readStored(STORAGE_KEYS.communityChatClosed) === '1',
    yearlyDismissedFor: readStored(STORAGE_KEYS.yearlyGuardDismissed),
    plan,
    shownThisVisit: visit.shown,
    closedThisVisit: visit.closed,
  });
  if (popup && !visit.shown) writeSession(SESSION_KEYS.popupThisVisit, popup);

  const close = (which: HomePopup) => {
    if (which === 'welcome') writeStored(STORAGE_KEYS.welcomeOfferSeen, '1');
    if (which === 'community') writeStored(STORAGE_KEYS.communityChatClosed, '1');
    if (which === 'yearly') writeStored(STORAGE_KEYS.yearlyGuardDismissed, plan ?? 'none');
    writeSession(SESSION_KEYS.popupThisVisit, `${which}:closed`);
    setClosedAt(Date.now());
  };
  const outOfCredits = hasNoCreditsLeft(user);

  return (
    <>
      <Modal
        opened={popup === 'welcome'}
        onClose={() => close('welcome')}
        size="md"
        title={<ModalLabel text={t('popup.welcome.label')} />}
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
          <Title order={2}>{t('popups.welcome.title', { name: user.username })}</Title>
          <Text c="dimmed">
            {t('popups.welcome.offerBefore')} <b>{t('popups.welcome.offer')}</b>
            {t('popups.welcome.offerAfter')}
          </Text>
          <Group>
            <Button variant="default" onClick={() => close('welcome')}>
              {t('popups.maybeLater')}
            </Button>
            <Button
              onClick={() => {
                close('welcome');
                void navigate('/settings/plan?type=yearly');
              }}
            >
              {t('popups.welcome.unlock')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={popup === 'community'}
        onClose={() => close('community')}
        size="md"
        title={<ModalLabel text={t('popup.community.label')} />}
      >
        <Stack align="center" ta="center" gap="md" pb="sm">
          <ThemeIcon size={64} radius="xl" variant="light" color="indigo">
            <IconBrandDiscord size={34} />
          </ThemeIcon>
          <Title order={2}>
            {t(outOfCredits ? 'popups.community.outOfCredits.title' : 'popups.community.title')}
          </Title>
          <Text c="dimmed">
            {t(outOfCredits ? 'popups.community.outOfCredits.text' : 'popups.community.text')}
          </Text>
          <Group>
            <Button variant="default" onClick={() => close('community')}>
              {t('common.close')}
            </Button>
            <Button
              component="a"
              href={COMMUNITY_CHAT_URL}
              target="_blank"
              rel="noopener noreferrer"
              leftSection={<IconBrandDiscord size={16} />}
              onClick={() => close('community')}
            >
              {t('popups.community.join')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <NotYearlyPlanModal
        opened={popup === 'yearly'}
        onClose={() => close('yearly')}
        feature={t('popup.yearly.feature')}
      />
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
