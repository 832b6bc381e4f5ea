import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import { notFound } from '../http/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

type OwnedTable = PgTable & { id: PgColumn; userId: PgColumn };

/** The first row of `table` that `where` matches; undefined when none does. */
export async function findOneBy<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
): Promise<T['$inferSelect'] | undefined> {
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(where)
    .limit(1);
  return rows[0] as T['$inferSelect'] | undefined;
}

/**
 * The one way to load a per-user row by id: scoped to its owner, so another user's id (or a
 * malformed one) answers 404 exactly like a missing one and reveals nothing.
 */
export async function findOwned<T extends OwnedTable>(
  db: Db,
  table: T,
  userId: string,
  id: unknown,
  what: string,
): Promise<T['$inferSelect']> {
  if (!isUuid(id)) throw notFound(what);
  const row = await findOneBy(db, table, and(eq(table.id, id), eq(table.userId, userId)));
  if (!row) throw notFound(what);
  return row;
}
