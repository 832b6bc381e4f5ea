import { createLogger } from '../logging.js';

/** The slice of Fastify's (pino) logger the realtime channel uses, so `fastify.log` fits as is. */
export interface RealtimeLogger {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

/** For a channel built without the server's logger (tests, tools): warnings and errors only. */
export const fallbackLogger: RealtimeLogger = createLogger('warn');
