import type { Db } from '../../db/client.js';
import { comingSoonSignups, feedback } from '../../db/schema.js';

/** What visitors send the operator: help feedback and sign-ups for coming features. */
export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  /** Stores one feedback message; answers its id. */
  async saveFeedback(row: { userId: string | null; email: string; content: string }) {
    const [saved] = await this.db.insert(feedback).values(row).returning({ id: feedback.id });
    return saved!.id;
  }

  async saveComingSoonSignup(row: typeof comingSoonSignups.$inferInsert): Promise<void> {
    await this.db.insert(comingSoonSignups).values(row);
  }
}
