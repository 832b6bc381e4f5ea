import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, loadConfig } from '../src/config/index.js';
import { formatQueueOverview } from '../src/queue/queue-overview.js';
import { createJobQueue } from '../src/queue/queue.js';
import { openConfiguredDatabase } from '../src/services.js';

// `npm run jobs`: the operator view of the job table. Each declared kind with its policy
// (attempts, timeout, concurrency, cron), its jobs counted by state, and its latest failures
// with their error text. On the embedded PGlite database, run it while the server is stopped
// (PGlite is one process's); on PostgreSQL, at any time.
const envFile = path.join(REPO_ROOT, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
const config = loadConfig();
const database = await openConfiguredDatabase(config);
const queue = await createJobQueue(database, undefined, { keepsClock: false });
try {
  process.stdout.write(`${formatQueueOverview(await queue.overview())}\n`);
} finally {
  await queue.stop();
  await database.close();
}
