import type { FastifyBaseLogger } from 'fastify';
import { buildHttpApp } from './app.js';
import type { AppConfig } from './config/index.js';
import { createServices } from './services.js';

export interface RunningServer {
  /** The address the API listens on, e.g. http://127.0.0.1:8080 */
  url: string;
  log: FastifyBaseLogger;
  stop(): Promise<void>;
}

/** Starts the roles the config asks for (api, worker, or both) in this process. */
export async function startServer(config: AppConfig): Promise<RunningServer> {
  const services = await createServices(config);
  const app = await buildHttpApp(config, services);
  const url = await app.listen({ host: config.HOST, port: config.PORT });
  app.log.info(`Moments is ready at ${url} (database: ${services.database.kind})`);
  return {
    url,
    log: app.log,
    async stop() {
      await app.close();
      await services.close();
    },
  };
}
