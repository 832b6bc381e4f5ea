import cluster, { type Worker } from 'node:cluster';
import { ConfigError, type AppConfig } from './config/index.js';
import { createLogger } from './logging.js';
import { startServer, type RunningServer } from './server.js';
import { openConfiguredDatabase } from './services.js';
import { loadAppSecret } from './storage/index.js';

/** A worker that dies this soon after its start counts towards a crash loop. */
const QUICK_EXIT_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;

/**
 * API_PROCESSES > 1: this (primary) process forks that many HTTP API processes sharing the port
 * through node:cluster (connections are dealt round-robin), and runs the job workers itself when
 * ROLES has `worker`. The API processes reach each other's realtime clients through the bus
 * (REALTIME_BUS=postgres or redis). A dead API process is started again, with a growing delay
 * while it keeps dying at start.
 */
export async function startApiCluster(config: AppConfig): Promise<RunningServer> {
  const log = createLogger(config.LOG_LEVEL).child({ component: 'cluster' });
  // Once, before the API processes start together: the database's migrations and the app secret
  // file (each process would otherwise race to make its own).
  await loadAppSecret(config.DATA_DIR, config.APP_SECRET);
  const workerRoles = config.ROLES.filter((role) => role !== 'api');
  let jobs: RunningServer | null = null;
  if (workerRoles.length) jobs = await startServer({ ...config, ROLES: workerRoles });
  else await (await openConfiguredDatabase(config, log)).close();
  let stopping = false;
  let quickExits = 0;

  const fork = (): Worker => {
    const startedAt = Date.now();
    const worker = cluster.fork({ ROLES: 'api', API_PROCESSES: '1' });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      quickExits = Date.now() - startedAt < QUICK_EXIT_MS ? quickExits + 1 : 0;
      const delayMs = Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** quickExits);
      log.error(
        { pid: worker.process.pid, code, signal, restartInMs: delayMs, quickExits },
        quickExits >= 5
          ? 'API process keeps exiting at start (crash loop); still restarting, see its log above'
          : 'API process exited; starting another',
      );
      setTimeout(() => !stopping && fork(), delayMs).unref();
    });
    return worker;
  };

  const workers = Array.from({ length: config.API_PROCESSES }, fork);
  // Ready when every API process listens, so a caller (npm start, a test) can send traffic.
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          worker.once('listening', () => resolve());
          worker.once('exit', (code) =>
            reject(
              // Its configuration refused (said on the shared stderr above): not worth a restart.
              code === 2
                ? new ConfigError('An API process refused its configuration at start (see above)')
                : new Error(`API process exited at start (${code})`),
            ),
          );
        }),
    ),
  );
  const url = `http://${config.HOST}:${config.PORT}`;
  log.info(`Moments is ready at ${url} (${config.API_PROCESSES} API processes)`);
  return {
    url,
    log,
    async stop() {
      stopping = true;
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
      await Promise.all(
        alive.map(
          (worker) =>
            new Promise<void>((resolve) => {
              worker.once('exit', () => resolve());
              worker.kill('SIGTERM');
            }),
        ),
      );
      await jobs?.stop();
    },
  };
}
