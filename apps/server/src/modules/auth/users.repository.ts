import { and, eq, gt, isNull, like, lt, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  brandKits,
  contactRequests,
  emailChanges,
  feedback,
  idempotencyKeys,
  jobs,
  linkPreviews,
  mailOptOuts,
  mediaAnalyses,
  notes,
  notifications,
  realtimeTickets,
  referralCodes,
  sessions,
  subscriptionFeedback,
  tasks,
  uploadStarts,
  uploads,
  users,
  webhooks,
} from '../../db/schema.js';
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

  /**
   * Housekeeping: sessions, realtime tickets and email-change links past their expiry; returns
   * how many went.
   */
  async purgeExpired(
    now: Date,
  ): Promise<{ sessions: number; tickets: number; emailLinks: number }> {
    const gone = await this.db
      .delete(sessions)
      .where(lt(sessions.expiresAt, now))
      .returning({ tokenHash: sessions.tokenHash });
    const tickets = await this.db
      .delete(realtimeTickets)
      .where(lt(realtimeTickets.expiresAt, now))
      .returning({ ticketHash: realtimeTickets.ticketHash });
    const emailLinks = await this.db
      .delete(emailChanges)
      .where(lt(emailChanges.expiresAt, now))
      .returning({ tokenHash: emailChanges.tokenHash });
    return { sessions: gone.length, tickets: tickets.length, emailLinks: emailLinks.length };
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

  /**
   * Ends every session of the user but `keepTokenHash` (the caller's own, after a password
   * change); returns the ended ones so their sockets can be closed. Realtime tickets minted
   * from them go too (their foreign key cascades).
   */
  async deleteSessionsOf(userId: string, keepTokenHash?: string): Promise<string[]> {
    const rows = await this.db
      .delete(sessions)
      .where(
        keepTokenHash
          ? and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash))
          : eq(sessions.userId, userId),
      )
      .returning({ tokenHash: sessions.tokenHash });
    return rows.map((row) => row.tokenHash);
  }

  async updatePassword(userId: string, passwordHash: string): Promise<void> {
    await this.db.update(users).set({ passwordHash }).where(eq(users.id, userId));
  }

  /** A change of email waiting for its link; an earlier pending link of the user stops working. */
  async createEmailChange(change: {
    tokenHash: string;
    userId: string;
    newEmail: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .delete(emailChanges)
        .where(and(eq(emailChanges.userId, change.userId), isNull(emailChanges.usedAt)));
      await tx.insert(emailChanges).values(change);
    });
  }

  async findEmailChange(tokenHash: string) {
    const rows = await this.db
      .select()
      .from(emailChanges)
      .where(eq(emailChanges.tokenHash, tokenHash))
      .limit(1);
    return rows[0];
  }

  /**
   * Marks the link used and sets the account's email, in one transaction: of two openings at
   * once only one finds the link unused. Returns false when it was used already.
   */
  async applyEmailChange(tokenHash: string, userId: string, newEmail: string, now: Date) {
    return this.db.transaction(async (tx) => {
      const used = await tx
        .update(emailChanges)
        .set({ usedAt: now })
        .where(and(eq(emailChanges.tokenHash, tokenHash), isNull(emailChanges.usedAt)))
        .returning({ tokenHash: emailChanges.tokenHash });
      if (!used.length) return false;
      await tx.update(users).set({ email: newEmail }).where(eq(users.id, userId));
      return true;
    });
  }

  /**
   * What stays of a deleted account: its id (the ledger and invoices point at it), its plan, and
   * no email, name or usable password. The placeholder address keeps the unique index happy and
   * can never receive mail (`.invalid` is reserved).
   */
  async anonymise(userId: string, unusablePasswordHash: string, now: Date): Promise<void> {
    await this.db
      .update(users)
      .set({
        email: `deleted-${userId}@deleted.invalid`,
        username: 'deleted',
        passwordHash: unusablePasswordHash,
        eduVerified: false,
        deletedAt: now,
      })
      .where(eq(users.id, userId));
  }

  /**
   * The rows of a deleted account that hold what the user made or wrote (its tasks and exports
   * are deleted before, by their services, with their files): uploads, notes, notifications,
   * forms with an address, preferences, invite code, pending links, kept replies, brand kits. The ledger,
   * invoices, checkouts and plan changes stay: accounting needs them, and they name no one.
   */
  /** The ids of the user's tasks (the account's deletion deletes each through its service). */
  async taskIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db.select({ id: tasks.id }).from(tasks).where(eq(tasks.userId, userId));
    return rows.map((row) => row.id);
  }

  /** The ids of the user's exports (read again after their tasks are deleted: those took theirs). */
  async exportIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.userId, userId));
    return rows.map((row) => row.id);
  }

  async deletePersonalRows(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const table of [
        uploads,
        uploadStarts,
        notes,
        notifications,
        contactRequests,
        subscriptionFeedback,
        feedback,
        mailOptOuts,
        referralCodes,
        linkPreviews,
        idempotencyKeys,
        emailChanges,
        realtimeTickets,
        // Deliveries go with their webhook (cascade).
        webhooks,
        // Their logos are under the user's storage folder, emptied with it.
        brandKits,
      ]) {
        await tx.delete(table).where(eq(table.userId, userId));
      }
      await tx.delete(mediaAnalyses).where(like(mediaAnalyses.mediaKey, `users/${userId}/%`));
    });
  }
}
