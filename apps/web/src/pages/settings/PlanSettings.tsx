import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { UserInfo } from '@moments/contract';
import { formatCredits } from '@moments/domain/format';
import {
  PLAN_PROTOCOL_TIPS,
  billingText,
  formatDollars,
  monthlyDisplayCents,
  type PricingItem,
} from '@moments/domain/plans';
import { IconCheck, IconCircleCheck } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  TIER_LABELS,
  describePlan,
  planButtonState,
  planChangeKind,
  trackPaymentSession,
} from '../../account/plan';
import { USER_INFO_QUERY_KEY, useSession } from '../../account/session';
import {
  buyCredits,
  createSubscription,
  fetchInvoices,
  fetchPricingTable,
  openPortalSession,
  previewInvoice,
  resubscribe,
  stopCancel,
  cancelSubscription,
} from '../../api/billing';
import { isApiError } from '../../api/client';
import { STORAGE_KEYS, readStored, writeStored } from '../../lib/storage';
import { CancelFlow } from './plan/CancelFlow';
import { EnterpriseContactModal } from './plan/EnterpriseContactModal';

/** spec §9: wait after a subscription change before reloading user info. */
const RELOAD_DELAY_MS = 1500;
const SUCCESS_MESSAGE_MS = 5000;
export const PAYMENT_SUCCESS_MESSAGE =
  'Enjoy your subscription! Refresh the page to see the latest data.';

const FEATURE_TEXT: Record<string, (limit: number) => string> = {
  CREDIT: (limit) => (limit === -1 ? 'Unlimited credits' : `${formatCredits(limit)} credits`),
  FREE_TOOL_CREDIT: (limit) =>
    limit === -1 ? 'Unlimited free-tool credits' : `${formatCredits(limit)} free-tool credits`,
  CANVAS_EXPORT: (limit) => (limit === -1 ? 'Unlimited exports' : `${limit} exports`),
  MAX_VIDEO_MINUTES: (limit) =>
    limit === -1 ? 'Videos of any length' : `Videos up to ${limit} minutes`,
};

function planTitle(item: PricingItem) {
  if (item.type === 'enterprise') return 'Enterprise';
  if (item.plan === 'free') return 'Free';
  const tier = item.plan.includes('ssvip')
    ? TIER_LABELS.SSVIP
    : item.plan.includes('svip')
      ? TIER_LABELS.SVIP
      : TIER_LABELS.VIP;
  return item.edu ? `${tier} for education` : tier;
}

/** Reads the payment-session history; tolerant of missing or malformed storage. */
function readSessionHistory(): string[] {
  try {
    const parsed: unknown = JSON.parse(readStored(STORAGE_KEYS.paymentSessions) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id) => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

type Pending = { item: PricingItem; kind: 'checkout' | 'change'; amount: number | null };

/** /settings/plan: plans, checkout and changes, cancel, invoices (spec §2, §4). */
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
  const [pending, setPending] = useState<Pending | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [agreementError, setAgreementError] = useState<string | null>(null);
  const [changeError, setChangeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [cancelStep, setCancelStep] = useState<'survey' | 'confirm' | 'done' | null>(null);
  const [enterpriseOpen, setEnterpriseOpen] = useState(params.get('showApiModal') === 'true');
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((id) => window.clearTimeout(id)), []);

  const later = (ms: number, run: () => void) => {
    timers.current.push(window.setTimeout(run, ms));
  };
  /** spec §4: after any change, wait 1.5 s and reload user info. */
  const reloadSoon = () =>
    later(RELOAD_DELAY_MS, () => {
      void queryClient.invalidateQueries({ queryKey: USER_INFO_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['billing', 'invoices'] });
    });
  const flash = (text: string) => {
    setMessage(text);
    later(SUCCESS_MESSAGE_MS, () => setMessage((current) => (current === text ? null : current)));
  };

  // Payment return: celebrate each session id once (last 30 remembered), then tidy the URL.
  const sessionId = params.get('session_id');
  useEffect(() => {
    if (!sessionId) return;
    const { history, isNew } = trackPaymentSession(readSessionHistory(), sessionId);
    writeStored(STORAGE_KEYS.paymentSessions, JSON.stringify(history));
    if (isNew) {
      flash(PAYMENT_SUCCESS_MESSAGE);
      reloadSoon();
    }
    setParams(
      (prev) => {
        prev.delete('session_id');
        return prev;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per returned session id
  }, [sessionId]);

  useEffect(() => {
    if (params.get('showApiModal') === 'true') setEnterpriseOpen(true);
  }, [params]);

  const subscription = user?.subscription ?? null;
  const currentPlan = subscription?.current_plan ?? 'free';
  const interval = period === 'yearly' ? 'year' : 'month';
  const items = (pricing.data?.pricing ?? []).filter(
    (item) =>
      item.interval === null ||
      (item.interval === interval && (!item.edu || user?.edu_verified === true)),
  );

  const choose = async (item: PricingItem) => {
    setChangeError(null);
    setAgreementError(null);
    setAgreed(false);
    const kind = planChangeKind(currentPlan);
    if (kind === 'checkout') {
      setPending({ item, kind, amount: item.unit_amount });
      return;
    }
    setPending({ item, kind, amount: null });
    try {
      const preview = await previewInvoice(item.plan);
      setPending({ item, kind, amount: preview.amount });
    } catch (error) {
      setChangeError(error instanceof Error ? error.message : 'Could not price this change');
    }
  };

  const confirm = async () => {
    if (!pending) return;
    if (!agreed) {
      setAgreementError(PLAN_PROTOCOL_TIPS);
      return;
    }
    setBusy(true);
    setChangeError(null);
    try {
      if (pending.kind === 'checkout') {
        const url = await createSubscription(pending.item.plan, readReferral());
        window.location.assign(url);
        return;
      }
      // spec §4: with a cancellation pending, stop it first; if resubscribing fails, cancel again.
      const wasCancelling = subscription?.cancel_at_period_end === true;
      if (wasCancelling) await stopCancel();
      try {
        if (pending.item.plan !== currentPlan || !wasCancelling)
          await resubscribe(pending.item.plan);
      } catch (error) {
        if (wasCancelling) await cancelSubscription().catch(() => undefined);
        throw error;
      }
      setPending(null);
      flash(`You're now on ${describePlan(pending.item.plan)}.`);
      reloadSoon();
    } catch (error) {
      setChangeError(
        isApiError(error) || error instanceof Error
          ? error.message
          : 'The change did not go through',
      );
      reloadSoon();
    } finally {
      setBusy(false);
    }
  };

  const openPortal = async () => {
    const { url } = await openPortalSession();
    window.open(url, '_blank', 'noopener');
  };

  const paid = currentPlan !== 'free';

  return (
    <Stack gap="lg">
      {message && (
        <Alert color="teal" icon={<IconCircleCheck size={18} />} role="status">
          {message}
        </Alert>
      )}
      <Card p="xl">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={2}>
            <Text c="dimmed" size="sm">
              Current plan
            </Text>
            <Title order={3} data-testid="current-plan">
              {describePlan(currentPlan)}
            </Title>
            {subscription?.cancel_at_period_end && (
              <Badge color="orange" variant="light">
                Cancels at the end of the period
              </Badge>
            )}
          </Stack>
          <SegmentedControl
            value={period}
            onChange={(value) =>
              setParams(
                (prev) => {
                  prev.set('type', value);
                  return prev;
                },
                { replace: true },
              )
            }
            data={[
              { label: 'Monthly', value: 'monthly' },
              { label: 'Yearly · save 50%', value: 'yearly' },
            ]}
          />
        </Group>
      </Card>

      {pricing.isPending && <Loader />}
      {pricing.isError && <Alert color="red">The plans could not be loaded.</Alert>}
      {changeError && !pending && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setChangeError(null)}>
          {changeError}
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
              item.type === 'enterprise' ? setEnterpriseOpen(true) : void choose(item)
            }
          />
        ))}
      </Group>

      {paid && (
        <Card p="xl">
          <Group justify="space-between" wrap="wrap">
            <Stack gap={2}>
              <Title order={4}>Subscription</Title>
              <Text size="sm" c="dimmed">
                Payment method, billing address and receipts are in the billing portal.
              </Text>
            </Stack>
            <Group>
              <Button variant="default" onClick={() => void openPortal()}>
                Manage billing
              </Button>
              {subscription?.cancel_at_period_end ? (
                <Button
                  variant="light"
                  onClick={() =>
                    void stopCancel().then(() => {
                      flash('Your subscription continues.');
                      reloadSoon();
                    })
                  }
                >
                  Resume subscription
                </Button>
              ) : (
                <Button color="red" variant="light" onClick={() => setCancelStep('survey')}>
                  Cancel subscription
                </Button>
              )}
            </Group>
          </Group>
        </Card>
      )}

      {pricing.data && pricing.data.credit_packs.length > 0 && (
        <Card p="xl">
          <Title order={4} mb="xs">
            Add credits
          </Title>
          <Group>
            {pricing.data.credit_packs.map((pack) => (
              <Button
                key={pack.price}
                variant="light"
                onClick={() =>
                  void buyCredits(pack.price, 1).then((url) => window.location.assign(url))
                }
              >
                {formatCredits(pack.credits)} credits · ${formatDollars(pack.unit_amount)}
              </Button>
            ))}
          </Group>
        </Card>
      )}

      <Card p="xl">
        <Title order={4} mb="sm">
          Invoices
        </Title>
        {invoices.data?.length ? (
          <Table.ScrollContainer minWidth={420}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Item</Table.Th>
                  <Table.Th>Amount</Table.Th>
                  <Table.Th>Payment method</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invoices.data.map((invoice) => (
                  <Table.Tr key={invoice.id}>
                    <Table.Td>{new Date(invoice.timestamp * 1000).toLocaleDateString()}</Table.Td>
                    <Table.Td>{invoice.description}</Table.Td>
                    <Table.Td>${formatDollars(invoice.amount)}</Table.Td>
                    <Table.Td>{invoice.payment_method}</Table.Td>
                    <Table.Td>
                      <Anchor href={invoice.link} target="_blank" rel="noopener">
                        View
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text c="dimmed" size="sm">
            No invoices yet.
          </Text>
        )}
      </Card>

      <Modal
        opened={pending !== null}
        onClose={() => setPending(null)}
        title={pending ? `Choose ${planTitle(pending.item)} (${pending.item.interval}ly)` : ''}
      >
        {pending && (
          <ConfirmBody
            pending={pending}
            user={user}
            agreed={agreed}
            setAgreed={(value) => {
              setAgreed(value);
              if (value) setAgreementError(null);
            }}
            agreementError={agreementError}
            error={changeError}
            busy={busy}
            onConfirm={() => void confirm()}
            onCancel={() => setPending(null)}
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
          setPending(null);
          flash("Thanks! We've received your request and will reply by email soon.");
        }}
      />
    </Stack>
  );
}

/** An invite code passed along from /invite/landing, if the invites feature stored one. */
function readReferral(): string | undefined {
  try {
    return window.localStorage.getItem('moments.referral') ?? undefined;
  } catch {
    return undefined;
  }
}

function ConfirmBody({
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
          ? 'You will be taken to a secure checkout to pay by card.'
          : `Your plan changes from ${describePlan(user?.subscription.current_plan)} right away.`}
      </Text>
      <Group justify="space-between">
        <Text fw={500}>{kind === 'checkout' ? 'Price' : 'Due today (prorated)'}</Text>
        {amount === null ? (
          <Loader size="sm" />
        ) : (
          <Text fw={700} size="lg" data-testid="preview-amount">
            ${formatDollars(amount)}
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
            I agree to the{' '}
            <Anchor component={Link} to="/terms-of-use" target="_blank">
              Terms of Use
            </Anchor>{' '}
            and{' '}
            <Anchor component={Link} to="/privacy-policy" target="_blank">
              Privacy Policy
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
          Back
        </Button>
        <Button loading={busy} disabled={amount === null} onClick={onConfirm}>
          {kind === 'checkout' ? 'Continue to checkout' : 'Confirm and pay'}
        </Button>
      </Group>
    </Stack>
  );
}

function PlanCard({
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
  const label = {
    current: 'Current plan',
    disabled: item.unit_amount === 0 ? 'Free' : 'Not available',
    select: 'Choose plan',
    contact: 'Contact us',
  }[state];
  return (
    <Card
      p="lg"
      withBorder
      w={width ?? '100%'}
      data-testid={`plan-card-${item.plan}`}
      style={{ display: 'flex', flexDirection: 'column' }}
    >
      <Stack gap="xs" style={{ flex: 1 }}>
        <Title order={4}>{planTitle(item)}</Title>
        {item.type === 'enterprise' ? (
          <Text size="xl" fw={700}>
            Custom
          </Text>
        ) : (
          <Group gap="xs" align="baseline">
            {item.compare_at_monthly && (
              <Text td="line-through" c="dimmed">
                ${formatDollars(item.compare_at_monthly)}
              </Text>
            )}
            <Text size="xl" fw={700}>
              ${formatDollars(perMonth)}
            </Text>
            <Text c="dimmed" size="sm">
              / month
            </Text>
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {billingText(item)}
        </Text>
        <List spacing={4} size="sm" icon={<IconCheck size={14} />}>
          {item.entitlements.map((grant) => (
            <List.Item key={grant.feature}>
              {FEATURE_TEXT[grant.feature]?.(grant.limit) ?? `${grant.feature}: ${grant.limit}`}
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
