import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasYtDlp } from '@moments/media/ingest';
import { serveFiles, type ServedFiles } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStompClient, waitFor, type TestStompClient } from './support/stomp.js';
import { createScratchPostgres, postgresReachable } from './support/databases.js';
import { spawnServer, type ServerProcess } from './support/process.js';

const postgres = await postgresReachable();
const ready = postgres && hasYtDlp();
if (!ready) {
  const why = !postgres ? 'PostgreSQL is not reachable' : 'yt-dlp is missing (scripts/setup.sh)';
  if (process.env.REQUIRE_POSTGRES === '1' && !postgres) throw new Error(why);
  console.warn(`Skipping the two-process scale-out test: ${why}`);
}

/**
 * Two server processes on one PostgreSQL: an API-only process and an API+worker process, with
 * realtime fan-out through LISTEN/NOTIFY (REALTIME_BUS=postgres). Work queued through one is done
 * by the other, and its updates reach clients connected to either.
 */
const reply = async <T>(response: Response) =>
  (await response.json()) as { code: number | string; data: T };

describe.skipIf(!ready)('scale-out: API and worker processes sharing PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let dir: string;
  let served: ServedFiles;
  let apiOnly: ServerProcess;
  let apiAndWorker: ServerProcess;
  const clients: TestStompClient[] = [];

  beforeAll(async () => {
    scratch = await createScratchPostgres();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-scale-'));
    await fs.writeFile(path.join(dir, 'fake.mp4'), 'not a video at all\n'.repeat(100));
    served = await serveFiles(dir);
    const common = {
      DATABASE_URL: scratch.url,
      REALTIME_BUS: 'postgres',
      MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
      WEB_DIST_DIR: path.join(dir, 'no-web'),
      APP_SECRET: 'the processes of one deployment share this secret',
    };
    apiOnly = await spawnServer({ ...common, ROLES: 'api', DATA_DIR: path.join(dir, 'a') });
    apiAndWorker = await spawnServer({ ...common, DATA_DIR: path.join(dir, 'b') });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.disconnect()));
    await apiOnly?.kill();
    await apiAndWorker?.kill();
    await served?.close();
    await scratch?.drop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('pushes a task finished by the worker process to clients of both processes, and syncs views', async () => {
    const signup = await fetch(`${apiOnly.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'scale@example.com',
        password: 'two processes, one database',
        username: 'scale',
      }),
    }).then((response) => reply<{ token: string }>(response));
    const token = signup.data.token;
    const onApi = await connectStompClient(`${apiOnly.url.replace('http', 'ws')}/stomp-ws`, token);
    const onWorker = await connectStompClient(
      `${apiAndWorker.url.replace('http', 'ws')}/stomp-ws`,
      token,
    );
    clients.push(onApi, onWorker);

    // Queued through the API-only process: only the other process has a worker.
    const started = await fetch(
      `${apiOnly.url}/api/highlight_moment/task/start?url_source=direct`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ url: `${served.url}/fake.mp4`, title: 'Not a video' }),
      },
    ).then((response) => reply<unknown>(response));
    expect(started.code, JSON.stringify(started)).toBe(0);

    const finished = (client: TestStompClient) =>
      client.messages.find((m) => m.type === 'TASK_STATUS_UPDATE' && m.id);
    await waitFor(
      () => !!finished(onApi) && !!finished(onWorker),
      'the ERROR notification on both',
      120_000,
    );
    expect(finished(onApi)!.data).toMatchObject({
      task_status: 'ERROR',
      task_title: 'Not a video',
    });
    expect(finished(onApi)!.id).toBe(finished(onWorker)!.id);

    const viewed = await fetch(`${apiAndWorker.url}/api/notify/viewed`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-stomp-session': onWorker.session,
      },
      body: JSON.stringify([finished(onApi)!.id]),
    }).then((response) => reply<string[]>(response));
    expect(viewed.data).toEqual([finished(onApi)!.id]);
    await waitFor(
      () => onApi.messages.some((m) => m.type === 'SYNC_NOTIFY_VIEW'),
      'the sync on the other process',
    );
    expect(onWorker.messages.some((m) => m.type === 'SYNC_NOTIFY_VIEW')).toBe(false);
  }, 240_000);
});
