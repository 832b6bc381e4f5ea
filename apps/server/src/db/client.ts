import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.js';

type Schema = typeof schema;
/** The query surface shared by the PGlite and node-postgres drivers. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Runs one parameterised statement; pg-boss and LISTEN/NOTIFY users need the raw driver. */
type RawSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  readonly rawSql: RawSql;
  /** Set for the embedded database: pg-boss runs its multi-statement migrations through exec. */
  readonly pglite?: PGlite;
  /** Set for PostgreSQL: the URL other connections (pg-boss, LISTEN) use. */
  readonly url?: string;
  /**
   * Set for PostgreSQL: runs a statement prepared once per connection under `name` (one name per
   * text), so a hot query with a large plan is not planned again on every call.
   */
  readonly prepared?: (
    name: string,
    text: string,
    values: unknown[],
  ) => Promise<{ rows: unknown[] }>;
  close(): Promise<void>;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../drizzle');

/**
 * The HNSW scan settings every connection searches with: a filtered scan (a requester's own
 * passages) goes on through the graph until it has enough rows that pass the filter, instead of
 * stopping at ef_search candidates; ef_search 100 keeps recall@10 above 0.95 at a million rows.
 */
export const HNSW_SETTINGS = { 'hnsw.ef_search': '100', 'hnsw.iterative_scan': 'relaxed_order' };

/** What an operator reads when their PostgreSQL has no pgvector. */
const PGVECTOR_MISSING =
  'PostgreSQL has no pgvector extension, which search needs (its HNSW index). Install it on the ' +
  'database server: Debian/Ubuntu with PostgreSQL apt repository (apt.postgresql.org): ' +
  'apt-get install postgresql-<major>-pgvector; Fedora/RHEL: dnf install pgvector; Alpine: ' +
  'apk add postgresql-pgvector; or build it from https://github.com/pgvector/pgvector. Then ' +
  'restart the server (a role that may not create extensions needs a superuser to run ' +
  'CREATE EXTENSION vector once). See docs/deployment.md.';

/** Refuses to start on a PostgreSQL without pgvector, before any migration runs. */
async function requirePgvector(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ available: boolean; installed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
            EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed`,
  );
  if (!rows[0]?.available && !rows[0]?.installed) throw new Error(PGVECTOR_MISSING);
}

export interface DatabaseOptions {
  /** PostgreSQL URL; absent selects PGlite. */
  url?: string;
  /** PGlite data folder; absent with no url keeps the database in memory (tests). */
  dataDir?: string;
  /**
   * A PGlite database to start from (`dumpDataDir()` of a migrated one): tests open many
   * in-memory databases, and loading a migrated one takes a fraction of migrating a new one.
   */
  loadDataDir?: Blob;
  /**
   * Told when an idle PostgreSQL connection breaks (a restart): the pool drops it and opens a new
   * one on the next query. Without a listener the pool's error event would end the process.
   */
  onConnectionLost?: (error: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    // JIT off: the app's statements are short, and a plan whose row estimates run high (a fresh
    // table, the search's lateral joins) would spend about a second compiling what runs in 1 ms.
    const settings = Object.entries(HNSW_SETTINGS).map(([key, value]) => `-c ${key}=${value}`);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      options: ['-c jit=off', ...settings].join(' '),
    });
    pool.on('error', options.onConnectionLost ?? (() => undefined));
    try {
      await requirePgvector(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    await migrateNodePg(drizzleNodePg(pool, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    return {
      kind: 'postgres',
      db,
      url: options.url,
      rawSql: async (text, values) => pool.query(text, values as unknown[]),
      prepared: async (name, text, values) => pool.query({ name, text, values }),
      close: () => pool.end(),
    };
  }
  if (options.dataDir) await fs.mkdir(options.dataDir, { recursive: true });
  const client = await PGlite.create(options.dataDir, {
    loadDataDir: options.loadDataDir,
    extensions: { vector },
  });
  const database = drizzlePglite(client, { schema });
  await migratePglite(database, { migrationsFolder: MIGRATIONS_DIR });
  for (const [key, value] of Object.entries(HNSW_SETTINGS)) {
    await client.query(`SELECT set_config($1, $2, false)`, [key, value]);
  }
  return {
    kind: 'pglite',
    db: database as unknown as Db,
    pglite: client,
    rawSql: async (text, values) => client.query(text, values as unknown[]),
    close: () => client.close(),
  };
}
