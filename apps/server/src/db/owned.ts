import { and, count, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import { notFound } from '../http/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

type UserTable = PgTable & { userId: PgColumn };

/** What a per-user row's update may change: anything but its id, owner and creation time. */
export type RowPatch<Insert> = Partial<Omit<Insert, 'id' | 'userId' | 'createdAt'>>;
type OwnedTable = UserTable & { id: PgColumn };

/** The user's rows of `table` that also meet `conditions`: every per-user read starts here. */
export const ownedBy = (table: UserTable, userId: string, ...conditions: (SQL | undefined)[]) =>
  and(eq(table.userId, userId), ...conditions);

/**
 * Inserts one row and answers it as stored (ids and defaults filled in). `db` may be the
 * caller's transaction, so the row commits with whatever else it goes with.
 */
export async function insertOne<T extends PgTable>(
  db: Db,
  table: T,
  row: T['$inferInsert'],
): Promise<T['$inferSelect']> {
  const [saved] = (await db
    .insert(table as PgTable)
    .values(row as never)
    .returning()) as T['$inferSelect'][];
  if (!saved) throw new Error('insert returned nothing');
  return saved;
}

/** How many rows of `table` the user has (the per-user caps: tokens, webhooks, brand kits). */
async function countOf(db: Db, table: UserTable, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(table as PgTable)
    .where(eq(table.userId, userId));
  return row?.n ?? 0;
}

/** Every row of `table` the user has, in `order`. */
function listOf<T extends UserTable>(
  db: Db,
  table: T,
  userId: string,
  ...order: SQL[]
): Promise<T['$inferSelect'][]> {
  return db
    .select()
    .from(table as PgTable)
    .where(eq(table.userId, userId))
    .orderBy(...order) as Promise<T['$inferSelect'][]>;
}

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

/**
 * What the user's own short lists (API tokens, webhooks, brand kits) share: add one, count
 * them for the per-user cap, list them in one fixed order.
 */
export class UserRows<T extends UserTable> {
  constructor(
    protected readonly db: Db,
    private readonly table: T,
    private readonly order: SQL[],
  ) {}

  insert(row: T['$inferInsert']): Promise<T['$inferSelect']> {
    return insertOne(this.db, this.table, row);
  }

  countOf(userId: string): Promise<number> {
    return countOf(this.db, this.table, userId);
  }

  listOf(userId: string): Promise<T['$inferSelect'][]> {
    return listOf(this.db, this.table, userId, ...this.order);
  }
}
