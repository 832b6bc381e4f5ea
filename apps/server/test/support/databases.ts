import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.js';

/**
 * PostgreSQL used by the suite: the one with pgvector that vitest's global setup starts
 * (scripts/test-postgres.global-setup.ts), or the server TEST_DATABASE_URL names.
 */
export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let problem: Promise<string | null> | undefined;
/** Why the suite's PostgreSQL cannot run the database tests (unreachable, no pgvector), or null. */
function postgresProblem(): Promise<string | null> {
  problem ??= (async () => {
    if (process.env.TEST_PGVECTOR_MISSING === '1') {
      return 'PostgreSQL with pgvector is not installed (run bash scripts/setup.sh, or set TEST_DATABASE_URL to a PostgreSQL with pgvector)';
    }
    const client = new pg.Client({
      connectionString: TEST_POSTGRES_URL,
      connectionTimeoutMillis: 2000,
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ vector: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS vector",
      );
      return rows[0]?.vector
        ? null
        : `PostgreSQL at ${TEST_POSTGRES_URL} has no pgvector extension (run bash scripts/setup.sh and leave TEST_DATABASE_URL unset)`;
    } catch {
      return `PostgreSQL is not reachable at ${TEST_POSTGRES_URL}`;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return problem;
}

/** Whether the suite's PostgreSQL can run the database tests (reachable, with pgvector). */
export async function postgresReachable(): Promise<boolean> {
  return (await postgresProblem()) === null;
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  /** Why the target cannot run here, or null when it can. */
  unavailable(): Promise<string | null>;
  /** A fresh, migrated database of this kind, dropped by close(). */
  open(): Promise<Database>;
}

/**
 * A throwaway database per call on the PostgreSQL server, so test files run in parallel without
 * sharing rows, and the same migrations run as on PGlite.
 */
export async function createScratchPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `moments_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await dropper.connect();
      // Other pools (job queue, realtime bus) close asynchronously; wait for them rather than
      // killing their connections, which would surface as errors in the test run.
      for (let i = 0; i < 50; i++) {
        const { rows } = await dropper.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

async function openFreshPostgres(): Promise<Database> {
  const scratch = await createScratchPostgres();
  const database = await openDatabase({ url: scratch.url });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

let migratedPglite: Promise<Blob> | undefined;

/**
 * A fresh, migrated in-memory PGlite. The first one in a process is migrated and kept as a dump;
 * the next ones load that dump (a fraction of a second instead of seconds of migrations).
 */
export async function openPglite(): Promise<Database> {
  migratedPglite ??= (async () => {
    const first = await openDatabase({});
    try {
      return await first.pglite!.dumpDataDir('none');
    } finally {
      await first.close();
    }
  })();
  return openDatabase({ loadDataDir: await migratedPglite });
}

const ALL_DATABASE_TARGETS: DatabaseTarget[] = [
  { name: 'pglite', unavailable: async () => null, open: () => openPglite() },
  {
    name: 'postgres',
    async unavailable() {
      const found = await postgresProblem();
      if (!found) return null;
      const message = `${found}: skipping the PostgreSQL run of these tests`;
      // CI sets REQUIRE_POSTGRES=1: there a missing server is a failure, not a skip.
      if (process.env.REQUIRE_POSTGRES === '1') throw new Error(message);
      console.warn(message);
      return message;
    },
    open: openFreshPostgres,
  },
];

/**
 * The databases the suite's database tests run on: both, unless TEST_DATABASES names some
 * (`npm test`, the fast tier, sets `pglite` so it needs no server and runs each test once).
 */
export const DATABASE_TARGETS: DatabaseTarget[] = selectTargets(process.env.TEST_DATABASES);

function selectTargets(names: string | undefined): DatabaseTarget[] {
  if (!names) return ALL_DATABASE_TARGETS;
  const wanted = names.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !ALL_DATABASE_TARGETS.some((t) => t.name === name));
  if (unknown.length) {
    throw new Error(`TEST_DATABASES: unknown database(s) ${unknown.join(', ')} (pglite, postgres)`);
  }
  return ALL_DATABASE_TARGETS.filter((target) => wanted.includes(target.name));
}
