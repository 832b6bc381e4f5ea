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

export {
  type PublishOptions,
  type RealtimeBus,
  type UserMessage,
  type UserMessageHandler,
} from './bus.js';
export type { RealtimeLogger } from './logger.js';
export {
  PresenceRegistry,
  type LocalPresence,
  type SharedPresence,
  type UserPresence,
} from './presence.js';
export { type PostgresBusOptions } from './postgres-bus.js';
export { type RedisBusOptions } from './redis-bus.js';
export {
  attachStompServer,
  type StompServerHandle,
  type StompServerOptions,
} from './stomp-server.js';

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
