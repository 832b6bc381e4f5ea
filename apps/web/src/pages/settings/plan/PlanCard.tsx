import { Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { formatCredits } from '@moments/domain/format';
import {
  formatDollars,
  monthlyDisplayCents,
  yearlySaving,
  type PricingItem,
} from '@moments/domain/plans';
import { IconCheck } from '@tabler/icons-react';
import { tierLabel, type planButtonState } from '../../../account/plan';
import { t, type MessageKey } from '../../../messages/catalogue';
import { billingText } from '../../../messages/domain';

/** A grant's text in the form its count needs ('one' or 'other'). */
function counted(one: MessageKey, other: MessageKey, count: number, shown: string | number) {
  return t(count === 1 ? one : other, { count: shown, credits: shown });
}

const FEATURE_TEXT: Record<string, (limit: number) => string> = {
  CREDIT: (limit) =>
    limit === -1
      ? t('pages.plan.grant.unlimitedCredits')
      : counted(
          'pages.plan.grant.credits.one',
          'pages.plan.grant.credits.other',
          formatCredits(limit) === '1' ? 1 : limit,
          formatCredits(limit),
        ),
  FREE_TOOL_CREDIT: (limit) =>
    limit === -1
      ? t('pages.plan.grant.unlimitedFreeToolCredits')
      : counted(
          'pages.plan.grant.freeToolCredits.one',
          'pages.plan.grant.freeToolCredits.other',
          formatCredits(limit) === '1' ? 1 : limit,
          formatCredits(limit),
        ),
  CANVAS_EXPORT: (limit) =>
    limit === -1
      ? t('pages.plan.grant.unlimitedExports')
      : counted('pages.plan.grant.exports.one', 'pages.plan.grant.exports.other', limit, limit),
  MAX_VIDEO_MINUTES: (limit) =>
    limit === -1
      ? t('pages.plan.grant.anyLength')
      : counted('pages.plan.grant.minutes.one', 'pages.plan.grant.minutes.other', limit, limit),
  MAX_CLIP_MINUTES: (limit) =>
    counted('pages.plan.grant.clipMinutes.one', 'pages.plan.grant.clipMinutes.other', limit, limit),
  BRAND_KITS: (limit) =>
    limit === -1
      ? t('pages.plan.grant.unlimitedBrandKits')
      : counted('pages.plan.grant.brandKits.one', 'pages.plan.grant.brandKits.other', limit, limit),
};

/** Dollars as the plan page shows them: `$12.50`. */
export const dollars = (cents: number) => t('pages.plan.dollars', { amount: formatDollars(cents) });

export function planTitle(item: PricingItem) {
  if (item.type === 'enterprise') return t('pages.plan.enterprise');
  if (item.plan === 'free') return t('pages.plan.free');
  const tier = item.plan.includes('ssvip')
    ? tierLabel('SSVIP')
    : item.plan.includes('svip')
      ? tierLabel('SVIP')
      : tierLabel('VIP');
  return item.edu ? t('pages.plan.forEducation', { tier }) : tier;
}

/** One plan of the pricing table with its price, grants and the button its state allows. */
export function PlanCard({
  item,
  width,
  state,
  onChoose,
}: {
  item: PricingItem;
  width: number | undefined;
  state: ReturnType<typeof planButtonState>;
  onChoose(): void;
}) {
  const perMonth = monthlyDisplayCents(item);
  const saving = yearlySaving(item.plan);
  const labels: Record<typeof state, MessageKey> = {
    current: 'pages.plan.button.current',
    disabled: item.unit_amount === 0 ? 'pages.plan.free' : 'pages.plan.button.notAvailable',
    select: 'pages.plan.button.choose',
    contact: 'pages.plan.button.contact',
  };
  const label = t(labels[state]);
  return (
    <Card
      p="lg"
      withBorder
      w={width ?? '100%'}
      data-testid={`plan-card-${item.plan}`}
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      <Stack gap="xs" style={{ flex: 1 }}>
        <Title order={2} size="h4">
          {planTitle(item)}
        </Title>
        {item.type === 'enterprise' ? (
          <Text size="xl" fw={700}>
            {t('pages.plan.custom')}
          </Text>
        ) : (
          <Group gap="xs" align="baseline">
            {item.compare_at_monthly && (
              <Text td="line-through" c="dimmed">
                {dollars(item.compare_at_monthly)}
              </Text>
            )}
            <Text size="xl" fw={700}>
              {dollars(perMonth)}
            </Text>
            <Text c="dimmed" size="sm">
              {t('pages.plan.perMonth')}
            </Text>
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {billingText(item)}
        </Text>
        {saving && (
          <Text size="sm" c="teal.9" fw={600} data-testid="yearly-saving">
            {t('pages.plan.savedAgainstMonthly', {
              percent: saving.percent,
              saved: formatDollars(saving.savedCents),
              monthly: formatDollars(saving.monthlyCents),
            })}
          </Text>
        )}
        <List spacing={4} size="sm" icon={<IconCheck size={14} />}>
          {item.entitlements.map((grant) => (
            <List.Item key={grant.feature}>
              {FEATURE_TEXT[grant.feature]?.(grant.limit) ??
                t('pages.plan.grant.other', { feature: grant.feature, limit: grant.limit })}
            </List.Item>
          ))}
        </List>
      </Stack>
      <Button
        mt="md"
        fullWidth
        variant={state === 'select' ? 'filled' : 'light'}
        disabled={state === 'current' || state === 'disabled'}
        onClick={onChoose}
      >
        {label}
      </Button>
    </Card>
  );
}
