/**
 * One structured (pino) logger per process, shared by the HTTP layer (Fastify's own logger) and
 * the workers. Work that belongs to a task, an export or a user logs through a child logger that
 * carries its ids, so `grep taskId` follows one run through the runner, the
 * renderer, the reaper and the queue.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { pid: process.pid } }, destination);
}

/** For code built without a logger (unit tests, scripts): logs nothing. */
export const silentLogger: Logger = pino({ level: 'silent' });
