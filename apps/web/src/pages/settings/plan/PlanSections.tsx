import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { Invoice, UserInfo } from '@moments/contract';
import { formatCredits } from '@moments/domain/format';
import { describePlan } from '../../../account/plan';
import { buyCredits } from '../../../api/billing';
import { t } from '../../../messages/catalogue';
import { dollars } from './PlanCard';

/* The plan page's cards other than the plans themselves. */

/** The plan the user is on, and the monthly/yearly switch of the table below. */
export function CurrentPlanCard({
  subscription,
  period,
  onPeriod,
}: {
  subscription: UserInfo['subscription'] | null;
  period: 'monthly' | 'yearly';
  onPeriod(value: string): void;
}) {
  return (
    <Card p="xl">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={2}>
          <Text c="dimmed" size="sm">
            {t('pages.plan.current')}
          </Text>
          <Title order={2} size="h3" data-testid="current-plan">
            {describePlan(subscription?.current_plan)}
          </Title>
          {subscription?.cancel_at_period_end && (
            <Badge color="orange" variant="light">
              {t('pages.plan.cancelsAtPeriodEnd')}
            </Badge>
          )}
        </Stack>
        <SegmentedControl
          value={period}
          onChange={onPeriod}
          data={[
            { label: t('pages.plan.monthly'), value: 'monthly' },
            { label: t('pages.plan.yearlySave'), value: 'yearly' },
          ]}
        />
      </Group>
    </Card>
  );
}

/** A paying user's subscription: the billing portal, and cancel or resume. */
export function SubscriptionCard({
  cancelling,
  onPortal,
  onResume,
  onCancel,
}: {
  cancelling: boolean;
  onPortal(): void;
  onResume(): void;
  onCancel(): void;
}) {
  return (
    <Card p="xl">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {t('pages.plan.subscription')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('pages.plan.portalText')}
          </Text>
        </Stack>
        <Group>
          <Button variant="default" onClick={onPortal}>
            {t('pages.plan.manageBilling')}
          </Button>
          {cancelling ? (
            <Button variant="light" onClick={onResume}>
              {t('pages.plan.resume')}
            </Button>
          ) : (
            <Button color="red" variant="light" onClick={onCancel}>
              {t('pages.plan.cancel')}
            </Button>
          )}
        </Group>
      </Group>
    </Card>
  );
}

/** Credit top-ups: each pack goes to checkout. */
export function CreditPacksCard({
  packs,
}: {
  packs: ReadonlyArray<{ price: string; credits: number; unit_amount: number }>;
}) {
  return (
    <Card p="xl">
      <Title order={2} size="h4" mb="xs">
        {t('pages.plan.addCredits')}
      </Title>
      <Group>
        {packs.map((pack) => (
          <Button
            key={pack.price}
            variant="light"
            onClick={() =>
              void buyCredits(pack.price, 1).then((url) => window.location.assign(url))
            }
          >
            {t('pages.plan.pack', {
              credits: formatCredits(pack.credits),
              price: dollars(pack.unit_amount),
            })}
          </Button>
        ))}
      </Group>
    </Card>
  );
}

/** Every invoice with its provider link. */
export function InvoicesCard({ invoices }: { invoices: readonly Invoice[] | undefined }) {
  return (
    <Card p="xl">
      <Title order={2} size="h4" mb="sm">
        {t('pages.plan.invoices')}
      </Title>
      {invoices?.length ? (
        <Table.ScrollContainer minWidth={420}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('pages.plan.invoice.date')}</Table.Th>
                <Table.Th>{t('pages.plan.invoice.item')}</Table.Th>
                <Table.Th>{t('pages.plan.invoice.amount')}</Table.Th>
                <Table.Th>{t('pages.plan.invoice.paymentMethod')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.map((invoice) => (
                <Table.Tr key={invoice.id}>
                  <Table.Td>{new Date(invoice.timestamp * 1000).toLocaleDateString()}</Table.Td>
                  <Table.Td>{invoice.description}</Table.Td>
                  <Table.Td>{dollars(invoice.amount)}</Table.Td>
                  <Table.Td>{invoice.payment_method}</Table.Td>
                  <Table.Td>
                    <Anchor href={invoice.link} target="_blank" rel="noopener">
                      {t('pages.plan.invoice.view')}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed" size="sm">
          {t('pages.plan.invoice.none')}
        </Text>
      )}
    </Card>
  );
}
