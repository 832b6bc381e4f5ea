// Realtime channel: STOMP 1.2 over WebSocket at /stomp-ws, one queue per user
// (/user/queue/msg), fed by a bus so that any API instance can notify any user.
//
// Sync messages that must skip the client that caused them: the CONNECTED frame carries the
// connection's `session` header; the web client sends it back on HTTP calls as `X-Stomp-Session`
// and the route passes it as `publish(userId, message, { exceptSessionId })`.
//
// Wiring:
//   const bus = createRealtimeBus({ kind: 'memory' });          // or postgres/redis + url
//   const realtime = attachStompServer(fastify.server, { bus, authenticate, logger: fastify.log });
//   await realtime.ready;
//   fastify.addHook('onClose', async () => { await realtime.close(); await bus.close(); });
import type { RealtimeBus } from './bus.js';
import { InProcessBus } from './bus.js';
import type { RealtimeLogger } from './logger.js';
import { PostgresBus } from './postgres-bus.js';
import { RedisBus } from './redis-bus.js';

export { type RealtimeBus } from './bus.js';
export { PresenceRegistry, type UserPresence } from './presence.js';
export { attachStompServer } from './stomp-server.js';

export interface RealtimeBusConfig {
  kind: 'memory' | 'postgres' | 'redis';
  /** Connection string; required for 'postgres' and 'redis'. */
  url?: string;
  /** Channel shared by the instances of one deployment. */
  channel?: string;
  logger?: RealtimeLogger;
}

export function createRealtimeBus(config: RealtimeBusConfig): RealtimeBus {
  const { kind, url, channel, logger } = config;
  if (kind === 'memory') return new InProcessBus(logger);
  if (!url) throw new Error(`The ${kind} realtime bus needs a url`);
  if (kind === 'postgres') return new PostgresBus({ connectionString: url, channel, logger });
  return new RedisBus({ url, channel, logger });
}
