import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import type { UserInfo } from '@moments/contract';
import { IconCalendarStar } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { periodOfPlan } from '@moments/domain/plans';
import { STORAGE_KEYS, readStored, writeStored } from '../lib/storage';

/** spec §6: users whose current plan is missing or not yearly get the guard modal. */
export function needsYearlyPlanGuard(user: Pick<UserInfo, 'subscription'> | null): boolean {
  return periodOfPlan(user?.subscription.current_plan) !== 'year';
}

/**
 * The not-yearly-plan guard (spec §2). Used by the NOT_YEARLY_PLAN error and by features reserved
 * for yearly members: render it with `opened={needsYearlyPlanGuard(user) && wantsFeature}`.
 */
export function NotYearlyPlanModal({
  opened,
  onClose,
  feature,
}: {
  opened: boolean;
  onClose(): void;
  /** What the user tried to use, e.g. "Video summaries". */
  feature?: string;
}) {
  const navigate = useNavigate();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="sm"
      title={
        <Group gap="sm">
          <ThemeIcon variant="light" radius="xl">
            <IconCalendarStar size={18} />
          </ThemeIcon>
          <Text fw={700}>Available on yearly plans</Text>
        </Group>
      }
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {feature ? `${feature} is` : 'This feature is'} included with yearly plans. Switch to a
          yearly plan to unlock it — it also costs less per month.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Maybe later
          </Button>
          <Button
            onClick={() => {
              onClose();
              void navigate('/settings/plan?type=yearly');
            }}
          >
            See yearly plans
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Guard for yearly-only features: `if (!requireYearlyPlan('Video summaries')) return;` before the
 * action, and render `modal` once in the component.
 */
export function useYearlyPlanGuard(user: Pick<UserInfo, 'subscription'> | null) {
  const [blockedFeature, setBlockedFeature] = useState<string | null>(null);
  const requireYearlyPlan = (feature: string): boolean => {
    if (!needsYearlyPlanGuard(user)) return true;
    setBlockedFeature(feature);
    return false;
  };
  const modal = (
    <NotYearlyPlanModal
      opened={blockedFeature !== null}
      onClose={() => setBlockedFeature(null)}
      feature={blockedFeature ?? undefined}
    />
  );
  return { requireYearlyPlan, modal };
}

/**
 * The guard as a pop-up (spec §2): shown once per plan to users whose plan is missing or not
 * yearly; closing it is remembered locally (for that plan), so it does not nag.
 */
export function YearlyPlanGuardPopup({ user }: { user: Pick<UserInfo, 'subscription'> | null }) {
  const plan = user?.subscription.current_plan ?? 'none';
  const [dismissedFor, setDismissedFor] = useState(() =>
    readStored(STORAGE_KEYS.yearlyGuardDismissed),
  );
  const opened = !!user && needsYearlyPlanGuard(user) && dismissedFor !== plan;
  return (
    <NotYearlyPlanModal
      opened={opened}
      onClose={() => {
        writeStored(STORAGE_KEYS.yearlyGuardDismissed, plan);
        setDismissedFor(plan);
      }}
    />
  );
}
