import { DrizzleQueryError } from 'drizzle-orm/errors';

/** SQLSTATE classes that only a database says: connection exceptions, shutting down, starting up. */
const DATABASE_STATES = /^(08[0-9A-Z]{3}|57P0[123])$/;
/** PostgreSQL's disk_full: a write found no room in the data directory (or a temp file did not fit). */
const DISK_FULL_STATE = '53100';
/** Socket failures: a database outage only when they come out of a query (see below). */
const SOCKET_CODES = /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH)$/;

/**
 * Whether `error` (or what it wraps: drizzle puts the driver's error in `cause`) says PostgreSQL
 * cannot be reached right now: a server shutting down or starting up, a dropped connection, or a
 * refused one. Socket codes count only under a failed query, so a reset of some other connection
 * (an LLM endpoint, a download) is not reported as the database. Such a request did nothing and
 * may simply be retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let fromQuery = false;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DrizzleQueryError) fromQuery = true;
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && DATABASE_STATES.test(code)) return true;
    if (fromQuery && typeof code === 'string' && SOCKET_CODES.test(code)) return true;
    if (typeof message === 'string' && /^Connection terminated/.test(message)) return true;
    current = cause;
  }
  return false;
}

/**
 * Whether `error` (or what it wraps) is PostgreSQL saying its disk is full: nothing of the
 * statement was kept, and the user is told so (DISK_FULL), as for a full disk under a file.
 */
export function isDatabaseDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === DISK_FULL_STATE) return true;
    current = cause;
  }
  return false;
}
