import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOptOuts } from '../../db/schema.js';

/** The categories of mail each user stopped (a row per stopped category). */
export class MailPreferencesRepository {
  constructor(private readonly db: Db) {}

  async isStopped(userId: string, category: string): Promise<boolean> {
    const rows = await this.db
      .select({ category: mailOptOuts.category })
      .from(mailOptOuts)
      .where(and(eq(mailOptOuts.userId, userId), eq(mailOptOuts.category, category)))
      .limit(1);
    return rows.length > 0;
  }

  async stop(userId: string, category: string): Promise<void> {
    await this.db.insert(mailOptOuts).values({ userId, category }).onConflictDoNothing();
  }

  async resume(userId: string, category: string): Promise<void> {
    await this.db
      .delete(mailOptOuts)
      .where(and(eq(mailOptOuts.userId, userId), eq(mailOptOuts.category, category)));
  }

  async stoppedCategories(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ category: mailOptOuts.category })
      .from(mailOptOuts)
      .where(eq(mailOptOuts.userId, userId));
    return rows.map((row) => row.category);
  }
}
