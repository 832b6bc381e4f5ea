import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStompClient, waitFor, type TestStompClient } from './support/stomp.js';
import { createScratchPostgres, postgresReachable } from './support/databases.js';
import { spawnServer, type ServerProcess } from './support/process.js';

const postgres = await postgresReachable();
if (!postgres) {
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error('PostgreSQL is not reachable');
  console.warn('Skipping the API_PROCESSES test: PostgreSQL is not reachable');
}

/** The pids of the processes holding the server side of established connections to `port`. */
function ownersOfConnections(port: number): Set<number> {
  const out = execFileSync('ss', ['-tnpH', 'state', 'established', `( sport = :${port} )`], {
    encoding: 'utf8',
  });
  return new Set([...out.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1])));
}

/**
 * API_PROCESSES=2: two API processes share one port (node:cluster); a STOMP client connected to
 * one gets what a request served by the other publishes, through the realtime bus.
 */
describe.skipIf(!postgres).each(['postgres', 'redis'])(
  'API_PROCESSES=2 with REALTIME_BUS=%s',
  (bus) => {
    let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
    let dir: string;
    let server: ServerProcess;
    const clients: TestStompClient[] = [];

    beforeAll(async () => {
      scratch = await createScratchPostgres();
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-cluster-'));
      server = await spawnServer({
        DATABASE_URL: scratch.url,
        REALTIME_BUS: bus,
        ROLES: 'api',
        // API-only processes are one role of a split deployment: one secret for all.
        APP_SECRET: 'api processes of one deployment share this secret',
        API_PROCESSES: '2',
        DATA_DIR: dir,
        WEB_DIST_DIR: path.join(dir, 'no-web'),
      });
    }, 120_000);
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.disconnect()));
      await server?.kill();
      await scratch?.drop();
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    });

    it('spreads clients over both processes and fans every message out to all of them', async () => {
      const signup = (await (
        await fetch(`${server.url}/api/auth/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: `cluster-${bus}@example.com`,
            password: 'two processes, one port',
            username: `cluster${bus}`,
          }),
        })
      ).json()) as { data: { token: string; user: { id: string } } };
      const { token, user } = signup.data;
      const ws = `${server.url.replace('http', 'ws')}/stomp-ws`;
      for (let i = 0; i < 4; i++) clients.push(await connectStompClient(ws, token));
      // Round-robin: the four connections are held by two different processes.
      const port = Number(new URL(server.url).port);
      const owners = ownersOfConnections(port);
      expect(owners.size, `connection owners: ${[...owners].join(', ')}`).toBe(2);
      expect(owners.has(server.child.pid!)).toBe(false);

      // Each request lands on one of the processes; every client hears each, wherever it is.
      const db = new pg.Client({ connectionString: scratch.url });
      await db.connect();
      try {
        for (let round = 0; round < 4; round++) {
          const { rows } = await db.query<{ id: string }>(
            `INSERT INTO notifications (user_id, type, viewed, data)
             VALUES ($1, 'TASK_STATUS_UPDATE', false, '{}') RETURNING id`,
            [user.id],
          );
          const response = await fetch(`${server.url}/api/notify/all-viewed`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: '{}',
          });
          expect(response.status, await response.text()).toBe(200);
          const heard = (client: TestStompClient) =>
            client.messages.some(
              (m) =>
                m.type === 'SYNC_NOTIFY_VIEW' &&
                (m.data as { ids: string[] }).ids.includes(rows[0]!.id),
            );
          await waitFor(() => clients.every(heard), `round ${round} on all four clients`, 10_000);
        }
      } finally {
        await db.end();
      }
    }, 60_000);
  },
);
