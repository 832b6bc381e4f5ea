/**
 * Whether `error` (or what it wraps: drizzle puts the driver's error in `cause`) says PostgreSQL
 * cannot be reached right now: refused or dropped connections, a server shutting down or starting
 * up (SQLSTATE class 08 and 57P01-57P03). Such a request did nothing and may simply be retried.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) return true;
    if (typeof message === 'string' && /^Connection terminated/.test(message)) return true;
    current = cause;
  }
  return false;
}

const UNAVAILABLE_CODES =
  /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|08[0-9A-Z]{3}|57P0[123])$/;
