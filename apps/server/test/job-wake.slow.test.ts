import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

// A job sent by this process starts at once, not at the worker's next poll. The poll is
// set to a minute here, so a task that waited for it would still be queued when the test looks.
describe.each(DATABASE_TARGETS)('a started task wakes its worker on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let served: ServedFiles;
  let dir: string;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-wake-'));
    await makeTestVideo(path.join(dir, 'talk.mp4'), { durationSec: 2, width: 320, height: 180 });
    served = await serveFiles(dir);
    t = await startTestApp(
      await target.open(),
      { MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1', JOB_POLL_SECONDS: '60' },
      { workers: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await served?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('leaves the queue within seconds although idle workers poll once a minute', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'waker');
    // Let the workers settle into their minute-long poll first.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct&source_lang=en',
      headers: user.headers,
      payload: { url: `${served.url}/talk.mp4` },
    });
    expect(started.statusCode).toBe(200);
    const id = started.json().data.id as string;
    const stageAfter = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/highlight_moment/task?id=${id}`,
          headers: user.headers,
        })
      ).json().data as { status: string; stage: string };
    await expect
      .poll(async () => (await stageAfter()).stage, { timeout: 20_000 })
      .not.toBe('queued');
  });
});
