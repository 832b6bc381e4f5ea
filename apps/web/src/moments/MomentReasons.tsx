import { Group, List, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Moment } from '@moments/contract';
import {
  IconBolt,
  IconBulb,
  IconFlame,
  IconMessageCircle,
  IconQuote,
  IconRobot,
  IconSearch,
  IconTarget,
  IconUsers,
} from '@tabler/icons-react';
import { reasonLabel } from './format';
import { t } from '../messages/catalogue';

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
};

/** Why a moment may go viral: each reason with the points it added to the score. */
export function MomentReasons({ reasons }: { reasons: Moment['reasons'] }) {
  if (reasons.length === 0) return null;
  const sorted = [...reasons].sort((a, b) => b.weight - a.weight);
  const strongest = Math.max(...sorted.map((reason) => Math.abs(reason.weight)), 1);
  return (
    <List
      spacing="xs"
      listStyleType="none"
      data-testid="moment-reasons"
      // Each row as wide as the list, so every bar's track is the same length (a label's width
      // set it before: the list item's content is an inline box).
      styles={{ itemWrapper: { display: 'flex', width: '100%' }, itemLabel: { flex: 1 } }}
    >
      {sorted.map((reason, index) => {
        const Icon = REASON_ICONS[reason.kind] ?? IconBolt;
        return (
          <List.Item key={`${reason.kind}-${index}`}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon size={28} radius="xl" variant="light" color="violet">
                <Icon size={16} />
              </ThemeIcon>
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm" fw={600}>
                    {reasonLabel(reason.kind)}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {t('moments.reason.points', {
                      points: `${reason.weight >= 0 ? '+' : ''}${Math.round(reason.weight)}`,
                    })}
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
  );
}
