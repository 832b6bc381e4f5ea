import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildHttpApp } from '../../src/app.js';
import { loadConfig, type AppConfig } from '../../src/config/index.js';
import type { Database } from '../../src/db/client.js';
import type { App } from '../../src/http/types.js';
import { attachRealtime } from '../../src/server.js';
import {
  createServices,
  startWorkers,
  type ServiceOverrides,
  type Services,
} from '../../src/services.js';

export interface TestApp {
  app: App;
  services: Services;
  config: AppConfig;
  dataDir: string;
  /** http://127.0.0.1:<port> when started with `listen`, else '' (use app.inject). */
  url: string;
  close(): Promise<void>;
}

/** The real HTTP app on a given database, driven with `app.inject` (no port needed). */
export async function startTestApp(
  database: Database,
  env: Record<string, string> = {},
  /**
   * Besides the app's own switches, what the services take instead of what the config makes:
   * e.g. fake media tools (support/fake-media.repository.ts), so no ffmpeg runs behind them.
   */
  options: Omit<ServiceOverrides, 'database'> & { workers?: boolean; listen?: boolean } = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    // Test files sign many users up from one address; the limit itself has its own test.
    SIGNUP_RATE_LIMIT_MAX: '1000',
    ...env,
  });
  const { workers: _workers, listen: _listen, ...overrides } = options;
  const services = await createServices(config, { ...overrides, database });
  const app = await buildHttpApp(config, services);
  const stomp = options.listen ? attachRealtime(app, services) : undefined;
  await app.ready();
  if (stomp) await stomp.ready;
  const url = options.listen ? await app.listen({ host: '127.0.0.1', port: 0 }) : '';
  if (options.workers) await startWorkers(services);
  return {
    app,
    services,
    config,
    dataDir,
    url,
    async close() {
      await stomp?.close();
      await app.close();
      await services.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs a user up and returns the bearer header for later calls. */
export async function signUp(app: App, who = 'user') {
  const email = `${who}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { email, password: 'a sturdy passphrase', username: who },
  });
  if (response.statusCode !== 200) throw new Error(`signup failed: ${response.body}`);
  const token = response.json().data.token as string;
  return {
    email,
    token,
    userId: response.json().data.user.id as string,
    headers: { authorization: `Bearer ${token}` },
  };
}

/** Polls a task until it ends (tests only; the product pushes updates over STOMP). */
export async function waitForTask(
  app: App,
  headers: Record<string, string>,
  id: string,
  timeoutMs = 240_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await app.inject({
      method: 'GET',
      url: `/api/highlight_moment/task?id=${id}`,
      headers,
    });
    const task = response.json().data;
    if (task.status === 'DONE' || task.status === 'ERROR') return task;
    if (Date.now() > deadline)
      throw new Error(`task ${id} still ${task.status} (${task.stage} ${task.progress}%)`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Polls a DONE task's moments until every one has its picture: the pictures follow DONE (the
 * task's follow-up job), as the task page sees them arrive.
 */
export async function waitForMomentPictures(
  app: App,
  headers: Record<string, string>,
  taskId: string,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await app.inject({
      method: 'GET',
      url: `/api/highlight_moment/list?task_id=${taskId}`,
      headers,
    });
    const listed = response.json().data as { thumbnail: string | null }[];
    if (listed.every((moment) => moment.thumbnail)) return listed;
    if (Date.now() > deadline) throw new Error(`task ${taskId}: moment pictures still missing`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Uploads a video file as the start form does (POST /api/upload) and starts a task of it with the
 * given query; returns the started task's id. Throws with the server's answer when either is refused.
 */
export async function uploadAndStartTask(
  app: App,
  headers: Record<string, string>,
  file: { name: string; content: Buffer },
  query = 'url_source=upload&source_lang=auto',
): Promise<string> {
  const body = multipartFile(file.name, file.content);
  const uploaded = await app.inject({
    method: 'POST',
    url: '/api/upload',
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
  if (uploaded.statusCode !== 200) throw new Error(`upload refused: ${uploaded.body}`);
  const started = await app.inject({
    method: 'POST',
    url: `/api/highlight_moment/task/start?${query}`,
    headers,
    payload: uploaded.json().data,
  });
  if (started.statusCode !== 200) throw new Error(`task refused: ${started.body}`);
  return started.json().data.id as string;
}

/** A multipart/form-data body with one file part, as a browser's FormData would send it. */
export function multipartFile(fileName: string, content: Buffer, field = 'file') {
  const boundary = `----moments${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
      'utf8',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
