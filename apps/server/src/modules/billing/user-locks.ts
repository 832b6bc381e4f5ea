import pg from 'pg';
import type { Database } from '../../db/client.js';

/**
 * One plan change or checkout per user at a time: N concurrent resubscribes make one
 * change, one invoice, one receipt. On PostgreSQL a session-level advisory lock on a connection
 * of its own, so every API process takes the same lock and the provider call (Stripe) runs while
 * it is held without keeping a transaction open; on PGlite (one process) a promise chain per user.
 */
export class UserLocks {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly pool: pg.Pool | null;

  constructor(database: Database) {
    this.pool = database.url ? new pg.Pool({ connectionString: database.url, max: 4 }) : null;
    // An idle lock connection that breaks (a restart) is replaced on the next lock.
    this.pool?.on('error', () => undefined);
  }

  async with<T>(userId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(userId) ?? Promise.resolve();
    // The previous holder's failure is its caller's to see (it got `run`); the chain only waits.
    const run = previous.catch(() => undefined).then(() => this.locked(userId, work));
    // Same: `settled` only marks the end of this turn; the caller awaits `run` and sees its error.
    const settled = run.catch(() => undefined);
    this.chains.set(userId, settled);
    void settled.then(() => {
      if (this.chains.get(userId) === settled) this.chains.delete(userId);
    });
    return run;
  }

  private async locked<T>(userId: string, work: () => Promise<T>): Promise<T> {
    if (!this.pool) return work();
    const client = await this.pool.connect();
    const key = `billing:${userId}`;
    try {
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        return await work();
      } finally {
        await client.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]);
      }
    } finally {
      client.release();
    }
  }

  async close() {
    await this.pool?.end();
  }
}
