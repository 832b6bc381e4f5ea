/**
 * One structured (pino) logger per process, shared by the HTTP layer (Fastify's own logger) and
 * the workers. Work that belongs to a task, an export or a user logs through a child logger that
 * carries its ids, so `grep taskId` follows one run through the runner, the
 * renderer, the reaper and the queue.
 */
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    { level, base: { pid: process.pid }, serializers: { err: serializeError } },
    destination,
  );
}

/** For code built without a logger (unit tests, scripts): logs nothing. */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * An error as pino writes it, less the values bound to a failed query: drizzle puts every one of
 * them in its error's message, stack and `params`, and they are what users sent (a note's whole
 * text, an email address). The statement itself, with its placeholders, stays.
 */
function serializeError(error: unknown) {
  return stdSerializers.err(withoutQueryValues(error, 0) as Error);
}

function withoutQueryValues(error: unknown, depth: number): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const cause = withoutQueryValues(error.cause, depth + 1);
  if (!(error instanceof DrizzleQueryError) && cause === error.cause) return error;
  const message =
    error instanceof DrizzleQueryError
      ? `Failed query: ${error.query}\nparams: ${error.params.length} values, not logged`
      : error.message;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  Object.assign(copy, error);
  if (error instanceof DrizzleQueryError) Object.assign(copy, { params: undefined });
  Object.defineProperties(copy, {
    message: { value: message, writable: true, configurable: true },
    stack: {
      value: error.stack?.replace(error.message, message),
      writable: true,
      configurable: true,
    },
    cause: { value: cause, writable: true, configurable: true },
  });
  return copy;
}
