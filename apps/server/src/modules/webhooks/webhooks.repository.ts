import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { UserRows, findOwned, insertOne, ownedBy } from '../../db/owned.js';
import { webhookDeliveries, webhooks } from '../../db/schema.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryAttempt = DeliveryRow['attemptLog'][number];

/** Thin data access for webhooks and their deliveries; reads by id are scoped to the owner. */
export class WebhooksRepository extends UserRows<typeof webhooks> {
  constructor(db: Db) {
    super(db, webhooks, [desc(webhooks.createdAt), desc(webhooks.id)]);
  }

  /** The owner's webhook; another user's id or a malformed one is NOT_FOUND like a missing one. */
  owned(userId: string, id: string): Promise<WebhookRow> {
    return findOwned(this.db, webhooks, userId, id, 'Webhook');
  }

  async update(id: string, patch: Partial<typeof webhooks.$inferInsert>): Promise<WebhookRow> {
    const [row] = await this.db
      .update(webhooks)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(webhooks.id, id))
      .returning();
    return row!;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(webhooks).where(eq(webhooks.id, id));
  }

  /** The user's enabled webhooks that asked for `event`. */
  subscribedTo(userId: string, event: string): Promise<WebhookRow[]> {
    return this.db
      .select()
      .from(webhooks)
      .where(
        ownedBy(
          webhooks,
          userId,
          eq(webhooks.enabled, true),
          sql`${webhooks.events} @> ${JSON.stringify([event])}::jsonb`,
        ),
      );
  }

  /**
   * Marks `credits.low` as sent (true) or re-armed (false) on the user's webhooks that asked for
   * it; returns those that changed, so two processes never both send one fall.
   */
  async setCreditsLowSent(userId: string, sent: boolean): Promise<WebhookRow[]> {
    return this.db
      .update(webhooks)
      .set({ creditsLowSent: sent })
      .where(
        ownedBy(
          webhooks,
          userId,
          eq(webhooks.enabled, true),
          eq(webhooks.creditsLowSent, !sent),
          sql`${webhooks.events} @> '["credits.low"]'::jsonb`,
        ),
      )
      .returning();
  }

  insertDelivery(row: typeof webhookDeliveries.$inferInsert): Promise<DeliveryRow> {
    return insertOne(this.db, webhookDeliveries, row);
  }

  async delivery(id: string): Promise<{ delivery: DeliveryRow; webhook: WebhookRow } | undefined> {
    const [row] = await this.db
      .select({ delivery: webhookDeliveries, webhook: webhooks })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(eq(webhookDeliveries.id, id))
      .limit(1);
    return row;
  }

  /** Appends one attempt to a pending delivery's log and sets its status. */
  async recordAttempt(
    id: string,
    attempt: DeliveryAttempt,
    status: 'pending' | 'succeeded' | 'failed',
  ): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({
        status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        responseCode: attempt.response_code,
        lastAttemptAt: new Date(attempt.at),
        attemptLog: sql`${webhookDeliveries.attemptLog} || ${JSON.stringify([attempt])}::jsonb`,
      })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
  }

  deliveriesOf(webhookId: string, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit);
  }

  /** Removes delivered and failed deliveries made before `before`; how many went. */
  async removeSettledBefore(before: Date): Promise<number> {
    const rows = await this.db
      .delete(webhookDeliveries)
      .where(
        and(
          lt(webhookDeliveries.createdAt, before),
          inArray(webhookDeliveries.status, ['succeeded', 'failed']),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    return rows.length;
  }
}
