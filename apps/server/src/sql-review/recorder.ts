import { drizzle } from 'drizzle-orm/pg-proxy';
import type { Db } from '../db/client.js';
import * as schema from '../db/schema.js';

/** One statement as the driver would have received it. */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

/**
 * A drizzle database that runs nothing: every statement a repository sends is written down (text
 * with $1.. placeholders, and its parameters) and answered with no rows, except that a statement with
 * `returning` gets one empty row, as if the write found its row, so a method goes on to its next
 * statement. Transactions run their callback on the same recorder between a recorded `begin` and
 * `commit` (`rollback` when it throws).
 */
export function recordingDatabase(): { db: Db; take(): RecordedStatement[] } {
  let statements: RecordedStatement[] = [];
  const proxy = drizzle(
    async (text, params) => {
      statements.push({ sql: text, params });
      return { rows: /\breturning\b/i.test(text) ? [[]] : [] };
    },
    { schema },
  ) as unknown as Db;
  const db: Db = Object.assign(Object.create(proxy) as Db, {
    // pg-proxy refuses transactions; here a transaction is only a bracket around its statements.
    transaction: async <T>(work: (tx: Db) => Promise<T>): Promise<T> => {
      statements.push({ sql: 'begin', params: [] });
      try {
        const result = await work(db);
        statements.push({ sql: 'commit', params: [] });
        return result;
      } catch (error) {
        statements.push({ sql: 'rollback', params: [] });
        throw error;
      }
    },
  });
  return {
    db,
    take() {
      const taken = statements;
      statements = [];
      return taken;
    },
  };
}
