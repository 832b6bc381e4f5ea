import { Group, List, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Moment } from '@moments/contract';
import {
  IconArrowDownRight,
  IconBolt,
  IconBook,
  IconBulb,
  IconCircleCheck,
  IconFlame,
  IconMessageCircle,
  IconQuote,
  IconRobot,
  IconSearch,
  IconTarget,
  IconUsers,
} from '@tabler/icons-react';
import { shownBreakdown } from './format';

const REASON_ICONS: Record<string, typeof IconBolt> = {
  hook: IconBolt,
  payoff: IconBulb,
  emotion: IconFlame,
  pace: IconMessageCircle,
  quotability: IconQuote,
  salience: IconTarget,
  audience: IconUsers,
  relevance: IconSearch,
  judge: IconRobot,
  story: IconBook,
  whole: IconCircleCheck,
  penalty: IconArrowDownRight,
};

/**
 * Why a moment may go viral (or, for a question, why it answers): each reason once, with the
 * points it adds; the points add up to the score on the card (`shownBreakdown`).
 */
export function MomentReasons({ moment }: { moment: Pick<Moment, 'score' | 'reasons' | 'type'> }) {
  const { reasons, total } = shownBreakdown(moment);
  if (reasons.length === 0) return null;
  const strongest = Math.max(...reasons.map((reason) => Math.abs(reason.weight)), 1);
  return (
    <Stack gap="xs">
      <List spacing="xs" listStyleType="none" data-testid="moment-reasons">
        {reasons.map((reason, index) => {
          const Icon = REASON_ICONS[reason.kind] ?? IconBolt;
          return (
            <List.Item key={`${reason.kind}-${index}`} data-points={reason.weight}>
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon size={28} radius="xl" variant="light" color="violet">
                  <Icon size={16} />
                </ThemeIcon>
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm" fw={600}>
                      {reason.label}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {reason.amount}
                    </Text>
                  </Group>
                  <Progress
                    value={(Math.abs(reason.weight) / strongest) * 100}
                    size={4}
                    color={reason.weight >= 0 ? 'violet' : 'red'}
                    aria-hidden
                  />
                  {reason.detail && (
                    <Text size="xs" c="dimmed">
                      {reason.detail}
                    </Text>
                  )}
                </Stack>
              </Group>
            </List.Item>
          );
        })}
      </List>
      {total && (
        <Text size="xs" fw={600} ta="right" data-testid="moment-reasons-total">
          {total}
        </Text>
      )}
    </Stack>
  );
}
