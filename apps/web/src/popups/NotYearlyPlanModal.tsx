import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCalendarStar } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { t } from '../messages/catalogue';

/** The not-yearly-plan guard, shown for the NOT_YEARLY_PLAN error. */
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
