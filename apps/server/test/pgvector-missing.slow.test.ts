/**
 * A PostgreSQL without pgvector (this machine's at 127.0.0.1:5432, or PLAIN_POSTGRES_URL): the
 * server refuses to start, before any migration, and says how to install the extension.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';

const PLAIN_URL = process.env.PLAIN_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function plainServer(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PLAIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ vector: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS vector",
    );
    return rows[0]!.vector ? `PostgreSQL at ${PLAIN_URL} has pgvector` : null;
  } catch {
    return `no PostgreSQL at ${PLAIN_URL}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unavailable = await plainServer();

describe('a PostgreSQL without pgvector', () => {
  it('is refused at start with the way to install pgvector, and left unmigrated', async (ctx) => {
    if (unavailable) return ctx.skip(`${unavailable}: nothing to refuse here`);
    const name = `moments_plain_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PLAIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(PLAIN_URL);
      url.pathname = `/${name}`;
      await expect(openDatabase({ url: url.toString() })).rejects.toThrow(
        /no pgvector extension.*apt-get install postgresql-<major>-pgvector.*docs\/deployment\.md/s,
      );
      const probe = new pg.Client({ connectionString: url.toString() });
      await probe.connect();
      const { rows } = await probe.query("SELECT to_regclass('public.users') AS users");
      await probe.end();
      expect(rows[0].users).toBeNull();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
