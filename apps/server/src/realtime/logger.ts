/** The slice of Fastify's (pino) logger the realtime channel uses, so `fastify.log` fits as is. */
export interface RealtimeLogger {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

export const consoleLogger: RealtimeLogger = {
  info: () => {},
  warn: (details, message) => console.warn(message, details),
  error: (details, message) => console.error(message, details),
};
