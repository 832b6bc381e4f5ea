import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { hasYtDlp } from '@moments/media/ingest';
import {
  makeTestVideo,
  serveFiles,
  sharedMediaDir,
  type ServedFiles,
} from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './support/process.js';

const media = sharedMediaDir();
const ready = media && hasYtDlp() && fasterWhisperAvailability().available;
if (!ready)
  console.warn(
    'Skipping the restart test: needs ../shared/media, yt-dlp and the speech model (scripts/setup.sh)',
  );

describe.skipIf(!ready)('a task survives a server crash', () => {
  let dataDir: string;
  let served: ServedFiles;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-restart-'));
    const mediaDir = path.join(dataDir, 'served');
    await fs.mkdir(mediaDir);
    // 60 s of speech: long enough to kill the server while it transcribes.
    await makeTestVideo(path.join(mediaDir, 'talk.mp4'), {
      audio: path.join(media!, 'multilingual-en-de.mp3'),
    });
    served = await serveFiles(mediaDir);
  });
  afterAll(async () => {
    await server?.kill('SIGKILL');
    await served?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is resumed after kill -9 and finishes DONE', async () => {
    const env = {
      DATA_DIR: path.join(dataDir, 'data'),
      MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
      TASK_LEASE_MS: '4000',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    };
    server = await spawnServer(env);
    const call = async (
      method: string,
      route: string,
      body?: unknown,
      token?: string,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON replies of many shapes
    ): Promise<any> => {
      const response = await fetch(`${server!.url}${route}`, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return response.json();
    };
    const signup = await call('POST', '/api/auth/signup', {
      email: 'crash@example.com',
      password: 'survives restarts',
      username: 'crash',
    });
    const token = signup.data.token as string;
    const started = await call(
      'POST',
      '/api/highlight_moment/task/start?url_source=direct',
      { url: `${served.url}/talk.mp4` },
      token,
    );
    const taskId = started.data.id as string;

    // Wait until it is transcribing, then kill the process without any chance to clean up.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const task = (await call('GET', `/api/highlight_moment/task?id=${taskId}`, undefined, token))
        .data;
      if (task.stage === 'transcribing') break;
      expect(task.status, server.output()).not.toBe('ERROR');
      if (Date.now() > deadline)
        throw new Error(`never reached transcribing: ${JSON.stringify(task)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await server.kill('SIGKILL');

    server = await spawnServer(env);
    const finishBy = Date.now() + 300_000;
    let task;
    for (;;) {
      task = (await call('GET', `/api/highlight_moment/task?id=${taskId}`, undefined, token)).data;
      if (task.status === 'DONE' || task.status === 'ERROR') break;
      if (Date.now() > finishBy)
        throw new Error(`not finished after restart: ${JSON.stringify(task)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(task.error_reason, server.output()).toBeNull();
    expect(task.status).toBe('DONE');
    const transcript = (
      await call('GET', `/api/highlight_moment/task/transcript?id=${taskId}`, undefined, token)
    ).data;
    const text = transcript.segments.map((s: { text: string }) => s.text).join(' ');
    expect(text.toLowerCase()).toContain('permission is hereby granted');
    // Charged once although the run started twice.
    const info = (await call('GET', '/api/user/info', undefined, token)).data;
    const credit = info.entitlements.find((e: { feature: string }) => e.feature === 'CREDIT');
    expect(credit.usage).toBe(task.cost_credits);
  }, 480_000);
});
