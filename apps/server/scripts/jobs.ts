import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, loadConfig } from '../src/config/index.js';
import { ServerProcessesRepository } from '../src/modules/deployment/server-processes.repository.js';
import { PROCESS_LIVE_MS } from '../src/modules/deployment/server-registry.js';
import { formatQueueOverview, staleActives } from '../src/queue/queue-overview.js';
import { createJobQueue } from '../src/queue/queue.js';
import { openConfiguredDatabase } from '../src/services.js';

// `npm run jobs`: the operator view of the job table. First the live server processes per
// queue (a queue no worker takes is named), then each declared kind with its policy (attempts,
// timeout, concurrency, cron), its jobs counted by state, how long the oldest waiting one has
// waited, how many runs were resumed, active jobs whose worker is gone, and the latest failures
// with their error text. `npm run jobs -- --end-stale` fails those orphaned active jobs (retried
// by their kind's policy). On the embedded PGlite database, run it while the server is stopped
// (PGlite is one process's); on PostgreSQL, at any time.
const envFile = path.join(REPO_ROOT, '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
// Only the database is read: the settings a server must have to start are not needed here.
const config = loadConfig({ ...process.env, ROLES: 'api,worker' });
const endStale = process.argv.includes('--end-stale');
const database = await openConfiguredDatabase(config);
const queue = await createJobQueue(database, undefined, { keepsClock: false });
try {
  const overview = await queue.overview();
  const workers = await new ServerProcessesRepository(database.db).live(PROCESS_LIVE_MS);
  if (endStale) {
    for (const view of overview) {
      const stale = staleActives(view, workers);
      if (!stale.length) continue;
      await queue.failJobs(
        view.kind,
        stale.map((job) => job.id),
        'ended by npm run jobs --end-stale: the worker that took it is gone',
      );
      process.stdout.write(`ended ${stale.length} stale ${view.kind} job(s)\n`);
    }
  }
  process.stdout.write(
    `${formatQueueOverview(endStale ? await queue.overview() : overview, workers)}\n`,
  );
} finally {
  await queue.stop();
  await database.close();
}
