import { Alert, Card, Group, Loader, Modal, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCircleCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PriceList } from '../../account/PriceList';
import { planButtonState, trackPaymentSession } from '../../account/plan';
import { USER_INFO_QUERY_KEY, useSession } from '../../account/session';
import { fetchInvoices, fetchPricingTable, openPortalSession, stopCancel } from '../../api/billing';
import { STORAGE_KEYS, readStored, writeStored } from '../../lib/storage';
import { t } from '../../messages/catalogue';
import { CancelFlow } from './plan/CancelFlow';
import { ConfirmPlanBody } from './plan/ConfirmPlanBody';
import { EnterpriseContactModal } from './plan/EnterpriseContactModal';
import { PlanCard, planTitle } from './plan/PlanCard';
import {
  CreditPacksCard,
  CurrentPlanCard,
  InvoicesCard,
  SubscriptionCard,
} from './plan/PlanSections';
import { usePlanChange } from './plan/usePlanChange';

/** Wait after a subscription change before reloading user info. */
const RELOAD_DELAY_MS = 1500;
const SUCCESS_MESSAGE_MS = 5000;

/** Reads the payment-session history; tolerant of missing or malformed storage. */
function readSessionHistory(): string[] {
  try {
    const parsed: unknown = JSON.parse(readStored(STORAGE_KEYS.paymentSessions) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id) => typeof id === 'string') : [];
  } catch {
    return []; // unreadable storage: no session was celebrated yet
  }
}

/** /settings/plan: plans, checkout and changes, cancel, invoices. */
export function PlanSettings() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const period = params.get('type') === 'monthly' ? 'monthly' : 'yearly';
  const isWide = useMediaQuery('(min-width: 48em)') ?? true;

  const pricing = useQuery({ queryKey: ['billing', 'pricing'], queryFn: fetchPricingTable });
  const invoices = useQuery({
    queryKey: ['billing', 'invoices'],
    queryFn: fetchInvoices,
    enabled: !!user,
  });

  const [message, setMessage] = useState<string | null>(null);
  const [cancelStep, setCancelStep] = useState<'survey' | 'confirm' | 'done' | null>(null);
  const [enterpriseOpen, setEnterpriseOpen] = useState(params.get('showApiModal') === 'true');
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((id) => window.clearTimeout(id)), []);

  const later = (ms: number, run: () => void) => {
    timers.current.push(window.setTimeout(run, ms));
  };
  /** After any change, wait 1.5 s and reload user info. */
  const reloadSoon = () =>
    later(RELOAD_DELAY_MS, () => {
      void queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['billing', 'invoices'] });
    });
  const flash = (text: string) => {
    setMessage(text);
    later(SUCCESS_MESSAGE_MS, () => setMessage((current) => (current === text ? null : current)));
  };

  const subscription = user?.subscription ?? null;
  const change = usePlanChange(subscription, { onDone: flash, onSettled: reloadSoon });

  // Payment return: celebrate each session id once (last 30 remembered), then tidy the URL.
  const sessionId = params.get('session_id');
  useEffect(() => {
    if (!sessionId) return;
    const { history, isNew } = trackPaymentSession(readSessionHistory(), sessionId);
    writeStored(STORAGE_KEYS.paymentSessions, JSON.stringify(history));
    if (isNew) {
      // The spec's message thanks for a subscription; a top-up bought credits.
      flash(t(params.get('topup') ? 'pages.plan.topUpSuccess' : 'pages.plan.paymentSuccess'));
      reloadSoon();
    }
    setParams(
      (prev) => {
        prev.delete('session_id');
        prev.delete('topup');
        return prev;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per returned session id
  }, [sessionId]);

  useEffect(() => {
    if (params.get('showApiModal') === 'true') setEnterpriseOpen(true);
  }, [params]);

  const currentPlan = subscription?.current_plan ?? 'free';
  const interval = period === 'yearly' ? 'year' : 'month';
  const items = (pricing.data?.pricing ?? []).filter(
    (item) =>
      item.interval === null ||
      (item.interval === interval && (!item.edu || user?.edu_verified === true)),
  );
  const setPeriod = (value: string) =>
    setParams(
      (prev) => {
        prev.set('type', value);
        return prev;
      },
      { replace: true },
    );
  const openPortal = async () => {
    const { url } = await openPortalSession();
    window.open(url, '_blank', 'noopener');
  };
  const { pending } = change;

  return (
    <Stack gap="lg">
      {message && (
        <Alert color="teal" icon={<IconCircleCheck size={18} />} role="status">
          {message}
        </Alert>
      )}
      <CurrentPlanCard subscription={subscription} period={period} onPeriod={setPeriod} />

      {pricing.isPending && <Loader />}
      {pricing.isError && <Alert color="red">{t('pages.plan.loadFailed')}</Alert>}
      {change.error && !pending && (
        <Alert color="red" role="alert" withCloseButton onClose={change.clearError}>
          {change.error}
        </Alert>
      )}

      <Group align="stretch" gap="md" wrap="wrap">
        {items.map((item) => (
          <PlanCard
            key={item.plan}
            item={item}
            width={
              isWide ? (item.plan === 'free' || item.type === 'enterprise' ? 548 : 360) : undefined
            }
            state={planButtonState(subscription, item)}
            onChoose={() =>
              item.type === 'enterprise' ? setEnterpriseOpen(true) : void change.choose(item)
            }
          />
        ))}
      </Group>

      {currentPlan !== 'free' && (
        <SubscriptionCard
          cancelling={subscription?.cancel_at_period_end === true}
          onPortal={() => void openPortal()}
          onResume={() =>
            void stopCancel().then(() => {
              flash(t('pages.plan.continues'));
              reloadSoon();
            })
          }
          onCancel={() => setCancelStep('survey')}
        />
      )}

      {pricing.data && pricing.data.credit_packs.length > 0 && (
        <CreditPacksCard packs={pricing.data.credit_packs} />
      )}

      <Card p="xl">
        <Title order={2} size="h4" mb="xs">
          {t('pages.plan.whatCreditsBuy')}
        </Title>
        <PriceList />
      </Card>

      <InvoicesCard invoices={invoices.data} />

      <Modal
        opened={pending !== null}
        onClose={change.close}
        title={
          pending
            ? t(
                pending.item.interval === 'year'
                  ? 'pages.plan.choose.year'
                  : 'pages.plan.choose.month',
                { plan: planTitle(pending.item) },
              )
            : ''
        }
      >
        {pending && (
          <ConfirmPlanBody
            pending={pending}
            user={user}
            agreed={change.agreed}
            setAgreed={change.setAgreed}
            agreementError={change.agreementError}
            error={change.error}
            busy={change.busy}
            onConfirm={() => void change.confirm()}
            onCancel={change.close}
          />
        )}
      </Modal>

      <CancelFlow
        step={cancelStep}
        setStep={setCancelStep}
        email={user?.email ?? ''}
        periodEnd={null}
        onChanged={reloadSoon}
      />

      <EnterpriseContactModal
        opened={enterpriseOpen}
        email={user?.email}
        onClose={() => setEnterpriseOpen(false)}
        onSent={() => {
          setEnterpriseOpen(false);
          change.close();
          flash(t('pages.plan.enterpriseSent'));
        }}
      />
    </Stack>
  );
}
