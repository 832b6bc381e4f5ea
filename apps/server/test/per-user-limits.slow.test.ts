import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES } from '@moments/contract';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS, openPglite } from './support/databases.js';
import { seedFinishedTask } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const WORDS = ['a', 'walk', 'by', 'the', 'river', 'in', 'the', 'rain'].map((text, i) => ({
  text,
  startMs: 100 + i * 300,
  endMs: 350 + i * 300,
}));

// One user cannot fill every worker with tasks or framing analyses.
describe('per-user concurrency limits', () => {
  let t: TestApp;
  let video: string;

  beforeAll(async () => {
    t = await startTestApp(await openPglite(), {
      MAX_RUNNING_TASKS_PER_USER: '2',
      MAX_FRAMING_ANALYSES_PER_USER: '1',
    });
    video = path.join(t.dataDir, 'walk.mp4');
    await makeTestVideo(video, { durationSec: 3, width: 640, height: 360 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 TOO_MANY_RUNNING to a task start beyond the limit, and to a retry', async () => {
    const user = await signUp(t.app, 'busy');
    const repo = new TasksRepository(t.services.database.db);
    const seeded = [];
    for (const status of ['START', 'IN_PROGRESS']) {
      seeded.push(
        await seedFinishedTask(t, user.userId, {
          video,
          title: 'Busy',
          durationMs: 3000,
          words: WORDS,
          moment: { startMs: 100, endMs: 2000, title: 'Busy' },
          status,
        }),
      );
    }
    const { taskId: finished } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Done',
      durationMs: 3000,
      words: WORDS,
      moment: { startMs: 100, endMs: 2000, title: 'Done' },
    });
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct',
      headers: user.headers,
      payload: { url: 'https://example.com/talk.mp4' },
    });
    expect(start.statusCode).toBe(429);
    expect(start.json().code).toBe(ERROR_CODES.TOO_MANY_RUNNING);
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/highlight_moment/task/retry?id=${finished}`,
      headers: user.headers,
    });
    expect(retry.statusCode).toBe(429);
    expect(retry.json().code).toBe(ERROR_CODES.TOO_MANY_RUNNING);

    // One finishes: the user may retry again.
    await repo.update(seeded[0]!.taskId, { status: 'DONE' });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/highlight_moment/task/retry?id=${finished}`,
      headers: user.headers,
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('answers 429 to framing analyses beyond the limit while one is under way', async () => {
    const user = await signUp(t.app, 'framer');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Walk',
      durationMs: 3000,
      words: WORDS,
      moment: { startMs: 100, endMs: 2500, title: 'Walk' },
    });
    const framing = (startMs: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/captions/framing',
        headers: user.headers,
        payload: {
          moment_id: momentId,
          options: {
            aspect: '9:16',
            quality: '720p',
            template: 'one_word',
            start_ms: startMs,
            end_ms: 2500,
            layout: 'auto',
          },
        },
      });
    const replies = await Promise.all([100, 400, 700, 1000].map(framing));
    const statuses = replies.map((reply) => reply.statusCode);
    expect(statuses, replies.map((r) => r.body).join('\n')).toContain(200);
    expect(statuses).toContain(429);
    const refused = replies.find((reply) => reply.statusCode === 429)!;
    expect(refused.json().code).toBe(ERROR_CODES.TOO_MANY_RUNNING);

    // Once the analyses are over, the same request is answered again.
    const later = await framing(400);
    expect(later.statusCode, later.body).toBe(200);
  });
});

// Concurrent starts cannot all slip under the limit: the count runs under the user's lock inside
// the insert's transaction. No workers run here, so every accepted task stays queued.
describe.each(DATABASE_TARGETS)(
  'per-user task limit under concurrent starts on $name',
  (target) => {
    let skip: string | null = null;
    let t: TestApp;
    let dir: string;
    let served: ServedFiles;

    beforeAll(async () => {
      skip = await target.unavailable();
      if (skip) return;
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-limits-'));
      await makeTestVideo(path.join(dir, 'clip.mp4'), { durationSec: 1 });
      served = await serveFiles(dir);
      t = await startTestApp(await target.open(), {
        MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
        MAX_RUNNING_TASKS_PER_USER: '3',
      });
    }, 60_000);
    afterAll(async () => {
      await t?.close();
      await served?.close();
      if (dir) await fs.rm(dir, { recursive: true, force: true });
    });

    it('accepts exactly the limit out of eight simultaneous starts', async (ctx) => {
      if (skip) return ctx.skip(skip);
      const user = await signUp(t.app, 'burst');
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/highlight_moment/task/start?url_source=direct&source_lang=auto',
            headers: user.headers,
            payload: { url: `${served.url}/clip.mp4`, title: `Burst ${i}` },
          }),
        ),
      );
      const statuses = replies.map((reply) => reply.statusCode).sort();
      expect(statuses, replies.map((r) => r.body).join('\n')).toEqual([
        200, 200, 200, 429, 429, 429, 429, 429,
      ]);
      const listed = await t.app.inject({
        method: 'GET',
        url: '/api/highlight_moment/task/list?page_num=1&page_size=20',
        headers: user.headers,
      });
      expect(listed.statusCode, listed.body).toBe(200);
      // A refused start stores nothing: the user sees exactly the accepted tasks.
      expect(listed.json().data.map((task: { status: string }) => task.status)).toEqual([
        'START',
        'START',
        'START',
      ]);
    });
  },
);
