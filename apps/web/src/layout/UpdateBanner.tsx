import { Anchor, CloseButton, Group, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { UPDATE_BANNER_HEIGHT_PX } from '@moments/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../account/session';
import { STORAGE_KEYS, readStored, writeStored } from '../lib/storage';
import { t } from '../messages/catalogue';
import { bannerFor, type BannerKind } from '../popups/order';

const BANNER_TEXT: Record<BannerKind, { text: string; link: string }> = {
  'new-member-offer': { text: t('banner.newMember'), link: t('banner.newMember.link') },
  'switch-to-yearly': { text: t('banner.switchYearly'), link: t('banner.switchYearly.link') },
};

function dismissedKinds(): string[] {
  const kinds = (readStored(STORAGE_KEYS.bannerDismissedFor) ?? '').split(',').filter(Boolean);
  // Dismissed before banners had kinds: that was the new-member offer.
  if (readStored(STORAGE_KEYS.updateBannerDismissed) === '1') kinds.push('new-member-offer');
  return kinds;
}

/** Which banner shows (by plan and period), and its dismissal, remembered locally. */
export function useUpdateBanner() {
  const { status, user } = useSession();
  const [dismissed, setDismissed] = useState(dismissedKinds);
  // Nothing while the session loads: a banner that appears and then goes would shift the page.
  const kind = status === 'loading' ? null : bannerFor(user?.subscription.current_plan);
  const visible = kind !== null && !dismissed.includes(kind);
  const dismiss = () => {
    if (!kind) return;
    // Dismissal is remembered locally (per banner: a plan change may bring another).
    const next = [...dismissed, kind];
    writeStored(STORAGE_KEYS.bannerDismissedFor, next.join(','));
    setDismissed(next);
  };
  return { visible, kind, dismiss };
}

/** The 36 px banner linking to the yearly plans; what it says depends on the plan. */
export function UpdateBanner({ kind, onDismiss }: { kind: BannerKind; onDismiss(): void }) {
  const { text, link } = BANNER_TEXT[kind];
  return (
    <Group
      role="region"
      aria-label={t('a11y.announcement')}
      h={UPDATE_BANNER_HEIGHT_PX}
      pl="md"
      pr={6}
      gap="xs"
      justify="center"
      wrap="nowrap"
      data-banner={kind}
      style={{
        background:
          'linear-gradient(90deg, var(--mantine-color-violet-7), var(--mantine-color-grape-6))',
        color: 'white',
      }}
    >
      <IconSparkles size={16} style={{ flexShrink: 0 }} />
      <Text size="sm" fw={500} truncate="end" miw={0}>
        {text}
      </Text>
      {/* Never wraps, and the close button sits beside it rather than over it (phones). */}
      <Anchor
        component={Link}
        to="/settings/plan?type=yearly"
        c="white"
        size="sm"
        fw={700}
        underline="always"
        style={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        {link}
      </Anchor>
      <CloseButton
        aria-label={t('a11y.dismissAnnouncement')}
        variant="transparent"
        c="white"
        size="sm"
        ml="auto"
        style={{ flexShrink: 0 }}
        onClick={onDismiss}
      />
    </Group>
  );
}
