/**
 * The three-machine deployment of docs/deployment.md, started on one box from the docs' own
 * commands: an API machine with two HTTP processes, a transcription worker and a render worker,
 * on one PostgreSQL, moto's S3 and the Redis bus. A task and an export go through the API, both
 * API processes answer the same search, a worker's mail links open on the API, and each setting
 * an operator can get wrong on one machine refuses that machine's start with the fix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { makeTestVideo } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config/index.js';
import { createScratchPostgres, postgresReachable } from './support/databases.js';
import { hasMoto, startMoto } from './support/moto.js';
import { freePort } from './support/process.js';
import { startTranscriptionStandIn, type TranscriptionStandIn } from './support/stand-ins.js';
import { connectStompClient, type TestStompClient } from './support/stomp.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(REDIS_URL);
  const socket = net.connect(Number(port || 6379), hostname);
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
});
const postgres = await postgresReachable();
const skipReason = !postgres
  ? 'PostgreSQL is not reachable'
  : !hasMoto
    ? 'moto is missing (scripts/setup.sh)'
    : !redisUp
      ? `nothing listens at ${REDIS_URL}`
      : undefined;
if (skipReason) {
  if (process.env.REQUIRE_POSTGRES === '1' && !postgres) throw new Error(skipReason);
  console.warn(`Skipping the three-machine deployment test: ${skipReason}`);
}

/** The docs' block of commands: the shared `export`s and one `... npm start` line per machine. */
async function documentedDeployment(): Promise<{
  shared: Record<string, string>;
  machines: Record<string, string>[];
}> {
  const docs = await fs.readFile(path.join(REPO_ROOT, 'docs/deployment.md'), 'utf8');
  const block = /<!-- three-machines[^>]*-->\s*```sh\n([^]*?)```/.exec(docs)?.[1];
  if (!block) throw new Error('docs/deployment.md has no three-machines block');
  const lines = block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
  const assignments = (words: string[]) =>
    Object.fromEntries(
      words.map((word) => {
        const match = /^([A-Z0-9_]+)=(\S*)$/.exec(word);
        if (!match) throw new Error(`not an assignment in the docs' commands: ${word}`);
        return [match[1], match[2]];
      }),
    );
  const shared: Record<string, string> = {};
  const machines: Record<string, string>[] = [];
  for (const line of lines) {
    const words = line.split(/\s+/);
    if (words[0] === 'export') Object.assign(shared, assignments(words.slice(1)));
    else if (words.slice(-2).join(' ') === 'npm start')
      machines.push(assignments(words.slice(0, -2)));
    else throw new Error(`unexpected line in the docs' commands: ${line}`);
  }
  return { shared, machines };
}

interface Started {
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * One machine's command (`npm start` runs this same entry point after its setup), waiting for
 * its ready line; `expectRefusal` waits for its exit instead.
 */
async function startMachine(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  while (!/Moments is ready at/.test(output)) {
    if (child.exitCode !== null) throw new Error(`a machine exited at start:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`a machine did not get ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
  };
}

async function expectRefusal(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? -1)));
  clearTimeout(timer);
  return { code, out };
}

/** No AWS credentials or settings of the machine running the tests leak into a machine. */
function cleanEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('AWS_') && !key.startsWith('S3_') && key !== 'APP_SECRET',
    ),
  );
  return { ...base, AWS_EC2_METADATA_DISABLED: 'true', ...env };
}

/** A connection of its own per call, so node:cluster deals the calls to both API processes. */
const request = (
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const sent = http.request(
      url,
      { agent: false, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });

describe.skipIf(!!skipReason)('the documented three-machine deployment', () => {
  let dir: string;
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let moto: Awaited<ReturnType<typeof startMoto>>;
  let speech: TranscriptionStandIn;
  let apiUrl: string;
  let shared: Record<string, string>;
  let machines: Record<string, string>[];
  const started: Started[] = [];
  let api: Started;
  let asr: Started;
  let render: Started;
  let stomp: TestStompClient | undefined;
  // Long enough for the moment finder to cut a clip, short enough to upload and render fast.
  const VIDEO_MS = 30_000;
  const words = [
    'Most lighthouse keepers never measure how long their visitors really stay.',
    'Here is the one number that changed how we run every single harbour tour.',
    'People decide in the first three seconds whether they keep listening.',
    'So we cut every intro and we open on the strongest story instead.',
    'Our visits doubled within a month and nothing else changed.',
  ].join(' ');

  /** A machine's environment: the docs' values, with the addresses of this box. */
  const envOf = (machine: Record<string, string>, name: string, extra = {}) => {
    const env: Record<string, string> = {
      ...shared,
      ...machine,
      DATA_DIR: path.join(dir, name),
      WEB_DIST_DIR: path.join(dir, 'no-web'),
      LOG_LEVEL: 'info',
      ...extra,
    };
    // This box stands in for the three machines, the database, Redis and the bucket.
    Object.assign(env, {
      DATABASE_URL: scratch.url,
      REDIS_URL,
      S3_ENDPOINT: moto.endpoint,
      // Browsers reach the bucket under another name than the servers do.
      S3_PUBLIC_ENDPOINT: moto.endpoint.replace('127.0.0.1', 'localhost'),
      PUBLIC_URL: apiUrl,
      HOST: '127.0.0.1',
      PORT: new URL(apiUrl).port,
      TASK_LEASE_MS: '5000',
      // The render worker spends this box's two cores on the export, not on previews.
      FRAMING_PREPARE_MOMENTS: '0',
    });
    // No GPU here: the transcription worker asks a stand-in service, the fastest setting.
    if (env.WORKER_QUEUES === 'asr') {
      delete env.ASR_DEVICE;
      env.ASR_BASE_URL = speech.baseUrl;
    }
    return env;
  };

  beforeAll(async () => {
    ({ shared, machines } = await documentedDeployment());
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-deployment-'));
    [scratch, moto, speech] = await Promise.all([
      createScratchPostgres(),
      startMoto(),
      startTranscriptionStandIn(words, VIDEO_MS),
    ]);
    apiUrl = `http://127.0.0.1:${await freePort()}`;
    const s3 = new S3Client({
      endpoint: moto.endpoint,
      region: shared.S3_REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    });
    await s3.send(new CreateBucketCommand({ Bucket: shared.S3_BUCKET }));
    s3.destroy();
    const [apiMachine, asrMachine, renderMachine] = machines;
    // The API first: it migrates the database the workers join.
    api = await startMachine(envOf(apiMachine!, 'api'));
    started.push(api);
    [asr, render] = await Promise.all([
      startMachine(envOf(asrMachine!, 'asr')),
      startMachine(envOf(renderMachine!, 'render')),
    ]);
    started.push(asr, render);
  }, 240_000);

  afterAll(async () => {
    await stomp?.disconnect();
    await Promise.all(started.map((machine) => machine.stop('SIGKILL')));
    await Promise.all([moto?.stop(), speech?.close(), scratch?.drop()]);
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('the docs give every machine the settings it must share', () => {
    for (const key of [
      'DATABASE_URL',
      'REALTIME_BUS',
      'REDIS_URL',
      'STORAGE_DRIVER',
      'S3_ENDPOINT',
      'S3_REGION',
      'S3_BUCKET',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'APP_SECRET',
      'PUBLIC_URL',
    ]) {
      expect(shared[key], key).toBeTruthy();
    }
    expect(machines.map((machine) => [machine.ROLES, machine.WORKER_QUEUES])).toEqual([
      ['api', undefined],
      ['worker', 'asr'],
      ['worker', 'render'],
    ]);
    expect(machines[0]!.API_PROCESSES).toBe('2');
    expect(api.output()).toMatch(/ready at http:\/\/127\.0\.0\.1:\d+ \(2 API processes\)/);
    expect(asr.output()).toMatch(/roles: worker, queues: asr, database: postgres, bus: redis/);
    expect(render.output()).toMatch(/roles: worker, queues: render, .*storage: s3/);
  });

  it('runs a task and an export through the API, mails from the worker with links that open on the API', async () => {
    const call = async (method: string, route: string, token?: string, body?: unknown) => {
      const response = await fetch(`${apiUrl}${route}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body instanceof FormData || body === undefined
            ? {}
            : { 'content-type': 'application/json' }),
        },
        body:
          body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
      return (await response.json()) as { code: number | string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON replies of many shapes
    };
    const signup = await call('POST', '/api/auth/signup', undefined, {
      email: 'operator@example.com',
      password: 'three machines on one box',
      username: 'operator',
    });
    const token = signup.data.token as string;
    const video = await makeTestVideo(path.join(dir, 'tour.mp4'), {
      durationSec: VIDEO_MS / 1000,
    });
    const form = new FormData();
    form.append('file', new Blob([await fs.readFile(video)]), 'Harbour tour.mp4');
    const uploaded = await call('POST', '/api/upload', token, form);
    expect(uploaded.code, JSON.stringify(uploaded)).toBe(0);
    const started = await call(
      'POST',
      '/api/highlight_moment/task/start?url_source=upload&source_lang=en',
      token,
      uploaded.data,
    );
    expect(started.code, JSON.stringify(started)).toBe(0);
    const taskId = started.data.id as string;
    const until = async <T>(what: string, read: () => Promise<T | undefined>, ms = 60_000) => {
      const deadline = Date.now() + ms;
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const task = await until('the task', async () => {
      const reply = await call('GET', `/api/highlight_moment/task?id=${taskId}`, token);
      return reply.data.status === 'DONE' || reply.data.status === 'ERROR' ? reply.data : undefined;
    });
    expect(task.status, `${JSON.stringify(task)}\n${asr.output().slice(-3000)}`).toBe('DONE');
    expect(speech.requests()).toBeGreaterThan(0);

    // The transcription worker mailed it (nobody was watching), with links to the API's address.
    const outbox = path.join(dir, 'asr', 'outbox');
    const mail = await until('the task mail', async () => {
      const names = await fs.readdir(outbox).catch(() => []);
      return names.length ? fs.readFile(path.join(outbox, names[0]!), 'utf8') : undefined;
    });
    const links = [...mail.matchAll(/https?:\/\/[^\s"'<>\\)]+/g)]
      .map((match) => match[0])
      .filter((link) => !link.startsWith('http://www.w3.org/'));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(apiUrl), link).toBe(true);
    const unsubscribe = links.find((link) => link.includes('/api/unsubscribe/'));
    expect(unsubscribe, mail).toBeTruthy();
    // Signed by the worker, accepted by the API: the same APP_SECRET.
    const opened = await request(unsubscribe!);
    expect(opened.status, opened.body).toBe(200);

    // Both API processes answer the same search (calls dealt round-robin across them).
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        request(`${apiUrl}/api/p/v1/searchVideos`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'lighthouse keepers' }),
        }).then((reply) => reply.body),
      ),
    );
    expect(new Set(answers).size, answers.join('\n')).toBe(1);
    expect(answers[0]).toMatch(/lighthouse/i);

    // Watched live in a browser connected to an API process: the render worker (which has no
    // browsers of its own) sends no mail, and the progress reaches the browser through Redis.
    stomp = await connectStompClient(`${apiUrl.replace('http', 'ws')}/stomp-ws`, token);
    const moments = await call('GET', `/api/highlight_moment/list?task_id=${taskId}`, token);
    expect(moments.data.length, JSON.stringify(moments)).toBeGreaterThan(0);
    const job = await call('POST', '/api/job', token, {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: moments.data[0].id,
      options: { aspect: 'original', caption_display: 'none' },
    });
    expect(job.code, JSON.stringify(job)).toBe(0);
    const jobId = job.data.job_id as string;
    const done = await until(
      'the export',
      async () => {
        const reply = await call('GET', `/api/job/${jobId}`, token);
        return reply.data.status === 'IN_PROGRESS' ? undefined : reply.data;
      },
      180_000,
    );
    expect(done.status, `${JSON.stringify(done)}\n${render.output().slice(-3000)}`).toBe('DONE');
    expect(done.file_url.startsWith(moto.endpoint.replace('127.0.0.1', 'localhost'))).toBe(true);
    const download = await fetch(done.file_url.replace('localhost', '127.0.0.1'));
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    await until('the pushed export', async () =>
      stomp!.messages.some((message) => JSON.stringify(message).includes(jobId)) ? true : undefined,
    );
    const renderMail = await fs.readdir(path.join(dir, 'render', 'outbox')).catch(() => []);
    expect(renderMail).toEqual([]);
  }, 300_000);

  it('refuses a machine whose storage, secret or bus is wrong, with the fix; npm run jobs names a queue with no worker', async () => {
    const renderMachine = machines[2]!;
    // The render worker stops: its queue has no worker now.
    await render.stop();
    const {
      S3_ACCESS_KEY_ID: _id,
      S3_SECRET_ACCESS_KEY: _key,
      ...withoutKeys
    } = envOf(renderMachine, 'trip-keys', { HOME: dir });
    const jobs = new Promise<{ code: number; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/scripts/jobs.ts'], {
        cwd: REPO_ROOT,
        env: cleanEnv(envOf(renderMachine, 'jobs')),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (out += chunk));
      child.once('exit', (code) => resolve({ code: code ?? -1, out }));
    });
    // The secret and the bus differ on one machine: both are named, each with its fix.
    const [keys, bucket, differs, view] = await Promise.all([
      expectRefusal(withoutKeys),
      expectRefusal(envOf(renderMachine, 'trip-bucket', { S3_BUCKET: 'no-such-bucket' })),
      expectRefusal(
        envOf(renderMachine, 'trip-differs', {
          APP_SECRET: 'b'.repeat(64),
          REALTIME_BUS: 'postgres',
        }),
      ),
      jobs,
    ]);
    expect(keys.code, keys.out).toBe(2);
    expect(keys.out).toMatch(
      /S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: no S3 credentials .*set both/,
    );
    expect(bucket.code, bucket.out).toBe(2);
    expect(bucket.out).toMatch(/S3_BUCKET: the bucket no-such-bucket .* does not exist: create it/);
    expect(differs.code, differs.out).toBe(2);
    expect(differs.out).toMatch(
      /APP_SECRET: differs from the one of the running .*Set the same APP_SECRET/,
    );
    expect(differs.out).toMatch(
      /REALTIME_BUS: postgres here, redis on the running .*same REALTIME_BUS/,
    );
    expect(view.code, view.out).toBe(0);
    expect(view.out).toMatch(/asr: \S+ pid \d+/);
    expect(view.out).toMatch(/render: NO WORKER: .*export-render/);
    expect(view.out).toMatch(/api: 2 process\(es\)/);
  }, 120_000);
});
