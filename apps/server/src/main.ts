import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { prepareDataDir } from './config/data-dir.js';
import { ConfigError, REPO_ROOT, loadConfig } from './config/index.js';
import { startApiCluster } from './cluster.js';
import { createLogger } from './logging.js';
import { installProcessGuards } from './process-guards.js';
import { startServer } from './server.js';

/** The longest a SIGTERM may take to close; systemd's TimeoutStopSec is set above it. */
const SHUTDOWN_DEADLINE_MS = 60_000;

// Entry point: `npm start` (through scripts/start.mjs, which restarts it if it dies) runs this
// with the embedded defaults. A .env file at the repository root, if any, fills in variables the
// environment does not set.
const envFile = path.join(REPO_ROOT, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
try {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  installProcessGuards(log);
  await prepareDataDir(config.DATA_DIR);
  // API_PROCESSES > 1: this process forks the API processes (each runs this file with ROLES=api).
  const server =
    config.API_PROCESSES > 1 && config.ROLES.includes('api')
      ? await startApiCluster(config)
      : await startServer(config, log);
  let stopping = false;
  const shutdown = async (signal: string) => {
    // Ctrl-C reaches this process twice under `npm start` (the terminal and the supervisor):
    // one graceful close, bounded by its own deadline, is enough.
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    const deadline = setTimeout(() => {
      log.error(`${signal}: the graceful close took over ${SHUTDOWN_DEADLINE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    try {
      await server.stop();
      process.exit(0);
    } catch (err) {
      log.error({ err }, `${signal}: the graceful close failed`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (err) {
  // Before (or while) the configured logger exists: one at the default level says why, on
  // stderr (where an operator and the supervisor look for a start failure), written at once
  // because the process exits right after.
  const log = createLogger('info', pino.destination({ dest: 2, sync: true }));
  if (err instanceof ConfigError) {
    log.fatal(err.message);
    process.exit(2);
  }
  log.fatal({ err }, 'the server could not start');
  process.exit(1);
}
