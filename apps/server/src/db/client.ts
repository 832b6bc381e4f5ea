import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The query surface shared by the PGlite and node-postgres drivers. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Runs one parameterised statement; pg-boss and LISTEN/NOTIFY users need the raw driver. */
export type RawSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

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
    const pool = new pg.Pool({ connectionString: options.url, max: 10, options: '-c jit=off' });
    pool.on('error', options.onConnectionLost ?? (() => undefined));
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
  const client = await PGlite.create(options.dataDir, { loadDataDir: options.loadDataDir });
  const database = drizzlePglite(client, { schema });
  await migratePglite(database, { migrationsFolder: MIGRATIONS_DIR });
  return {
    kind: 'pglite',
    db: database as unknown as Db,
    pglite: client,
    rawSql: async (text, values) => client.query(text, values as unknown[]),
    close: () => client.close(),
  };
}
