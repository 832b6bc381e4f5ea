import { z } from 'zod';
import type { SubscriptionEvent } from './machine.js';

/*
 * The edge between a payment provider and the state machine: a Stripe-shaped event (a verified
 * Stripe webhook, or one the TEST MODE provider made the same way) is validated and turned into a
 * machine event plus what the handler needs around it (who it belongs to, an invoice to record).
 * Only the fields read here are checked; a signed event without them is rejected, changes nothing
 * and is answered 2xx (Stripe would otherwise retry it for days).
 */

const id = z.string().min(1).max(255);
const unix = z.number().int().nonnegative();
const metadata = z.record(z.string(), z.string()).nullish();
const expandable = z.union([id, z.object({ id })]).nullish();
const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const SubscriptionObject = z.object({
  id,
  status: z.string(),
  customer: expandable,
  cancel_at_period_end: z.boolean(),
  current_period_start: unix,
  current_period_end: unix,
  metadata,
  items: z.object({
    data: z
      .array(
        z.object({
          price: z.object({ lookup_key: z.string().nullish(), id: z.string().nullish() }).nullish(),
          plan: z.object({ id: z.string() }).nullish(),
        }),
      )
      .min(1),
  }),
});

const CheckoutObject = z.object({
  id,
  mode: z.enum(['subscription', 'payment', 'setup']),
  payment_status: z.string(),
  client_reference_id: z.string().nullish(),
  customer: expandable,
  subscription: expandable,
  amount_total: z.number().int().nullish(),
  metadata,
});

const InvoiceObject = z.object({
  id,
  customer: expandable,
  subscription: expandable,
  amount_paid: z.number().int().nonnegative(),
  currency: z.string().max(10).default('usd'),
  billing_reason: z.string().nullish(),
  hosted_invoice_url: z.string().nullish(),
  invoice_pdf: z.string().nullish(),
  period_start: unix.nullish(),
  period_end: unix.nullish(),
  subscription_details: z.object({ metadata }).nullish(),
  metadata,
  lines: z
    .object({
      data: z.array(
        z.object({
          description: z.string().nullish(),
          period: z.object({ start: unix, end: unix }).nullish(),
        }),
      ),
    })
    .nullish(),
});

const Envelope = z.object({
  id,
  type: z.string(),
  created: unix,
  data: z.object({ object: z.unknown() }),
});

/** Who an event belongs to, as far as the event itself says. */
export interface UserHints {
  userId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

interface InvoiceRecord {
  providerInvoiceId: string;
  description: string;
  amount: number;
  currency: string;
  hostedUrl: string | null;
  /** How it was paid, as the invoice list shows it ("Visa ending in 4242"). */
  paymentMethod: string;
}

export interface ProviderEvent {
  id: string;
  type: string;
  machine: SubscriptionEvent;
  hints: UserHints;
  /** A payment to record as an invoice (and a receipt) once the event is applied. */
  invoice?: InvoiceRecord;
  /** The referral given at checkout (subscription checkouts). */
  referral?: string | null;
  /** What a checkout session says it took, in cents, to compare with the checkout this app made. */
  checkoutAmount?: number | null;
}

export type ParsedEvent =
  | { ok: true; event: ProviderEvent }
  | { ok: false; id: string | null; type: string | null; reason: string; ignored?: boolean };

/** The plan a subscription is on: the price's lookup key (or plan id), else its metadata. */
function planOf(subscription: z.infer<typeof SubscriptionObject>): string {
  const item = subscription.items.data[0]!;
  return (
    item.price?.lookup_key ??
    item.plan?.id?.replace(/^moments_/, '') ??
    subscription.metadata?.plan ??
    ''
  );
}

function failure(raw: unknown, reason: string, ignored = false): ParsedEvent {
  const envelope = raw as { id?: unknown; type?: unknown } | null;
  return {
    ok: false,
    id: typeof envelope?.id === 'string' ? envelope.id : null,
    type: typeof envelope?.type === 'string' ? envelope.type : null,
    reason,
    ...(ignored ? { ignored } : {}),
  };
}

const issues = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    .join('; ');

type Base = { id: string; type: string };
type CheckoutEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed';

const CHECKOUT_MACHINE_TYPE = {
  'checkout.session.completed': 'checkout.completed',
  'checkout.session.async_payment_succeeded': 'checkout.async_payment_succeeded',
  'checkout.session.async_payment_failed': 'checkout.async_payment_failed',
} as const;

/** Validates a Stripe-shaped event and turns it into a machine event. */
export function parseProviderEvent(raw: unknown): ParsedEvent {
  const envelope = Envelope.safeParse(raw);
  if (!envelope.success) return failure(raw, `malformed event: ${issues(envelope.error)}`);
  const { type, created: at, data } = envelope.data;
  const base = { id: envelope.data.id, type };
  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
      return checkoutEvent(raw, base, type, at, data.object);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return subscriptionEvent(raw, base, at, data.object);
    case 'invoice.paid':
      return invoicePaidEvent(raw, base, at, data.object);
    default:
      return failure(raw, `event type ${type} is not used`, true);
  }
}

function checkoutEvent(
  raw: unknown,
  base: Base,
  type: CheckoutEventType,
  at: number,
  object: unknown,
): ParsedEvent {
  const parsed = CheckoutObject.safeParse(object);
  if (!parsed.success) return failure(raw, `malformed checkout session: ${issues(parsed.error)}`);
  const session = parsed.data;
  if (session.mode === 'setup') return failure(raw, 'setup sessions buy nothing', true);
  const credits = Number(session.metadata?.credits ?? 0) * Number(session.metadata?.quantity ?? 1);
  const paidNow = type !== 'checkout.session.async_payment_failed';
  return {
    ok: true,
    event: {
      ...base,
      machine: {
        type: CHECKOUT_MACHINE_TYPE[type],
        at,
        checkout: {
          sessionId: session.id,
          mode: session.mode,
          paymentStatus: session.payment_status,
          credits: Number.isFinite(credits) ? credits : 0,
        },
      },
      hints: {
        userId: session.metadata?.userId ?? session.client_reference_id ?? null,
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
      },
      // A top-up's payment is its invoice; a subscription's comes as invoice.paid.
      ...(session.mode === 'payment' && paidNow
        ? {
            invoice: {
              providerInvoiceId: session.id,
              description: `Credit top-up x ${session.metadata?.quantity ?? 1}`,
              amount: session.amount_total ?? 0,
              currency: 'usd',
              hostedUrl: null,
              paymentMethod: session.metadata?.payment_method ?? 'card',
            },
          }
        : {}),
      referral: session.metadata?.referral || null,
      checkoutAmount: session.amount_total ?? null,
    },
  };
}

function subscriptionEvent(raw: unknown, base: Base, at: number, object: unknown): ParsedEvent {
  const parsed = SubscriptionObject.safeParse(object);
  if (!parsed.success) return failure(raw, `malformed subscription: ${issues(parsed.error)}`);
  const subscription = parsed.data;
  return {
    ok: true,
    event: {
      ...base,
      machine: {
        type: base.type.replace('customer.', '') as 'subscription.created',
        at,
        subscription: {
          id: subscription.id,
          status: subscription.status,
          plan: planOf(subscription),
          customerId: idOf(subscription.customer),
          cancelAtPeriodEnd: subscription.cancel_at_period_end,
          periodStart: subscription.current_period_start,
          periodEnd: subscription.current_period_end,
        },
      },
      hints: {
        userId: subscription.metadata?.userId ?? null,
        customerId: idOf(subscription.customer),
        subscriptionId: subscription.id,
      },
    },
  };
}

function invoicePaidEvent(raw: unknown, base: Base, at: number, object: unknown): ParsedEvent {
  const parsed = InvoiceObject.safeParse(object);
  if (!parsed.success) return failure(raw, `malformed invoice: ${issues(parsed.error)}`);
  const invoice = parsed.data;
  const line = invoice.lines?.data[0];
  const periodStart = line?.period?.start ?? invoice.period_start ?? 0;
  const periodEnd = line?.period?.end ?? invoice.period_end ?? periodStart;
  return {
    ok: true,
    event: {
      ...base,
      machine: {
        type: 'invoice.paid',
        at,
        subscriptionId: idOf(invoice.subscription),
        billingReason: invoice.billing_reason ?? 'manual',
        periodStart,
        periodEnd,
      },
      hints: {
        userId: invoice.subscription_details?.metadata?.userId ?? null,
        customerId: idOf(invoice.customer),
        subscriptionId: idOf(invoice.subscription),
      },
      invoice: {
        providerInvoiceId: invoice.id,
        description: line?.description ?? 'Moments subscription',
        amount: invoice.amount_paid,
        currency: invoice.currency,
        hostedUrl: invoice.hosted_invoice_url ?? invoice.invoice_pdf ?? null,
        paymentMethod: invoice.metadata?.payment_method ?? 'card',
      },
    },
  };
}
