import { LEDGER_REASONS, findCreditPack } from '@moments/domain';
import type { Db } from '../../../db/client.js';
import { silentLogger, type Logger } from '../../../logging.js';
import type { BillingRepository, CheckoutRow } from '../billing.repository.js';
import type { BillingMail } from '../billing-mail.js';
import type { Ledger, Tx } from '../ledger/ledger.js';
import type { PaymentProvider, ProviderEvents } from '../providers/payment-provider.js';
import type { UserLocks } from '../user-locks.js';
import { transition, type Intent } from './machine.js';
import { parseProviderEvent, type ProviderEvent, type UserHints } from './provider-events.js';

export interface BillingHooks {
  /** Called once, after commit, when a user's first paid plan starts (referral rewards). */
  onFirstPaidPlan?(userId: string, referral: string | undefined): Promise<void>;
  /** Called whenever a user's credits moved (a charge, refund, grant or expiry). */
  onCreditsMoved?(userId: string): void;
}

export type EventOutcome = 'handled' | 'duplicate' | 'ignored' | 'rejected';

/** Work that runs after the transaction commits (mail, provider calls, hooks). */
type AfterCommit = () => Promise<void>;

export interface SubscriptionEventsOptions {
  db: Db;
  repo: BillingRepository;
  ledger: Ledger;
  locks: UserLocks;
  provider: PaymentProvider;
  mail: BillingMail;
  hooks?: BillingHooks;
  log?: Logger;
}

/**
 * Applies provider events: parse, find the user, take the user's lock, run the state
 * machine, and in one transaction store its state, carry out its ledger intents and record the
 * invoice. Each event id is handled once; an event that cannot be used is logged and answered
 * 2xx, so the provider stops sending it.
 */
export class SubscriptionEvents {
  private readonly deps: SubscriptionEventsOptions & {
    hooks: NonNullable<SubscriptionEventsOptions['hooks']>;
    log: NonNullable<SubscriptionEventsOptions['log']>;
  };

  constructor(options: SubscriptionEventsOptions) {
    this.deps = { ...options, hooks: options.hooks ?? {}, log: options.log ?? silentLogger };
  }

  /** A verified webhook body (or an event the TEST MODE provider made): takes the user's lock. */
  async handle(raw: unknown): Promise<{ outcome: EventOutcome; reason?: string }> {
    const parsed = parseProviderEvent(raw);
    if (!parsed.ok) {
      this.deps.log.warn(
        { eventId: parsed.id, type: parsed.type, reason: parsed.reason },
        'billing event rejected',
      );
      return { outcome: parsed.ignored ? 'ignored' : 'rejected', reason: parsed.reason };
    }
    const userId = await this.userOf(parsed.event.hints);
    if (!userId) {
      const reason = 'no user matches the event';
      this.deps.log.warn(
        { eventId: parsed.event.id, type: parsed.event.type, ...parsed.event.hints, reason },
        'billing event rejected',
      );
      return { outcome: 'ignored', reason };
    }
    return this.deps.locks.with(userId, () => this.applyLocked(userId, parsed.event));
  }

  /** Events a provider produced while the caller holds the user's lock (test mode, in-app changes). */
  async applyAllLocked(userId: string, events: ProviderEvents) {
    for (const raw of events) {
      const parsed = parseProviderEvent(raw);
      if (!parsed.ok) throw new Error(`the provider made an unusable event: ${parsed.reason}`);
      await this.applyLocked(userId, parsed.event);
    }
  }

  private async applyLocked(
    userId: string,
    event: ProviderEvent,
  ): Promise<{ outcome: EventOutcome; reason?: string }> {
    const after: AfterCommit[] = [];
    const result = await this.deps.db.transaction(async (tx) => {
      if (!(await this.deps.repo.claimEvent(event.id, event.type, tx))) {
        return { outcome: 'duplicate' as const };
      }
      const user = await this.deps.repo.user(userId, tx);
      if (!user) return { outcome: 'ignored' as const, reason: 'the user is gone' };
      const own = await this.ownCheckout(userId, event, tx);
      if ('reason' in own) return { outcome: 'rejected' as const, reason: own.reason };
      const machine = own.machine;
      const sessions = 'checkout' in machine ? [machine.checkout.sessionId] : [];
      const before = await this.deps.repo.loadState(userId, sessions, tx);
      const step = transition(before, machine, { eduVerified: user.eduVerified });
      if (step.state !== before) {
        await this.deps.repo.saveState(userId, before, step.state, this.deps.provider.name, tx);
      }
      for (const intent of step.intents) await this.carryOut(tx, userId, intent, event, after);
      // Money taken is recorded whatever the plan does: a top-up only once it is paid.
      const paidTopUp = step.intents.some((intent) => intent.type === 'grant-purchase');
      if (event.invoice && (event.machine.type === 'invoice.paid' || paidTopUp)) {
        const invoice = event.invoice;
        const row = await this.deps.repo.insertInvoice({ userId, ...invoice }, tx);
        if (row && invoice.amount > 0)
          after.push(() => this.deps.mail.receipt(userId, invoice.amount, invoice.paymentMethod));
      }
      return step.rejected
        ? { outcome: 'rejected' as const, reason: step.rejected }
        : { outcome: 'handled' as const };
    });
    if (result.outcome === 'rejected') {
      this.deps.log.warn(
        { eventId: event.id, type: event.type, userId, reason: result.reason },
        'billing event rejected',
      );
    }
    for (const run of after) await run();
    return result;
  }

  /**
   * A checkout event counts only for a checkout this app made for this user, of the same kind
   * and, for a top-up, the same amount; the credits it grants are the ones recorded when the
   * checkout was made, never the event's metadata. Anyone holding the webhook secret could
   * otherwise sign a session of their own with any number of credits.
   */
  private async ownCheckout(
    userId: string,
    event: ProviderEvent,
    tx: Tx,
  ): Promise<{ machine: ProviderEvent['machine'] } | { reason: string }> {
    const machine = event.machine;
    if (!('checkout' in machine)) return { machine };
    const { sessionId, mode } = machine.checkout;
    const row = await this.deps.repo.checkout(sessionId, tx);
    const kind = mode === 'payment' ? 'credits' : 'subscription';
    if (!row || row.userId !== userId || row.kind !== kind) {
      return {
        reason: `checkout ${sessionId} is not a ${kind} checkout this app made for the user`,
      };
    }
    if (kind === 'subscription') return { machine };
    // A subscription checkout grants nothing itself (its subscription's events start the plan);
    // a top-up grants what was bought, so what was taken must be what was asked.
    if (event.checkoutAmount !== row.amount) {
      return {
        reason: `checkout ${sessionId} took ${event.checkoutAmount ?? 'no amount'}, not the ${row.amount} it was made for`,
      };
    }
    return { machine: { ...machine, checkout: { ...machine.checkout, credits: creditsOf(row) } } };
  }

  private async carryOut(
    tx: Tx,
    userId: string,
    intent: Intent,
    event: ProviderEvent,
    after: AfterCommit[],
  ) {
    switch (intent.type) {
      case 'grant-plan':
        await this.deps.ledger.grant(
          userId,
          { source: 'plan', plan: intent.plan, action: intent.action, key: intent.key },
          { tx },
        );
        return;
      case 'grant-purchase':
        await this.deps.ledger.grant(
          userId,
          {
            source: 'purchased',
            amount: intent.credits,
            key: intent.key,
            reason: LEDGER_REASONS.topUp,
          },
          { tx },
        );
        return;
      case 'record-change':
        await this.deps.repo.recordChange(
          {
            userId,
            action: intent.action,
            fromPlan: intent.from,
            toPlan: intent.to,
            eventKey: intent.key,
          },
          tx,
        );
        return;
      case 'cancel-subscription':
        after.push(async () => {
          try {
            await this.deps.provider.cancelAndRefund(intent.subscriptionId, new Date());
            this.deps.log.warn(
              { userId, subscriptionId: intent.subscriptionId, reason: intent.reason },
              'subscription cancelled and refunded',
            );
          } catch (error) {
            this.deps.log.error(
              { err: error, userId, subscriptionId: intent.subscriptionId, eventId: event.id },
              'could not cancel a subscription that must not bill',
            );
          }
        });
        return;
      case 'first-paid-plan': {
        const referral =
          event.referral ?? (await this.deps.repo.latestReferral(userId, tx)) ?? undefined;
        after.push(async () => {
          try {
            await this.deps.hooks.onFirstPaidPlan?.(userId, referral || undefined);
          } catch (error) {
            // A referral reward must never undo a payment.
            this.deps.log.error({ err: error, userId }, 'onFirstPaidPlan hook failed');
          }
        });
        return;
      }
    }
  }

  /** The user an event belongs to: its metadata, then the subscription, then the customer. */
  private async userOf(hints: UserHints): Promise<string | undefined> {
    if (
      hints.userId &&
      /^[0-9a-f-]{36}$/i.test(hints.userId) &&
      (await this.deps.repo.user(hints.userId))
    ) {
      return hints.userId;
    }
    if (hints.subscriptionId) {
      const known = await this.deps.repo.subscriptionByProviderId(hints.subscriptionId);
      if (known) return known.userId;
    }
    return hints.customerId ? this.deps.repo.userByCustomer(hints.customerId) : undefined;
  }
}

/** The credits a top-up checkout was made for: its pack's credits times the quantity. */
function creditsOf(row: CheckoutRow): number {
  return (findCreditPack(row.price ?? '')?.credits ?? 0) * row.quantity;
}
