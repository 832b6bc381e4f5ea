import { findPlan } from '@moments/domain';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  billingCheckoutSessions,
  billingEvents,
  billingInvoices,
  billingSubscriptions,
  contactRequests,
  planChanges,
  subscriptionFeedback,
  users,
} from '../../db/schema.js';
import type { Tx } from './ledger/ledger.js';
import type { CheckoutStatus, SubscriptionState } from './subscriptions/machine.js';

export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type CheckoutRow = typeof billingCheckoutSessions.$inferSelect;
type Executor = Db | Tx;

/** Data access for billing; the rules live in BillingService. */
export class BillingRepository {
  constructor(readonly db: Db) {}

  async user(id: string, tx: Executor = this.db) {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async subscription(userId: string, tx: Executor = this.db): Promise<SubscriptionRow | undefined> {
    const [row] = await tx
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.userId, userId))
      .limit(1);
    return row;
  }

  async subscriptionByProviderId(subscriptionId: string, tx: Executor = this.db) {
    const [row] = await tx
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.subscriptionId, subscriptionId))
      .limit(1);
    return row;
  }

  async userByCustomer(customerId: string, tx: Executor = this.db) {
    const [row] = await tx
      .select({ userId: billingSubscriptions.userId })
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.customerId, customerId))
      .limit(1);
    return row?.userId;
  }

  async upsertSubscription(
    row: Omit<typeof billingSubscriptions.$inferInsert, 'firstPaidAt' | 'updatedAt'>,
    tx: Executor = this.db,
  ) {
    const { userId, ...rest } = row;
    await tx
      .insert(billingSubscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: billingSubscriptions.userId,
        set: { ...rest, updatedAt: new Date() },
      });
    void userId;
  }

  async setCardLast4(userId: string, last4: string) {
    await this.db
      .update(billingSubscriptions)
      .set({ cardLast4: last4 })
      .where(eq(billingSubscriptions.userId, userId));
  }

  async setUserPlan(
    userId: string,
    plan: { currentPlan?: string; cancelAtPeriodEnd?: boolean },
    tx: Executor = this.db,
  ) {
    await tx.update(users).set(plan).where(eq(users.id, userId));
  }

  /** Records a plan change action once per event key; false when the key was seen before. */
  async recordChange(
    change: {
      userId: string;
      action: string;
      fromPlan: string | null;
      toPlan: string | null;
      eventKey: string;
    },
    tx: Executor = this.db,
  ): Promise<boolean> {
    const rows = await tx
      .insert(planChanges)
      .values(change)
      .onConflictDoNothing({ target: planChanges.eventKey })
      .returning({ id: planChanges.id });
    return rows.length > 0;
  }

  changes(userId: string) {
    return this.db
      .select()
      .from(planChanges)
      .where(eq(planChanges.userId, userId))
      .orderBy(planChanges.createdAt);
  }

  async insertCheckout(row: typeof billingCheckoutSessions.$inferInsert) {
    await this.db.insert(billingCheckoutSessions).values(row);
  }

  /** An open checkout of the same item made in the last `withinMs` (a second click reuses it). */
  async openCheckout(
    userId: string,
    item:
      { kind: 'subscription'; plan: string } | { kind: 'credits'; price: string; quantity: number },
    withinMs: number,
  ): Promise<CheckoutRow | undefined> {
    const [row] = await this.db
      .select()
      .from(billingCheckoutSessions)
      .where(
        and(
          eq(billingCheckoutSessions.userId, userId),
          eq(billingCheckoutSessions.kind, item.kind),
          eq(billingCheckoutSessions.status, 'open'),
          gt(billingCheckoutSessions.createdAt, new Date(Date.now() - withinMs)),
          item.kind === 'subscription'
            ? eq(billingCheckoutSessions.plan, item.plan)
            : and(
                eq(billingCheckoutSessions.price, item.price),
                eq(billingCheckoutSessions.quantity, item.quantity),
              ),
        ),
      )
      .orderBy(desc(billingCheckoutSessions.createdAt))
      .limit(1);
    return row?.url ? row : undefined;
  }

  /**
   * The machine's view of a user's subscription: the provider-side row, the user's
   * plan and flag, and the status of the checkout sessions the event names.
   */
  async loadState(userId: string, sessionIds: string[], tx: Executor): Promise<SubscriptionState> {
    const user = await this.user(userId, tx);
    const row = await this.subscription(userId, tx);
    const checkouts = sessionIds.length
      ? await tx
          .select({ id: billingCheckoutSessions.id, status: billingCheckoutSessions.status })
          .from(billingCheckoutSessions)
          .where(inArray(billingCheckoutSessions.id, sessionIds))
      : [];
    const seconds = (date: Date | undefined) => (date ? Math.floor(date.getTime() / 1000) : 0);
    return {
      plan: user?.currentPlan ?? 'free',
      status: !row ? 'none' : row.status === 'active' ? 'active' : 'ended',
      subscriptionId: row?.subscriptionId ?? null,
      customerId: row?.customerId ?? null,
      cancelAtPeriodEnd: user?.cancelAtPeriodEnd ?? false,
      periodStart: seconds(row?.currentPeriodStart),
      periodEnd: seconds(row?.currentPeriodEnd),
      scheduledPlan: row?.scheduledPlan ?? null,
      lastEventAt: row?.lastEventAt ?? 0,
      everPaid: !!row,
      checkouts: Object.fromEntries(
        checkouts.map((checkout) => [checkout.id, checkout.status as CheckoutStatus]),
      ),
    };
  }

  /** Stores what the machine decided (the ledger intents are carried out by the caller). */
  async saveState(
    userId: string,
    before: SubscriptionState,
    state: SubscriptionState,
    provider: string,
    tx: Executor,
  ) {
    for (const [id, status] of Object.entries(state.checkouts)) {
      if (before.checkouts[id] === status) continue;
      // Only checkouts this app made reach the machine (SubscriptionEvents), so the row is there.
      const completed = status === 'paid' ? { completedAt: new Date() } : {};
      await tx
        .update(billingCheckoutSessions)
        .set({ status, ...completed })
        .where(and(eq(billingCheckoutSessions.id, id), eq(billingCheckoutSessions.userId, userId)));
    }
    await this.setUserPlan(
      userId,
      { currentPlan: state.plan, cancelAtPeriodEnd: state.cancelAtPeriodEnd },
      tx,
    );
    if (state.status === 'none') return;
    const paidPlan = state.status === 'active' ? state.plan : before.plan;
    await this.upsertSubscription(
      {
        userId,
        provider,
        plan: paidPlan,
        status: state.status === 'active' ? 'active' : 'canceled',
        customerId: state.customerId,
        subscriptionId: state.subscriptionId,
        unitAmount: findPlan(paidPlan)?.unitAmount ?? 0,
        currentPeriodStart: new Date(state.periodStart * 1000),
        currentPeriodEnd: new Date(state.periodEnd * 1000),
        scheduledPlan: state.scheduledPlan,
        lastEventAt: state.lastEventAt,
      },
      tx,
    );
  }

  async checkout(id: string, tx: Executor = this.db): Promise<CheckoutRow | undefined> {
    const [row] = await tx
      .select()
      .from(billingCheckoutSessions)
      .where(eq(billingCheckoutSessions.id, id))
      .limit(1);
    return row;
  }

  async latestReferral(userId: string, tx: Executor = this.db) {
    const [row] = await tx
      .select({ referral: billingCheckoutSessions.referral })
      .from(billingCheckoutSessions)
      .where(
        and(
          eq(billingCheckoutSessions.userId, userId),
          eq(billingCheckoutSessions.kind, 'subscription'),
        ),
      )
      .orderBy(desc(billingCheckoutSessions.createdAt))
      .limit(1);
    return row?.referral;
  }

  /** open → paid, once: the caller that wins applies the purchase. */
  async claimCheckout(id: string, tx: Executor = this.db): Promise<boolean> {
    const rows = await tx
      .update(billingCheckoutSessions)
      .set({ status: 'paid', completedAt: new Date() })
      .where(and(eq(billingCheckoutSessions.id, id), eq(billingCheckoutSessions.status, 'open')))
      .returning({ id: billingCheckoutSessions.id });
    return rows.length > 0;
  }

  async insertInvoice(row: typeof billingInvoices.$inferInsert, tx: Executor = this.db) {
    const rows = await tx
      .insert(billingInvoices)
      .values(row)
      .onConflictDoNothing({ target: billingInvoices.providerInvoiceId })
      .returning();
    return rows[0];
  }

  invoices(userId: string) {
    return this.db
      .select()
      .from(billingInvoices)
      .where(eq(billingInvoices.userId, userId))
      .orderBy(desc(billingInvoices.createdAt))
      .limit(100);
  }

  async invoice(userId: string, id: string) {
    const [row] = await this.db
      .select()
      .from(billingInvoices)
      .where(and(eq(billingInvoices.userId, userId), eq(billingInvoices.id, id)))
      .limit(1);
    return row;
  }

  /** Claims a webhook event id; false when it was handled before (a replay). */
  async claimEvent(id: string, type: string, tx: Executor): Promise<boolean> {
    const rows = await tx
      .insert(billingEvents)
      .values({ id, type })
      .onConflictDoNothing({ target: billingEvents.id })
      .returning({ id: billingEvents.id });
    return rows.length > 0;
  }

  dueSubscriptions(now: Date) {
    return this.db
      .select()
      .from(billingSubscriptions)
      .where(
        and(
          eq(billingSubscriptions.status, 'active'),
          eq(billingSubscriptions.provider, 'test'),
          lte(billingSubscriptions.currentPeriodEnd, now),
        ),
      );
  }

  async insertFeedback(row: typeof subscriptionFeedback.$inferInsert) {
    await this.db.insert(subscriptionFeedback).values(row);
  }

  async insertContact(userId: string | null, form: Record<string, string>) {
    await this.db.insert(contactRequests).values({ userId, form });
  }
}
