import { and, desc, eq, lte } from 'drizzle-orm';
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
import type { Tx } from '../credits/credits.service.js';

export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;
export type CheckoutRow = typeof billingCheckoutSessions.$inferSelect;
export type InvoiceRow = typeof billingInvoices.$inferSelect;
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

  async setUserPlan(
    userId: string,
    plan: { currentPlan?: string; cancelAtPeriodEnd?: boolean },
    tx: Executor = this.db,
  ) {
    await tx.update(users).set(plan).where(eq(users.id, userId));
  }

  /** Records a spec §4 plan change once per event key; false when the key was seen before. */
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
