import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import type { UserInfo } from '@moments/contract';
import { IconCalendarStar } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { periodOfPlan } from '@moments/domain/plans';
import { t } from '../messages/catalogue';

/** Users whose current plan is missing or not yearly get the guard modal. */
export function needsYearlyPlanGuard(user: Pick<UserInfo, 'subscription'> | null): boolean {
  return periodOfPlan(user?.subscription.current_plan) !== 'year';
}

/**
 * The not-yearly-plan guard. Used by the NOT_YEARLY_PLAN error and by features reserved
 * for yearly members: render it with `opened={needsYearlyPlanGuard(user) && wantsFeature}`.
 */
export function NotYearlyPlanModal({
  opened,
  onClose,
  feature,
}: {
  opened: boolean;
  onClose(): void;
  /** What it is about, named in the dialog: the feature the user tried, e.g. "Video summaries". */
  feature: string;
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
          <Text fw={700}>{t('popups.yearly.title')}</Text>
        </Group>
      }
    >
      <Stack>
        <Text fw={600} data-testid="yearly-feature">
          {feature}
        </Text>
        <Text size="sm" c="dimmed">
          {t('popups.yearly.text')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('popups.maybeLater')}
          </Button>
          <Button
            onClick={() => {
              onClose();
              void navigate('/settings/plan?type=yearly');
            }}
          >
            {t('popups.yearly.seePlans')}
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
      feature={blockedFeature ?? ''}
    />
  );
  return { requireYearlyPlan, modal };
}
