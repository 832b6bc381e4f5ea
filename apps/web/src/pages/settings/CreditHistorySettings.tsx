import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { CreditMovement } from '@moments/contract';
import { formatCredits } from '@moments/domain/format';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { fetchCreditHistory } from '../../api/billing';
import { t, type MessageKey } from '../../messages/catalogue';
import { creditMovementText } from '../../messages/domain';

const BUCKET_LABELS: Record<string, MessageKey> = {
  plan: 'pages.credits.bucket.plan',
  reward: 'pages.credits.bucket.reward',
  purchased: 'pages.credits.bucket.purchased',
};
const bucketLabel = (bucket: string) => {
  const key = BUCKET_LABELS[bucket];
  return key ? t(key) : bucket;
};
const KIND_LABELS: Record<CreditMovement['kind'], MessageKey> = {
  charge: 'pages.credits.kind.charge',
  refund: 'pages.credits.kind.refund',
  grant: 'pages.credits.kind.grant',
  expire: 'pages.credits.kind.expire',
};
const KIND_COLORS: Record<CreditMovement['kind'], string> = {
  charge: 'red',
  refund: 'teal',
  grant: 'violet',
  expire: 'gray',
};
const PAGE_SIZE = 20;
/** The balance cards, in the order credits are spent. */
const BUCKETS = ['plan', 'reward', 'purchased'] as const;

/** Credit units as they are displayed: divided by 10, signed for movements. */
const signed = (units: number) =>
  `${units > 0 ? '+' : units < 0 ? '−' : ''}${formatCredits(Math.abs(units))}`;
/** Exports count the plan's exports, not credits. */
const unitsOf = (movement: Pick<CreditMovement, 'feature'>, units: number) =>
  movement.feature === 'CANVAS_EXPORT'
    ? t(Math.abs(units) === 1 ? 'pages.credits.exports.one' : 'pages.credits.exports.other', {
        sign: units > 0 ? '+' : '',
        count: units,
      })
    : signed(units);

function workLink(movement: CreditMovement) {
  const title =
    movement.work_title ??
    (movement.task_id || movement.job_id ? t('pages.credits.deletedWork') : null);
  if (!title) return null;
  if (movement.job_id && movement.work_title)
    return <Link to={`/job/${movement.job_id}`}>{title}</Link>;
  if (movement.task_id && movement.work_title) {
    return <Link to={`/video/${movement.task_id}/moments`}>{title}</Link>;
  }
  return (
    <Text size="sm" c="dimmed">
      {title}
    </Text>
  );
}

/**
 * Settings → Credits: where every credit went. The balance by bucket (the plan's grant,
 * rewards, bought credits) and every movement of the ledger with its date, reason, amount, the task
 * or export it belongs to and the bucket's balance after it, newest first, a page at a time.
 */
export function CreditHistorySettings() {
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: ['credit-history', page],
    queryFn: () => fetchCreditHistory(page, PAGE_SIZE),
  });
  const data = history.data;
  const credits = (data?.balances ?? []).filter((balance) => balance.feature === 'CREDIT');

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={2} size="h3">
          {t('pages.settings.credits')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('pages.credits.order')}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }} data-testid="credit-balances">
        {BUCKETS.map((bucket) => {
          const row = credits.find((balance) => balance.bucket === bucket);
          return (
            <Card key={bucket} withBorder padding="md">
              <Text size="sm" c="dimmed">
                {bucketLabel(bucket)}
              </Text>
              <Text fw={700} size="xl">
                {row?.unlimited ? t('pages.unlimited') : formatCredits(row?.balance ?? 0)}
              </Text>
            </Card>
          );
        })}
      </SimpleGrid>
      <Table.ScrollContainer minWidth={320}>
        <Table
          verticalSpacing="sm"
          aria-label={t('a11y.creditHistory')}
          data-testid="credit-history"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('pages.credits.date')}</Table.Th>
              <Table.Th>{t('pages.credits.what')}</Table.Th>
              <Table.Th ta="right">{t('pages.credits.amount')}</Table.Th>
              <Table.Th ta="right">{t('pages.credits.balanceAfter')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(data?.movements ?? []).map((movement) => (
              <Table.Tr key={movement.id}>
                <Table.Td>
                  <Text size="sm">{new Date(movement.created_at).toLocaleString()}</Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    <Group gap={6} wrap="wrap">
                      <Badge size="xs" variant="light" color={KIND_COLORS[movement.kind]}>
                        {t(KIND_LABELS[movement.kind])}
                      </Badge>
                      <Text size="sm">{creditMovementText(movement)}</Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {bucketLabel(movement.bucket)}
                    </Text>
                    {workLink(movement)}
                  </Stack>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm" fw={600} c={movement.amount < 0 ? 'red.9' : 'teal.9'}>
                    {unitsOf(movement, movement.amount)}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">
                    {movement.balance_after === null
                      ? t('pages.unlimited')
                      : movement.feature === 'CANVAS_EXPORT'
                        ? movement.balance_after
                        : formatCredits(movement.balance_after)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {data && data.movements.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('pages.credits.none')}
        </Text>
      )}
      <Group justify="space-between">
        <Button variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
          {t('pages.credits.newer')}
        </Button>
        <Text size="sm" c="dimmed">
          {t('pages.credits.page', { page })}
        </Text>
        <Button variant="default" disabled={!data || data.last} onClick={() => setPage(page + 1)}>
          {t('pages.credits.older')}
        </Button>
      </Group>
    </Stack>
  );
}
