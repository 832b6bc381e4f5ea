/**
 * `workers` stage of the speed bench: one task's chunks over 1, 2 and 3 worker
 * processes sharing PostgreSQL, each worker with one Whisper thread (a one-core machine), so the
 * wall time shows how the chunks divide over machines.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { createScratchPostgres, postgresReachable } from '../apps/server/test/support/databases.js';
import { spawnServer, type ServerProcess } from '../apps/server/test/support/process.js';
import { load, measured, mb } from './speed-measure';
import { talkInput } from './speed-inputs';

interface Reply {
  code: number | string;
  data: { id?: string; token?: string; status?: string };
}

async function runTaskOver(
  api: ServerProcess,
  video: string,
): Promise<{ taskId: string; status: string }> {
  const call = async (route: string, token?: string, body?: FormData | object) => {
    const response = await fetch(`${api.url}${route}`, {
      method: body ? 'POST' : 'GET',
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    return (await response.json()) as Reply;
  };
  const token = (
    await call('/api/auth/signup', undefined, {
      email: 'workers@example.com',
      password: 'chunks over workers',
      username: 'workers',
    })
  ).data.token!;
  const form = new FormData();
  form.append('file', new Blob([await fs.readFile(video)]), 'talk.mp4');
  const uploaded = await call('/api/upload', token, form);
  const started = await call(
    '/api/highlight_moment/task/start?url_source=upload&source_lang=auto',
    token,
    uploaded.data,
  );
  const taskId = started.data.id!;
  for (;;) {
    const task = await call(`/api/highlight_moment/task?id=${taskId}`, token);
    if (task.data.status === 'DONE' || task.data.status === 'ERROR') {
      return { taskId, status: task.data.status };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function compareWorkers(dir: string, seconds = 600): Promise<void> {
  if (!fasterWhisperAvailability().available || !(await postgresReachable())) {
    console.log(
      'speed: workers skipped (needs faster-whisper and PostgreSQL at TEST_DATABASE_URL)',
    );
    return;
  }
  const input = await talkInput(dir, seconds);
  if (!input) {
    console.log('speed: workers skipped (no real recordings or no opencv-doc pictures)');
    return;
  }
  let oneWorkerSec = 0;
  for (const count of [1, 2, 3]) {
    const scratch = await createScratchPostgres();
    const servers: ServerProcess[] = [];
    const db = new pg.Client({ connectionString: scratch.url });
    try {
      const common = {
        DATABASE_URL: scratch.url,
        REALTIME_BUS: 'postgres',
        DATA_DIR: path.join(dir, `workers-${count}`),
        WEB_DIST_DIR: path.join(dir, 'no-web'),
        APP_SECRET: 'the speed bench shares one secret',
        ASR_PROCESSES: '1',
        ASR_THREADS: '1',
      };
      servers.push(await spawnServer({ ...common, ROLES: 'api' }));
      for (let i = 0; i < count; i++) {
        servers.push(await spawnServer({ ...common, ROLES: 'api,worker' }));
      }
      const run = await measured(() => runTaskOver(servers[0]!, input.video));
      await db.connect();
      const rows = await db.query<{ worker: string; n: string }>(
        'SELECT worker, count(*) AS n FROM asr_chunks WHERE task_id = $1 GROUP BY worker ORDER BY worker',
        [run.value.taskId],
      );
      if (count === 1) oneWorkerSec = run.sec;
      console.log(
        `speed: workers ${count} x 1 thread, ${input.seconds.toFixed(0)} s talk: ${run.value.status} in ` +
          `${run.sec.toFixed(1)} s = ${(input.seconds / run.sec).toFixed(1)}x real time ` +
          `(vs 1 worker ${(oneWorkerSec / run.sec).toFixed(2)}x faster); chunks per worker ` +
          `${rows.rows.map((row) => row.n).join('/')}; peak of this process ${mb(run.peak)}; ${load()}`,
      );
    } finally {
      await db.end().catch(() => undefined); // never connected when the run failed early
      for (const server of servers) await server.kill();
      await scratch.drop();
    }
  }
}
