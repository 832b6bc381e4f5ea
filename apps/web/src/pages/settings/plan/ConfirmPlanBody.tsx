import { Alert, Anchor, Button, Checkbox, Group, Loader, Stack, Text } from '@mantine/core';
import type { UserInfo } from '@moments/contract';
import type { PricingItem } from '@moments/domain/plans';
import { Link } from 'react-router';
import { describePlan } from '../../../account/plan';
import { t } from '../../../messages/catalogue';
import { billingText } from '../../../messages/domain';
import { dollars } from './PlanCard';

/** A plan being bought (checkout) or changed to (prorated preview; null while it loads). */
export type Pending = { item: PricingItem; kind: 'checkout' | 'change'; amount: number | null };

/** The confirm step before checkout or a plan change: price, terms, then go. */
export function ConfirmPlanBody({
  pending,
  user,
  agreed,
  setAgreed,
  agreementError,
  error,
  busy,
  onConfirm,
  onCancel,
}: {
  pending: Pending;
  user: UserInfo | null;
  agreed: boolean;
  setAgreed(value: boolean): void;
  agreementError: string | null;
  error: string | null;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { item, kind, amount } = pending;
  return (
    <Stack>
      <Text size="sm">
        {kind === 'checkout'
          ? t('pages.plan.confirm.checkout')
          : t('pages.plan.confirm.change', {
              plan: describePlan(user?.subscription.current_plan),
            })}
      </Text>
      <Group justify="space-between">
        <Text fw={500}>
          {t(kind === 'checkout' ? 'pages.plan.confirm.price' : 'pages.plan.confirm.dueToday')}
        </Text>
        {amount === null ? (
          <Loader size="sm" />
        ) : (
          <Text fw={700} size="lg" data-testid="preview-amount">
            {dollars(amount)}
          </Text>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {billingText(item)}
      </Text>
      <Checkbox
        checked={agreed}
        onChange={(event) => setAgreed(event.currentTarget.checked)}
        error={agreementError}
        label={
          <>
            {t('pages.plan.confirm.agreeBefore')}{' '}
            <Anchor component={Link} to="/terms-of-use" target="_blank">
              {t('title.termsOfUse')}
            </Anchor>{' '}
            {t('pages.login.agreeAnd')}{' '}
            <Anchor component={Link} to="/privacy-policy" target="_blank">
              {t('title.privacyPolicy')}
            </Anchor>
          </>
        }
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('a11y.back')}
        </Button>
        <Button loading={busy} disabled={amount === null} onClick={onConfirm}>
          {t(kind === 'checkout' ? 'pages.plan.confirm.toCheckout' : 'pages.plan.confirm.pay')}
        </Button>
      </Group>
    </Stack>
  );
}
