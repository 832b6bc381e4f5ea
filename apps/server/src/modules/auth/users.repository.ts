import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { realtimeTickets, sessions, users } from '../../db/schema.js';
import type { Tx } from '../billing/ledger/ledger.js';

export type UserRow = typeof users.$inferSelect;

/** Thin data access for accounts and sessions; rules live in AuthService. */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const rows = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return rows[0];
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const rows = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return rows[0];
  }

  /** Creates the account; `withAccount` runs in the same transaction (its starting credits). */
  async create(
    user: { email: string; username: string; passwordHash: string; currentPlan: string },
    withAccount?: (tx: Tx, created: UserRow) => Promise<unknown> | undefined,
  ): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx.insert(users).values(user).returning();
      if (!created) throw new Error('user insert returned nothing');
      await withAccount?.(tx, created);
      return created;
    });
  }

  async createSession(tokenHash: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.insert(sessions).values({ tokenHash, userId, expiresAt });
  }

  async findSessionUser(tokenHash: string, now: Date): Promise<string | undefined> {
    const rows = await this.db
      .select({ userId: sessions.userId })
      .from(sessions)
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
      .limit(1);
    return rows[0]?.userId;
  }

  /** Housekeeping: sessions and realtime tickets past their expiry; returns how many went. */
  async purgeExpired(now: Date): Promise<{ sessions: number; tickets: number }> {
    const gone = await this.db
      .delete(sessions)
      .where(lt(sessions.expiresAt, now))
      .returning({ tokenHash: sessions.tokenHash });
    const tickets = await this.db
      .delete(realtimeTickets)
      .where(lt(realtimeTickets.expiresAt, now))
      .returning({ ticketHash: realtimeTickets.ticketHash });
    return { sessions: gone.length, tickets: tickets.length };
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  }

  async createRealtimeTicket(
    ticketHash: string,
    sessionHash: string,
    userId: string,
    expiresAt: Date,
  ): Promise<void> {
    // Expired tickets are swept here: tickets are minted rarely (one per realtime connect).
    await this.db.delete(realtimeTickets).where(lt(realtimeTickets.expiresAt, new Date()));
    await this.db.insert(realtimeTickets).values({ ticketHash, sessionHash, userId, expiresAt });
  }

  /** Deletes the ticket and returns its owner, when it exists and has not expired: single use. */
  async consumeRealtimeTicket(
    ticketHash: string,
    now: Date,
  ): Promise<{ userId: string; sessionHash: string } | undefined> {
    const rows = await this.db
      .delete(realtimeTickets)
      .where(eq(realtimeTickets.ticketHash, ticketHash))
      .returning({
        userId: realtimeTickets.userId,
        sessionHash: realtimeTickets.sessionHash,
        expiresAt: realtimeTickets.expiresAt,
      });
    const row = rows[0];
    return row && row.expiresAt > now
      ? { userId: row.userId, sessionHash: row.sessionHash }
      : undefined;
  }
}
