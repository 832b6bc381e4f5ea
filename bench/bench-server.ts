/**
 * The whole product in the bench's own process: API and workers on an embedded database in a
 * folder of the bench, a signed-up user, and a task run the way a browser runs one (upload, start,
 * follow the stages). Shared by the ingest and speed benches.
 */
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import path from 'node:path';
import { buildHttpApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config/index.js';
import { createServices, startWorkers } from '../apps/server/src/services.js';

type App = Awaited<ReturnType<typeof buildHttpApp>>;

export interface BenchServer {
  app: App;
  /** The server's services (the speed bench listens on its realtime bus). */
  services: Awaited<ReturnType<typeof createServices>>;
  /** The signed-up user's bearer header. */
  headers: Record<string, string>;
  userId: string;
  close(): Promise<void>;
}

export async function startBenchServer(
  dataDir: string,
  who: string,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const config = loadConfig({
    DATA_DIR: path.join(dataDir, 'data'),
    // BENCH_LOG_LEVEL=info shows a run's stage timings (pino fields) beside the figures.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    ...env,
  });
  const services = await createServices(config);
  const app = await buildHttpApp(config, services);
  await app.ready();
  await startWorkers(services);
  const signup = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email: `${who}@example.com`, password: 'benchmark run', username: who },
  });
  return {
    app,
    services,
    headers: { authorization: `Bearer ${signup.json().data.token}` },
    userId: signup.json().data.user.id as string,
    async close() {
      await app.close();
      await services.close();
    },
  };
}

/** Uploads through POST /api/upload, starts a task and follows it to its end; times each stage's arrival. */
export async function uploadAndRunTask(
  server: BenchServer,
  video: string,
  onStarted?: (taskId: string, startedAt: number) => void,
) {
  const { app, headers } = server;
  const boundary = 'benchboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="talk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const payloadBytes = head.length + (await fs.stat(video)).size + tail.length;
  // Streamed, as a browser sends it: an hour of video is never held in this process's memory.
  const payload = Readable.from(
    (async function* () {
      yield head;
      yield* createReadStream(video);
      yield tail;
    })(),
  );
  // Followed as a browser follows it: by the realtime pushes (a poll every 250 ms cost the
  // machine 5-15 ms of CPU each, beside the transcription it measures).
  let id = '';
  let status = 'START';
  let stages = '';
  let lastStage = '';
  let settle: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (settle = resolve));
  const pushes: { task_id?: string; task_status?: string; stage?: string }[] = [];
  const follow = (data: (typeof pushes)[number]) => {
    if (data.task_id !== id) return;
    if (data.stage && data.stage !== lastStage) {
      lastStage = data.stage;
      stages += ` ${data.stage}@${((performance.now() - started) / 1000).toFixed(1)}s`;
    }
    if (data.task_status === 'DONE' || data.task_status === 'ERROR') {
      status = data.task_status;
      settle();
    }
  };
  const stopListening = await server.services.bus.subscribe((_user, message) => {
    const data = message.data as (typeof pushes)[number];
    if (id) follow(data);
    else pushes.push(data); // before the start call answered
  });
  const started = performance.now();
  try {
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/upload',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(payloadBytes),
      },
      payload,
    });
    const uploadSeconds = (performance.now() - started) / 1000;
    const task = await app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=upload&source_lang=auto',
      headers,
      payload: uploaded.json().data,
    });
    if (task.statusCode !== 200) throw new Error(`the task was refused: ${task.body}`);
    id = task.json().data.id as string;
    onStarted?.(id, started);
    pushes.splice(0).forEach(follow);
    // A missed push cannot hang the bench: the task is read once a minute meanwhile.
    while (status !== 'DONE' && status !== 'ERROR') {
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 60_000))]);
      if (status === 'DONE' || status === 'ERROR') break;
      const current = (
        await app.inject({ method: 'GET', url: `/api/highlight_moment/task?id=${id}`, headers })
      ).json().data;
      if (current.status === 'DONE' || current.status === 'ERROR') status = current.status;
    }
    return {
      status,
      stages: stages.trim(),
      uploadSeconds,
      totalSeconds: (performance.now() - started) / 1000,
      payloadBytes,
      taskId: id,
    };
  } finally {
    await stopListening();
  }
}
