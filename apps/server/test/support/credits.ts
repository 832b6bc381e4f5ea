import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.js';
import type { Services } from '../../src/services.js';

/** The entitlement of `feature` as user info reports it (derived from the buckets). */
export async function entitlementOf(services: Services, userId: string, feature: string) {
  const [user] = await services.database.db.select().from(users).where(eq(users.id, userId));
  const all = await services.billing.reads.entitlements(userId, user?.currentPlan ?? 'free');
  return all.find((entitlement) => entitlement.feature === feature)!;
}

/** Leaves the user with nothing to spend: the plan's grant expires through the ledger. */
export async function spendAll(services: Services, userId: string) {
  await services.billing.ledger.expire(
    userId,
    `test:expire:${randomUUID()}`,
    'Test: balance spent',
  );
}
