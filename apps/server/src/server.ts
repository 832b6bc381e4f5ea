import type { FastifyBaseLogger } from 'fastify';
import { buildHttpApp } from './app.js';
import type { AppConfig } from './config/index.js';
import { secretFingerprint } from './modules/deployment/deployment-checks.js';
import { ServerProcessesRepository } from './modules/deployment/server-processes.repository.js';
import { ServerRegistry } from './modules/deployment/server-registry.js';
import { checkStorage, loadAppSecret } from './storage/index.js';
import { attachStompServer } from './realtime/index.js';
import type { App } from './http/types.js';
import type { Logger } from './logging.js';
import { createServices, startWorkers, type Services } from './services.js';
import { apiTokenSessionKey, isApiToken } from './modules/api-tokens/api-tokens.service.js';
import { scopesAllow } from './http/token-scopes.js';

/**
 * The STOMP endpoint beside the HTTP API on the same port, authenticated by a realtime ticket, an
 * API client's session token, or a personal API token that may read.
 */
export function attachRealtime(app: App, services: Services) {
  const stomp = attachStompServer(app.server, {
    authenticate: async (token) => {
      if (!isApiToken(token)) return services.auth.authenticateRealtime(token);
      const identity = await services.apiTokens.authenticate(token);
      if (!identity || !scopesAllow(identity.scopes, 'read')) return null;
      return { userId: identity.userId, sessionKey: apiTokenSessionKey(identity.tokenId) };
    },
    bus: services.bus,
    logger: app.log,
    maxConnectionsPerUser: services.config.REALTIME_MAX_CONNECTIONS_PER_USER,
    onPresence: (userId, connected) => services.presence.changed(userId, connected),
  });
  // Mail about finished work is skipped for users watching live.
  services.presence.attach(stomp);
  return stomp;
}

export interface RunningServer {
  /** The address the API listens on, e.g. http://127.0.0.1:8080 */
  url: string;
  log: FastifyBaseLogger;
  stop(): Promise<void>;
}

/**
 * Before taking traffic or jobs: files can be kept (a probe object written, read and deleted),
 * and this process agrees with the others on the database (APP_SECRET, REALTIME_BUS,
 * PUBLIC_URL); either failing refuses the start with the fix.
 */
async function joinDeployment(config: AppConfig, services: Services): Promise<ServerRegistry> {
  await checkStorage(services.storage, config);
  const registry = new ServerRegistry({
    repo: new ServerProcessesRepository(services.database.db),
    settings: {
      roles: [...config.ROLES],
      queues: config.ROLES.includes('worker') ? [...config.WORKER_QUEUES] : [],
      bus: config.REALTIME_BUS,
      publicUrl: config.PUBLIC_URL ?? '',
      secretFingerprint: secretFingerprint(await loadAppSecret(config.DATA_DIR, config.APP_SECRET)),
    },
    log: services.log,
  });
  await registry.join();
  services.presence.share(registry);
  return registry;
}

/** Starts the roles the config asks for (api, worker, or both) in this process. */
export async function startServer(config: AppConfig, log?: Logger): Promise<RunningServer> {
  const services = await createServices(config, { log });
  let registry: ServerRegistry;
  try {
    registry = await joinDeployment(config, services);
  } catch (error) {
    await services.close();
    throw error;
  }
  const app = await buildHttpApp(config, services);
  const stomp = config.ROLES.includes('api') ? attachRealtime(app, services) : undefined;
  // Subscribed to the bus before accepting traffic, so no startup message is missed.
  await stomp?.ready;
  if (config.ROLES.includes('worker')) await startWorkers(services);
  if (config.ROLES.length === 1 && config.REALTIME_BUS === 'memory') {
    app.log.warn(
      'Running only the %s role with REALTIME_BUS=memory: live updates cannot cross processes; set REALTIME_BUS=postgres or redis',
      config.ROLES[0],
    );
  }
  const url = config.ROLES.includes('api')
    ? await app.listen({ host: config.HOST, port: config.PORT })
    : '(worker only)';
  const queues = config.ROLES.includes('worker')
    ? `, queues: ${config.WORKER_QUEUES.join('+')}`
    : '';
  app.log.info(
    `Moments is ready at ${url} (roles: ${config.ROLES.join('+')}${queues}, database: ${services.database.kind}, bus: ${config.REALTIME_BUS}, storage: ${services.storage.driver})`,
  );
  return {
    url,
    log: app.log,
    async stop() {
      await stomp?.close();
      await app.close();
      await registry.leave();
      await services.close();
    },
  };
}
