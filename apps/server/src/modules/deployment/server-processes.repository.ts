import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { realtimePresence, serverProcesses } from '../../db/schema.js';

export type ServerProcessRow = typeof serverProcesses.$inferSelect;
export type NewServerProcess = Omit<typeof serverProcesses.$inferInsert, 'startedAt' | 'seenAt'>;

/** The server processes sharing the database, and the users connected to their realtime. */
export class ServerProcessesRepository {
  constructor(private readonly db: Db) {}

  async register(row: NewServerProcess): Promise<void> {
    await this.db
      .insert(serverProcesses)
      .values(row)
      .onConflictDoUpdate({ target: serverProcesses.id, set: { ...row, seenAt: sql`now()` } });
  }

  /** Marks the process alive now; false when its row is gone (swept after a long pause). */
  async heartbeat(id: string): Promise<boolean> {
    const rows = await this.db
      .update(serverProcesses)
      .set({ seenAt: sql`now()` })
      .where(eq(serverProcesses.id, id))
      .returning({ id: serverProcesses.id });
    return rows.length === 1;
  }

  /** Processes heard from within `withinMs` (the database's clock, the same for every machine). */
  async live(withinMs: number): Promise<ServerProcessRow[]> {
    return this.db
      .select()
      .from(serverProcesses)
      .where(gte(serverProcesses.seenAt, sql`now() - make_interval(secs => ${withinMs / 1000})`))
      .orderBy(serverProcesses.startedAt);
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(serverProcesses).where(eq(serverProcesses.id, id));
  }

  /** Forgets processes silent for longer than `silentMs` (killed ones), their presence with them. */
  async removeSilent(silentMs: number): Promise<number> {
    const rows = await this.db
      .delete(serverProcesses)
      .where(lt(serverProcesses.seenAt, sql`now() - make_interval(secs => ${silentMs / 1000})`))
      .returning({ id: serverProcesses.id });
    return rows.length;
  }

  async markConnected(processId: string, userId: string): Promise<void> {
    await this.db.insert(realtimePresence).values({ processId, userId }).onConflictDoNothing();
  }

  async markDisconnected(processId: string, userId: string): Promise<void> {
    await this.db
      .delete(realtimePresence)
      .where(and(eq(realtimePresence.processId, processId), eq(realtimePresence.userId, userId)));
  }

  /** Whether the user has a browser on a process heard from within `withinMs`. */
  async isConnected(userId: string, withinMs: number): Promise<boolean> {
    const rows = await this.db
      .select({ one: sql<number>`1` })
      .from(realtimePresence)
      .innerJoin(serverProcesses, eq(serverProcesses.id, realtimePresence.processId))
      .where(
        and(
          eq(realtimePresence.userId, userId),
          gte(serverProcesses.seenAt, sql`now() - make_interval(secs => ${withinMs / 1000})`),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }
}
