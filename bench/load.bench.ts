// Load (issue 14): autocannon against the task list, a task's moment list, the notification
// history and search, on PostgreSQL seeded with 50,000 moments and 5,000 tasks (bulk SQL into a
// scratch database). The server runs as its own process (API role only), so the load generator
// does not share its event loop. Goals on the 2-core box: p99 < 50 ms at 500 req/s for the list
// calls, p99 < 100 ms for search.
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  createScratchPostgres,
  postgresReachable,
  TEST_POSTGRES_URL,
} from '../apps/server/test/support/databases.js';
import { spawnServer } from '../apps/server/test/support/process.js';

const USERS = 50;
const TASKS_PER_USER = 100; // 5,000 tasks
const MOMENTS_PER_TASK = 10; // 50,000 moments
const NOTIFICATIONS_PER_USER = 200; // 10,000 notifications
const RATE = 500; // requests per second offered
const SECONDS = 10;

const WORDS = (
  'keynote pricing roadmap customer launch demo budget hiring design latency database cache ' +
  'security privacy camera microphone lighting editing caption subtitle audience growth ' +
  'retention churn onboarding feedback interview podcast episode guest story lesson mistake ' +
  'startup founder investor revenue margin growth team culture remote office meeting'
).split(' ');

/** One SQL expression: `n` words picked pseudo-randomly from WORDS for row `seed`. */
const wordsSql = (n: number, seed: string) =>
  `(SELECT string_agg((ARRAY['${WORDS.join("','")}'])[1 + abs((${seed})::bigint * 7919 + i * 104729) % ${WORDS.length}], ' ') FROM generate_series(1, ${n}) AS i)`;

async function seed(url: string, mainUserId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO users (id, email, username, password_hash)
      SELECT gen_random_uuid(), 'load' || u || '@example.com', 'load' || u, 'x'
      FROM generate_series(2, ${USERS}) AS u`);
    await client.query(`
      CREATE TEMP TABLE seed_users AS
      SELECT id, row_number() OVER (ORDER BY id = '${mainUserId}' DESC, id) AS n FROM users`);
    await client.query(`
      INSERT INTO tasks (id, user_id, kind, url_source, video, status, stage, progress, duration_ms, created_at)
      SELECT gen_random_uuid(), u.id, 'viral', 'direct',
        jsonb_build_object('url', 'https://example.com/v/' || u.n || '-' || t, 'title', ${wordsSql(6, 'u.n * 1000 + t')}),
        'DONE', 'finishing', 100, 600000, now() - (t || ' minutes')::interval
      FROM seed_users u, generate_series(1, ${TASKS_PER_USER}) AS t`);
    await client.query(`
      INSERT INTO transcripts (task_id, language, duration_ms, engine, segments)
      SELECT t.id, 'en', 600000, 'seed',
        (SELECT jsonb_agg(jsonb_build_object('startMs', s * 10000, 'endMs', s * 10000 + 9000,
           'text', ${wordsSql(25, 's + hashtext(t.id::text) % 1000')}, 'words', '[]'::jsonb))
         FROM generate_series(0, 59) AS s)
      FROM tasks t`);
    await client.query(`
      INSERT INTO moments (task_id, user_id, type, rank, start_ms, end_ms, score, title, description, transcript, share_id)
      SELECT t.id, t.user_id, 'video_snippet', r, r * 30000, r * 30000 + 25000,
        50 + (hashtext(t.id::text || r) % 50 + 50) % 50,
        ${wordsSql(5, 'r + hashtext(t.id::text) % 997')}, ${wordsSql(12, 'r * 3 + hashtext(t.id::text) % 991')},
        ${wordsSql(60, 'r * 5 + hashtext(t.id::text) % 983')},
        CASE WHEN r = 0 AND hashtext(t.id::text) % 5 = 0 THEN md5(t.id::text) END
      FROM tasks t, generate_series(0, ${MOMENTS_PER_TASK - 1}) AS r`);
    await client.query(`
      INSERT INTO notifications (user_id, type, viewed, data, created_at)
      SELECT u.id, 'TASK_STATUS_UPDATE', k % 3 = 0, jsonb_build_object('k', k), now() - (k || ' seconds')::interval
      FROM seed_users u, generate_series(1, ${NOTIFICATIONS_PER_USER}) AS k`);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

interface Target {
  name: string;
  goalMs: number;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export default async function run(): Promise<void> {
  if (!(await postgresReachable())) {
    console.log(`load: skipped (PostgreSQL is not reachable at ${TEST_POSTGRES_URL})`);
    return;
  }
  const scratch = await createScratchPostgres();
  const server = await spawnServer({
    DATABASE_URL: scratch.url,
    ROLES: 'api',
    LOG_LEVEL: 'error',
    DATA_DIR: `/tmp/moments-load-${process.pid}`,
    WEB_DIST_DIR: '/nonexistent',
    LOGIN_RATE_LIMIT_MAX: '1000',
  });
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
    await seed(scratch.url, signup.data.user.id);
    console.log(
      `load: seeded ${USERS * TASKS_PER_USER} tasks, ${USERS * TASKS_PER_USER * MOMENTS_PER_TASK} moments, ` +
        `${USERS * NOTIFICATIONS_PER_USER} notifications in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const headers = {
      authorization: `Bearer ${signup.data.token}`,
      'content-type': 'application/json',
    };
    const list = (await (
      await fetch(`${server.url}/api/highlight_moment/task/list?page_num=1&page_size=20`, {
        headers,
      })
    ).json()) as { data: { list?: { id: string }[] } & Record<string, unknown> };
    const tasks = (list.data.list ?? (list.data as unknown as { id: string }[])) as {
      id: string;
    }[];
    const taskId = tasks[0]?.id;
    if (!taskId) throw new Error(`no task in the list: ${JSON.stringify(list).slice(0, 300)}`);

    const targets: Target[] = [
      {
        name: 'task list',
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
        name: 'search',
        goalMs: 100,
        method: 'POST',
        path: '/api/p/v1/searchVideos',
        body: JSON.stringify({ query: 'pricing roadmap', num: 24 }),
      },
    ];
    // Shared machines skew latency: the load average says how busy the box was.
    console.log(
      `load: ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
    for (const target of targets) {
      const check = await fetch(`${server.url}${target.path}`, {
        method: target.method,
        headers,
        ...(target.body ? { body: target.body } : {}),
      });
      if (!check.ok) throw new Error(`${target.name}: ${check.status} ${await check.text()}`);
      const result = await autocannon({
        url: `${server.url}${target.path}`,
        method: target.method,
        headers,
        ...(target.body ? { body: target.body } : {}),
        connections: 20,
        overallRate: RATE,
        duration: SECONDS,
      });
      const p99 = result.latency.p99;
      const errors = result.errors + result.non2xx + result.timeouts;
      console.log(
        `load: ${target.name.padEnd(21)} offered ${RATE} req/s for ${SECONDS} s: ` +
          `${result.requests.average.toFixed(0)} req/s served, p50 ${result.latency.p50} ms, ` +
          `p99 ${p99} ms (goal < ${target.goalMs} ms: ${p99 < target.goalMs ? 'met' : 'NOT met'}, ` +
          `ratio ${(p99 / target.goalMs).toFixed(2)}), errors ${errors}`,
      );
    }
  } finally {
    await server.kill();
    await scratch.drop();
  }
}
