import {
  MAIL_CATEGORY_LABELS,
  USER_MAIL_CATEGORIES,
  type MailPreferences,
  type UserMailCategory,
} from '@moments/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOptOuts } from '../../db/schema.js';

export const isUserMailCategory = (value: string): value is UserMailCategory =>
  (USER_MAIL_CATEGORIES as readonly string[]).includes(value);

/** Which categories of mail a user stopped; every category is on until the user stops it. */
export class MailPreferencesService {
  constructor(private readonly db: Db) {}

  async isStopped(userId: string, category: string): Promise<boolean> {
    const rows = await this.db
      .select({ category: mailOptOuts.category })
      .from(mailOptOuts)
      .where(and(eq(mailOptOuts.userId, userId), eq(mailOptOuts.category, category)))
      .limit(1);
    return rows.length > 0;
  }

  async setEnabled(userId: string, category: UserMailCategory, enabled: boolean): Promise<void> {
    if (enabled) {
      await this.db
        .delete(mailOptOuts)
        .where(and(eq(mailOptOuts.userId, userId), eq(mailOptOuts.category, category)));
    } else {
      await this.db.insert(mailOptOuts).values({ userId, category }).onConflictDoNothing();
    }
  }

  async list(userId: string): Promise<MailPreferences> {
    const stopped = new Set(
      (
        await this.db
          .select({ category: mailOptOuts.category })
          .from(mailOptOuts)
          .where(eq(mailOptOuts.userId, userId))
      ).map((row) => row.category),
    );
    return {
      categories: USER_MAIL_CATEGORIES.map((category) => ({
        category,
        label: MAIL_CATEGORY_LABELS[category],
        enabled: !stopped.has(category),
      })),
    };
  }
}
