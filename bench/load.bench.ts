// Load: autocannon against the task list, a task's moment list, the notification
// history and search, on PostgreSQL seeded with 50,000 moments and 5,000 tasks (bulk SQL into a
// scratch database), with their transcript passages, stored embeddings and BM25 statistics as the
// search index keeps them. The server runs as its own process (API role only; with
// LOAD_BENCH_API_PROCESSES=1,2 once with each number of API processes), so the load generator
// does not share its event loop. Goals: p99 < 50 ms at 500 req/s for the list calls, p99 <
// 100 ms for search. Where a goal is not held at 500 req/s, the offered rate is halved until it
// is: the measured limit of the machine. Each line prints the load average beside it.
import os from 'node:os';
import autocannon from 'autocannon';
import {
  createScratchPostgres,
  postgresReachable,
  TEST_POSTGRES_URL,
} from '../apps/server/test/support/databases.js';
import { LOAD_SEED_SIZE, seedLoad } from '../apps/server/test/support/load-seed.js';
import { spawnServer } from '../apps/server/test/support/process.js';

const RATE = 500; // requests per second offered
const SECONDS = Number(process.env.LOAD_BENCH_SECONDS ?? 10);
const API_PROCESSES = (process.env.LOAD_BENCH_API_PROCESSES ?? '1,2')
  .split(',')
  .map((n) => Number(n.trim()))
  .filter((n) => Number.isInteger(n) && n >= 1);

interface Target {
  name: string;
  goalMs: number;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** Below this offered rate the search for a call's limit stops. */
const MIN_LIMIT_RATE = 15;

interface Offered {
  served: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  loadBefore: number;
}

async function offer(
  url: string,
  headers: Record<string, string>,
  target: Target,
  rate: number,
): Promise<Offered> {
  const loadBefore = os.loadavg()[0]!;
  const result = await autocannon({
    url: `${url}${target.path}`,
    method: target.method,
    headers,
    ...(target.body ? { body: target.body } : {}),
    connections: 20,
    overallRate: rate,
    duration: SECONDS,
  });
  return {
    served: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    loadBefore,
  };
}

const describe = (offered: Offered, target: Target) =>
  `${offered.served.toFixed(0)} req/s served, p50 ${offered.p50} ms, p99 ${offered.p99} ms ` +
  `(goal < ${target.goalMs} ms: ${offered.p99 < target.goalMs ? 'met' : 'NOT met'}, ` +
  `ratio ${(offered.p99 / target.goalMs).toFixed(2)}), errors ${offered.errors}, ` +
  `timeouts ${offered.timeouts}, non-2xx ${offered.non2xx}, load average ${offered.loadBefore.toFixed(1)}`;

const apiProcesses = (n: number) => `${n} API process${n === 1 ? '' : 'es'}`;

export default async function run(): Promise<void> {
  if (!(await postgresReachable())) {
    console.log(`load: skipped (PostgreSQL is not reachable at ${TEST_POSTGRES_URL})`);
    return;
  }
  const scratch = await createScratchPostgres();
  const dataDir = `/tmp/moments-load-${process.pid}`;
  const start = (n: number) =>
    spawnServer({
      DATABASE_URL: scratch.url,
      ROLES: 'api',
      APP_SECRET: 'the load bench shares one secret',
      API_PROCESSES: String(n),
      // Several API processes reach each other's realtime clients through PostgreSQL.
      REALTIME_BUS: n > 1 ? 'postgres' : 'memory',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: '/nonexistent',
      LOGIN_RATE_LIMIT_MAX: '1000',
    });
  let server = await start(API_PROCESSES[0] ?? 1);
  try {
    const signup = (await (
      await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'load@example.com',
          password: 'benchmark under load',
          username: 'load',
        }),
      })
    ).json()) as { data: { token: string; user: { id: string } } };
    const seedStarted = performance.now();
    await seedLoad(scratch.url, signup.data.user.id);
    const { users, tasksPerUser, momentsPerTask, notificationsPerUser } = LOAD_SEED_SIZE;
    console.log(
      `load: seeded ${users * tasksPerUser} tasks, ${users * tasksPerUser * momentsPerTask} moments, ` +
        `${users * tasksPerUser * 30} passages, ${users * notificationsPerUser} notifications ` +
        `in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const headers = {
      authorization: `Bearer ${signup.data.token}`,
      'content-type': 'application/json',
    };
    for (const [index, n] of API_PROCESSES.entries()) {
      if (index > 0) {
        await server.kill();
        server = await start(n);
      }
      await measure(server.url, headers, apiProcesses(n));
    }
  } finally {
    await server.kill();
    await scratch.drop();
  }
}

async function measure(url: string, headers: Record<string, string>, label: string) {
  const listed = await fetch(`${url}/api/highlight_moment/task/list?page_num=1&page_size=20`, {
    headers,
  });
  const body = await listed.text();
  const taskId = (JSON.parse(body) as { data: { id: string }[] | null }).data?.[0]?.id;
  if (!taskId) throw new Error(`no task in the list: ${listed.status} ${body.slice(0, 300)}`);
  const search = (query: string) => JSON.stringify({ query, num: 24 });
  const targets: Target[] = [
    {
      name: 'task list (20)',
      goalMs: 50,
      method: 'GET',
      path: '/api/highlight_moment/task/list?page_num=1&page_size=20',
    },
    {
      name: 'moment list',
      goalMs: 50,
      method: 'GET',
      path: `/api/highlight_moment/list?task_id=${taskId}`,
    },
    {
      name: 'notification history',
      goalMs: 50,
      method: 'GET',
      path: '/api/notify/history?page_num=1&page_size=20',
    },
    {
      name: 'search, 2 words',
      goalMs: 100,
      method: 'POST',
      path: '/api/p/v1/searchVideos',
      body: search('pricing roadmap'),
    },
    {
      name: 'search, 8-word question',
      goalMs: 100,
      method: 'POST',
      path: '/api/p/v1/searchVideos',
      body: search('how should the team plan the next launch'),
    },
  ];
  console.log(
    `load: ${label}, ${os.cpus().length} cores, offered ${RATE} req/s for ${SECONDS} s per call, 20 connections`,
  );
  for (const target of targets) {
    const check = await fetch(`${url}${target.path}`, {
      method: target.method,
      headers,
      ...(target.body ? { body: target.body } : {}),
    });
    if (!check.ok) throw new Error(`${target.name}: ${check.status} ${await check.text()}`);
    // Warm every API process (each loads the embedding model and prepares its statements on its
    // first requests): a second of light traffic over 20 connections reaches all of them.
    await autocannon({
      url: `${url}${target.path}`,
      method: target.method,
      headers,
      ...(target.body ? { body: target.body } : {}),
      connections: 20,
      overallRate: 50,
      duration: 2,
    });
    const offered = await offer(url, headers, target, RATE);
    console.log(`load: [${label}] ${target.name.padEnd(24)} ${describe(offered, target)}`);
    if (offered.p99 < target.goalMs) continue;
    // The goal is not held at the offered rate: find the highest rate (halving) at which it is,
    // the measured limit of this machine for this call.
    for (let rate = RATE / 2; rate >= MIN_LIMIT_RATE; rate /= 2) {
      const lower = await offer(url, headers, target, rate);
      const held = lower.p99 < target.goalMs;
      console.log(
        `load: [${label}] ${target.name.padEnd(24)} at ${rate} req/s offered: ${describe(lower, target)}`,
      );
      if (held) break;
    }
  }
}
