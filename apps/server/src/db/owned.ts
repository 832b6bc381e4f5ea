import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import { notFound } from '../http/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

type OwnedTable = PgTable & { id: PgColumn; userId: PgColumn };

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
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.userId, userId)))
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}
