import { Badge, RingProgress, Stack, Text, Tooltip } from '@mantine/core';
import { scoreTier, type ScoreTier } from '@moments/domain/scores';
import { t } from '../messages/catalogue';

const TIER_COLORS: Record<ScoreTier, string> = { high: 'teal', medium: 'violet', low: 'gray' };

/** The virality (or, for search, relevance) score 0–100 as a ring with the number inside. */
export function ScoreRing({
  score,
  size = 64,
  label = t('moments.score.virality'),
}: {
  score: number;
  size?: number;
  label?: string;
}) {
  const color = TIER_COLORS[scoreTier(score)];
  return (
    <Tooltip label={t('moments.score.ring.tooltip', { label, score })} withArrow>
      <RingProgress
        size={size}
        thickness={Math.max(4, Math.round(size / 11))}
        roundCaps
        sections={[{ value: score, color }]}
        aria-label={t('moments.score.ring.name', { label, score })}
        data-testid="moment-score"
        label={
          <Stack gap={0} align="center">
            <Text fw={800} size={size >= 64 ? 'lg' : 'sm'} lh={1} c={`${color}.7`}>
              {score}
            </Text>
            {size >= 64 && (
              <Text size="9px" c="dimmed" lh={1.2} tt="uppercase" fw={600}>
                {t('moments.score.short')}
              </Text>
            )}
          </Stack>
        }
      />
    </Tooltip>
  );
}

/** A compact score for dense lists. */
export function ScoreBadge({ score }: { score: number }) {
  const color = TIER_COLORS[scoreTier(score)];
  return (
    <Tooltip label={t('moments.score.badge', { score })} withArrow>
      <Badge
        // Filled in the tier's darkest shade: white on it reads at 5:1 or more (the light
        // variant's teal on its tint fell under 4.5:1).
        color={`${color}.9`}
        variant="filled"
        size="lg"
        radius="sm"
        aria-label={t('moments.score.badge', { score })}
        style={{ flexShrink: 0, overflow: 'visible' }}
      >
        {score}
      </Badge>
    </Tooltip>
  );
}
