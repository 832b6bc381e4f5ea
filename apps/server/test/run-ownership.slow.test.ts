import path from 'node:path';
import type { Job } from '@moments/contract';
import { Task } from '@moments/contract';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.js';
import { entitlementOf, spendAll } from './support/credits.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { seedFinishedTask } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const WORDS = ['one', 'small', 'story', 'about', 'rivers', 'and', 'rain', 'today'].map(
  (text, i) => ({ text, startMs: 100 + i * 220, endMs: 300 + i * 220 }),
);

// Who owns a run, and what a run leaves behind when it loses it.
describe.each(DATABASE_TARGETS)('run ownership on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let video: string;
  let served: ServedFiles;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), { MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1' });
    video = path.join(t.dataDir, 'talk.mp4');
    await makeTestVideo(video, { durationSec: 2 });
    served = await serveFiles(t.dataDir);
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    await t?.close();
  });

  const usage = async (userId: string, feature = 'CREDIT') => {
    return (await entitlementOf(t.services, userId, feature)).usage;
  };
  /** A task queued for its worker: media and transcript stored, so a run only probes and analyses. */
  const queuedTask = async (userId: string) => {
    const { taskId } = await seedFinishedTask(t, userId, {
      video,
      title: 'Rivers',
      durationMs: 2000,
      words: WORDS,
      moment: { startMs: 100, endMs: 1800, title: 'Rivers' },
      status: 'START',
    });
    const repo = new TasksRepository(t.services.database.db);
    const row = await repo.update(taskId, { runToken: 'token-1', stage: 'queued', progress: 0 });
    return row!;
  };
  const getTask = async (headers: Record<string, string>, id: string) =>
    t.app.inject({ method: 'GET', url: `/api/highlight_moment/task?id=${id}`, headers });

  it('refuses a second run of a token while the first one still heart-beats', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'twice');
    const task = await queuedTask(user.userId);
    const repo = new TasksRepository(t.services.database.db);
    // Another worker holds this run and heart-beats (pg-boss redelivers an expired job).
    await repo.update(task.id, {
      status: 'IN_PROGRESS',
      startedAt: new Date(),
      heartbeatAt: new Date(),
    });
    await t.services.taskRunner.run(task.id, 'token-1');
    const untouched = Task.parse((await getTask(user.headers, task.id)).json().data);
    expect(untouched.status).toBe('IN_PROGRESS');
    expect(await usage(user.userId)).toBe(0);

    // Once its heart-beat is stale the run is dead, and the same token may finish the work.
    await repo.update(task.id, { heartbeatAt: new Date(Date.now() - 10 * 60_000) });
    await t.services.taskRunner.run(task.id, 'token-1');
    const done = Task.parse((await getTask(user.headers, task.id)).json().data);
    expect(done.status, done.error_reason ?? '').toBe('DONE');
  });

  it('sets the queue expiry past the longest legal transcription', (ctx) => {
    if (skip) return ctx.skip(skip);
    const threeHours = 3 * 3600_000;
    // Transcription alone may take 4x the duration: 12 h, past the old fixed 6 h expiry.
    expect(t.services.taskRunner.expirySeconds(threeHours)).toBeGreaterThan(
      (4 * threeHours) / 1000,
    );
  });

  it('refunds a task deleted mid-run and removes what the worker stored after the delete', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'deleter');
    for (const deleteVia of ['api', 'other-process'] as const) {
      const task = await queuedTask(user.userId);
      let entered!: () => void;
      const analysing = new Promise<void>((resolve) => (entered = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const original = t.services.moments.analyse.bind(t.services.moments);
      t.services.moments.analyse = async (...args) => {
        entered();
        await released;
        return original(...args);
      };
      try {
        const running = t.services.taskRunner.run(task.id, 'token-1');
        await analysing;
        expect(await usage(user.userId)).toBeGreaterThan(0);
        if (deleteVia === 'api') {
          const deleted = await t.app.inject({
            method: 'DELETE',
            url: `/api/highlight_moment/task?id=${task.id}`,
            headers: user.headers,
          });
          expect(deleted.statusCode).toBe(200);
        } else {
          // The API in another process deleted the row; this worker learns it at its next write
          // and must not leave the media it stored in the meantime.
          await new TasksRepository(t.services.database.db).delete(task.id);
          await t.services.storage.putFile(`users/${user.userId}/tasks/${task.id}/late.mp4`, video);
        }
        release();
        await running;
      } finally {
        t.services.moments.analyse = original;
      }
      expect(await usage(user.userId), deleteVia).toBe(0);
      expect((await getTask(user.headers, task.id)).statusCode).toBe(404);
      const left = await t.services.storage.stat(`users/${user.userId}/tasks/${task.id}/late.mp4`);
      expect(left, 'files stored after the delete are removed').toBeNull();
    }
  });

  it('reports a failed, refunded task as costing nothing', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'unlucky');
    const task = await queuedTask(user.userId);
    const original = t.services.moments.analyse.bind(t.services.moments);
    t.services.moments.analyse = async () => {
      throw new Error('analysis broke');
    };
    try {
      await t.services.taskRunner.run(task.id, 'token-1');
    } finally {
      t.services.moments.analyse = original;
    }
    const failed = Task.parse((await getTask(user.headers, task.id)).json().data);
    expect(failed.status).toBe('ERROR');
    expect(failed.cost_credits).toBe(0);
    expect(await usage(user.userId)).toBe(0);
  });

  it('leaves no export and spends no credit when queuing it fails', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'exporter');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Rivers',
      durationMs: 2000,
      words: WORDS,
      moment: { startMs: 100, endMs: 1800, title: 'Rivers' },
    });
    const before = await usage(user.userId, 'CANVAS_EXPORT');
    const send = t.services.queue.send;
    t.services.queue.send = async () => {
      throw new Error('queue unreachable');
    };
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/job',
        headers: user.headers,
        payload: {
          type: 'VIRAL_MOMENT_EXPORT',
          moment_id: momentId,
          options: { aspect: '9:16', quality: '720p', template: 'one_word' },
        },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      t.services.queue.send = send;
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/job/list', headers: user.headers });
    expect((list.json().data as Job[]).length).toBe(0);
    expect(await usage(user.userId, 'CANVAS_EXPORT')).toBe(before);
  });

  it('leaves no task behind when queuing it fails, at start and at retry', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'unqueued');
    const start = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/highlight_moment/task/start?url_source=direct',
        headers: user.headers,
        payload: { url: `${served.url}/talk.mp4` },
      });
    const send = t.services.queue.send;
    t.services.queue.send = async () => {
      throw new Error('queue unreachable');
    };
    try {
      expect((await start()).statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      t.services.queue.send = send;
    }
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/highlight_moment/task/list?page_num=1&page_size=20',
      headers: user.headers,
    });
    expect(listed.json().data, 'no task that nothing would run').toEqual([]);

    // A finished task whose retry cannot be queued keeps its state instead of waiting forever.
    const { taskId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Rivers',
      durationMs: 2000,
      words: WORDS,
      moment: { startMs: 100, endMs: 1800, title: 'Rivers' },
    });
    t.services.queue.send = async () => {
      throw new Error('queue unreachable');
    };
    try {
      const retried = await t.app.inject({
        method: 'POST',
        url: `/api/highlight_moment/task/retry?id=${taskId}`,
        headers: user.headers,
      });
      expect(retried.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      t.services.queue.send = send;
    }
    const row = await new TasksRepository(t.services.database.db).findById(taskId);
    expect(row?.status).toBe('DONE');
    expect(row?.attempts).toBe(0);
  });

  it('resumes an export whose queue job was lost before any worker started it', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'lost');
    const { taskId, momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Rivers',
      durationMs: 2000,
      words: WORDS,
      moment: { startMs: 100, endMs: 1800, title: 'Rivers' },
    });
    const [job] = await t.services.database.db
      .insert(jobs)
      .values({
        userId: user.userId,
        taskId,
        momentId,
        type: 'VIRAL_MOMENT_EXPORT',
        status: 'IN_PROGRESS',
        title: 'Rivers',
        runToken: 'lost-token',
        heartbeatAt: new Date(Date.now() - 10 * 60_000),
      })
      .returning();
    expect(await t.services.exportLeases.resumeOrphans()).toBe(1);
    const [claimed] = await t.services.database.db.select().from(jobs).where(eq(jobs.id, job!.id));
    expect(claimed?.runToken).not.toBe('lost-token');
  });

  // Last: it starts the workers (and their reapers) for a real queued run.
  it('refuses a linked video the balance cannot cover at start, before downloading it', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'broke');
    await spendAll(t.services, user.userId);
    await startWorkersOnce();
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=direct',
      headers: user.headers,
      payload: { url: `${served.url}/talk.mp4` },
    });
    expect(started.statusCode).toBe(402);
    expect(started.json().code).toBe('BALANCE_NOT_ENOUGH');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/highlight_moment/task/list',
      headers: user.headers,
    });
    expect(list.json().data, 'no task was stored').toEqual([]);
  });

  let workersStarted = false;
  async function startWorkersOnce() {
    if (workersStarted) return;
    workersStarted = true;
    const { startWorkers } = await import('../src/services.js');
    await startWorkers(t.services);
  }
});
