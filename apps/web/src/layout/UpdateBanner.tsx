import { Anchor, CloseButton, Group, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { UPDATE_BANNER_HEIGHT_PX } from '@moments/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { STORAGE_KEYS, readStored, writeStored } from '../lib/storage';

export function useUpdateBanner() {
  const [visible, setVisible] = useState(
    () => readStored(STORAGE_KEYS.updateBannerDismissed) !== '1',
  );
  const dismiss = () => {
    // spec §2: dismissal is remembered locally.
    writeStored(STORAGE_KEYS.updateBannerDismissed, '1');
    setVisible(false);
  };
  return { visible, dismiss };
}

/** spec §2 / §9: the 36 px limited-time banner linking to the yearly plans. */
export function UpdateBanner({ onDismiss }: { onDismiss(): void }) {
  return (
    <Group
      role="region"
      aria-label="Announcement"
      h={UPDATE_BANNER_HEIGHT_PX}
      px="md"
      gap="xs"
      justify="center"
      wrap="nowrap"
      pos="relative"
      style={{
        background:
          'linear-gradient(90deg, var(--mantine-color-violet-7), var(--mantine-color-grape-6))',
        color: 'white',
      }}
    >
      <IconSparkles size={16} />
      <Text size="sm" fw={500} truncate="end">
        Limited time: 50% off the annual plan for new members.
      </Text>
      <Anchor
        component={Link}
        to="/settings/plan?type=yearly"
        c="white"
        size="sm"
        fw={700}
        underline="always"
      >
        See yearly plans
      </Anchor>
      <CloseButton
        aria-label="Dismiss announcement"
        variant="transparent"
        c="white"
        size="sm"
        pos="absolute"
        right={12}
        onClick={onDismiss}
      />
    </Group>
  );
}
