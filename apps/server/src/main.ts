import fs from 'node:fs';
import path from 'node:path';
import { prepareDataDir } from './config/data-dir.js';
import { ConfigError, REPO_ROOT, loadConfig } from './config/index.js';
import { startServer } from './server.js';

// Entry point: `npm start` (through scripts/start.mjs) runs this with the embedded defaults.
// A .env file at the repository root, if any, fills in variables the environment does not set.
const envFile = path.join(REPO_ROOT, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
try {
  const config = loadConfig();
  await prepareDataDir(config.DATA_DIR);
  const server = await startServer(config);
  const shutdown = async (signal: string) => {
    server.log.info(`${signal}: shutting down`);
    await server.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
}
