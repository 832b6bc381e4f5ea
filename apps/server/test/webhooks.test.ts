/**
 * Webhooks on PGlite and PostgreSQL, with a receiver on 127.0.0.1 (so WEBHOOK_ALLOW_PRIVATE=1)
 * that checks every delivery with the reference Standard Webhooks verifier (the npm
 * `standardwebhooks` package): finished and failed tasks and exports, a test event, retries with
 * backoff in the delivery log, the egress guard without the setting, and bad input.
 */
import fs from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WEBHOOKS_PER_USER_MAX } from '@moments/contract';
import { MediaError } from '@moments/media/errors';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { webhookDeliveries } from '../src/db/schema.js';
import { waitFor } from './support/stomp.js';
import type { TaskRow } from '../src/modules/tasks/task-mapper.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask } from './support/fixtures.js';

type User = Awaited<ReturnType<typeof signUp>>;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver: records every request; answers what `answer` says for its path. */
async function startReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, number[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const pathName = request.url ?? '/';
      received.push({
        path: pathName,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const queue = answers.get(pathName);
      response.statusCode = queue?.length ? queue.shift()! : 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathName: string) => `http://127.0.0.1:${port}${pathName}`,
    received,
    at: (pathName: string) => received.filter((request) => request.path === pathName),
    /** The next answers for `pathName`, in order; afterwards 204. */
    answer: (pathName: string, ...statuses: number[]) => answers.set(pathName, statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(DATABASE_TARGETS)('webhooks on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let media: FakeMediaRepository;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    receiver = await startReceiver();
    media = new FakeMediaRepository();
    t = await startTestApp(
      await target.open(),
      // Exports render with the fake tools; a failed delivery is retried after 1 s, 2 s...
      { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_DELAY_SECONDS: '1', WORKER_QUEUES: 'render' },
      { workers: true, media },
    );
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const addWebhook = async (user: User, url: string, events: string[]) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: user.headers,
      payload: { url, events },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; secret: string };
  };
  /** The deliveries at `pathName`, each verified with the hook's secret; the parsed payloads. */
  const verified = (pathName: string, secret: string) =>
    receiver.at(pathName).map((request) => {
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      return new Webhook(secret).verify(request.body, headers) as {
        type: string;
        timestamp: string;
        data: Record<string, unknown>;
      };
    });
  const deliveriesOf = async (user: User, id: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/webhooks/${id}/deliveries`,
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      id: string;
      event: string;
      status: string;
      attempts: number;
      response_code: number | null;
      attempt_log: { at: number; response_code: number | null }[];
    }[];
  };
  const seedTask = async (
    user: User,
    kind: 'viral' | 'caption' = 'viral',
    status: 'DONE' | 'ERROR' = 'DONE',
  ) => {
    const video = path.join(t.dataDir, `source-${Math.random()}.mp4`);
    await fs.writeFile(video, 'stand-in media: the fake tools never read it');
    return seedFinishedTask(t, user.userId, {
      video,
      kind,
      status,
      title: 'A talk',
      durationMs: 60_000,
      words: [{ text: 'hello', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 20_000, title: 'Hello' },
    });
  };
  const startExport = async (user: User, momentId: string) => {
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
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.job_id as string;
  };
  /** What the runner reports when a task ends: the transition's one report. */
  const taskEnded = async (taskId: string, status: 'DONE' | 'ERROR') => {
    const repo = new TasksRepository(t.services.database.db);
    const row = (await repo.findById(taskId)) as TaskRow;
    await t.services.notifications.taskChanged(
      { ...row, status, errorReason: status === 'ERROR' ? 'The link answered 404.' : null },
      true,
    );
  };

  it('delivers finished and failed work signed per Standard Webhooks, with the API’s JSON of the object', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'hooked');
    const hook = await addWebhook(user, receiver.url('/all'), [
      'task.done',
      'task.error',
      'export.done',
      'export.error',
      'caption_task.done',
    ]);
    const exportsOnly = await addWebhook(user, receiver.url('/exports'), ['export.done']);

    const { taskId, momentId } = await seedTask(user);
    await taskEnded(taskId, 'DONE');
    const caption = await seedTask(user, 'caption');
    await taskEnded(caption.taskId, 'DONE');
    const failedTask = await seedTask(user, 'viral', 'ERROR');
    await taskEnded(failedTask.taskId, 'ERROR');

    const doneJob = await startExport(user, momentId);
    await waitFor(() => receiver.at('/exports').length === 1, 'export.done', 20_000);
    media.failing.set('render', new MediaError('FFMPEG_FAILED', 'ffmpeg exited with 1'));
    try {
      const failedJob = await startExport(user, momentId);
      await waitFor(() => receiver.at('/all').length === 5, 'five events', 20_000);
      const events = verified('/all', hook.secret);
      const byType = new Map(events.map((event) => [event.type, event]));
      expect([...byType.keys()].sort()).toEqual([
        'caption_task.done',
        'export.done',
        'export.error',
        'task.done',
        'task.error',
      ]);
      // The data is what GET of the object answers.
      const task = await t.app.inject({
        method: 'GET',
        url: `/api/highlight_moment/task?id=${taskId}`,
        headers: user.headers,
      });
      expect(byType.get('task.done')!.data).toEqual(task.json().data);
      expect(byType.get('caption_task.done')!.data).toMatchObject({ id: caption.taskId });
      expect(byType.get('task.error')!.data).toMatchObject({
        id: failedTask.taskId,
        status: 'ERROR',
      });
      expect(byType.get('export.done')!.data).toMatchObject({
        job_id: doneJob,
        status: 'DONE',
      });
      expect(byType.get('export.error')!.data).toMatchObject({
        job_id: failedJob,
        status: 'ERROR',
      });
      expect(Date.parse(byType.get('task.done')!.timestamp)).toBeGreaterThan(0);
      // A webhook hears only the events it asked for.
      expect(verified('/exports', exportsOnly.secret).map((event) => event.type)).toEqual([
        'export.done',
      ]);
      // Another secret does not verify: the signature is the receiver's proof.
      expect(() => verified('/all', exportsOnly.secret)).toThrow();
      // The receiver may hear the last attempt a moment before its result is written.
      let log = await deliveriesOf(user, hook.id);
      for (let i = 0; i < 50 && log.some((entry) => entry.status === 'pending'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        log = await deliveriesOf(user, hook.id);
      }
      expect(log).toHaveLength(5);
      expect(
        log.every((entry) => entry.status === 'succeeded' && entry.response_code === 204),
      ).toBe(true);
    } finally {
      media.failing.delete('render');
    }
  });

  it('retries a receiver that answers 500 with growing waits, and the log shows each attempt', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'flaky');
    const hook = await addWebhook(user, receiver.url('/flaky'), ['task.done']);
    receiver.answer('/flaky', 500, 500);
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${hook.id}/test`,
      headers: user.headers,
    });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().data).toMatchObject({ event: 'webhook.test', status: 'pending' });
    await waitFor(() => receiver.at('/flaky').length === 3, 'three attempts', 30_000);
    const attempts = receiver.at('/flaky');
    // One delivery: the same webhook-id every time, each attempt signed anew and verified.
    expect(new Set(attempts.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(verified('/flaky', hook.secret).map((event) => event.type)).toEqual([
      'webhook.test',
      'webhook.test',
      'webhook.test',
    ]);
    const firstWait = attempts[1]!.at - attempts[0]!.at;
    const secondWait = attempts[2]!.at - attempts[1]!.at;
    expect(firstWait).toBeGreaterThanOrEqual(900);
    expect(secondWait).toBeGreaterThanOrEqual(1900);

    let log = await deliveriesOf(user, hook.id);
    for (let i = 0; i < 50 && log[0]?.status !== 'succeeded'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await deliveriesOf(user, hook.id);
    }
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      id: attempts[0]!.headers['webhook-id'],
      status: 'succeeded',
      attempts: 3,
      response_code: 204,
    });
    expect(log[0]!.attempt_log.map((attempt) => attempt.response_code)).toEqual([500, 500, 204]);

    // A month on, housekeeping clears settled deliveries from the log.
    await t.services.database.db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(eq(webhookDeliveries.id, log[0]!.id));
    await t.services.housekeeping.runOnce();
    expect(await deliveriesOf(user, hook.id)).toEqual([]);
  });

  it('announces credits.low once when the balance falls below the threshold', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'spender');
    const hook = await addWebhook(user, receiver.url('/credits'), ['credits.low']);
    const ledger = t.services.billing.ledger;
    const balance = async () => (await t.services.billing.reads.spendable(user.userId, 'CREDIT'))!;
    const start = await balance();
    expect(start).toBeGreaterThan(12);
    const { taskId } = await seedTask(user);
    const charge = (attempt: number, amount: number) =>
      ledger.charge(user.userId, { kind: 'task-run', taskId, attempt }, 'CREDIT', amount);
    // Above the threshold, then below it twice: one event for the one fall.
    await charge(1, start - 12);
    await charge(2, 5);
    await waitFor(() => receiver.at('/credits').length === 1, 'credits.low', 10_000);
    await charge(3, 1);
    await new Promise((resolve) => setTimeout(resolve, 800));
    const [event, ...more] = verified('/credits', hook.secret);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      type: 'credits.low',
      data: { feature: 'CREDIT', balance: 7, threshold: 10 },
    });
    expect(await balance()).toBe(6);
  });

  it('refuses a private address without WEBHOOK_ALLOW_PRIVATE, and bad input with 4xx codes', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'strict');
    const guarded = await startTestApp(await target.open(), {}, {});
    try {
      const other = await signUp(guarded.app, 'guarded');
      for (const url of [
        'http://127.0.0.1:9/hook',
        'http://10.0.0.5/hook',
        'http://[::1]/hook',
        'http://169.254.169.254/latest',
      ]) {
        const response = await guarded.app.inject({
          method: 'POST',
          url: '/api/webhooks',
          headers: other.headers,
          payload: { url, events: ['task.done'] },
        });
        expect(response.statusCode, url).toBe(422);
        expect(response.json().code, url).toBe('PRIVATE_ADDRESS');
      }
    } finally {
      await guarded.close();
    }

    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/webhooks', headers: user.headers, payload });
    for (const payload of [
      { url: 'not a url', events: ['task.done'] },
      { url: 'ftp://example.com/hook', events: ['task.done'] },
      { url: `https://example.com/${'x'.repeat(3000)}`, events: ['task.done'] },
      { url: receiver.url('/bad'), events: ['task.started'] },
      { url: receiver.url('/bad'), events: [] },
    ]) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }

    const unparsable = await post({ url: 'http://[::1/hook', events: ['task.done'] });
    expect(unparsable.statusCode).toBe(422);
    expect(unparsable.json().code).toBe('INVALID_URL');
    // Repeated events are one subscription.
    const repeated = await addWebhook(user, receiver.url('/repeat'), ['task.done', 'task.done']);
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/webhooks/list', headers: user.headers })
    ).json().data as { id: string; events: string[] }[];
    expect(listed.find((hook) => hook.id === repeated.id)!.events).toEqual(['task.done']);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${repeated.id}`,
      headers: user.headers,
    });

    for (let i = 0; i < WEBHOOKS_PER_USER_MAX; i++) {
      await addWebhook(user, receiver.url(`/many/${i}`), ['task.done']);
    }
    const tooMany = await post({ url: receiver.url('/many/last'), events: ['task.done'] });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().code).toBe('TOO_MANY_WEBHOOKS');

    // Another user's webhook answers as a missing one.
    const stranger = await signUp(t.app, 'stranger');
    const [mine] = (
      await t.app.inject({ method: 'GET', url: '/api/webhooks/list', headers: user.headers })
    ).json().data as { id: string }[];
    for (const [method, url] of [
      ['PUT', `/api/webhooks/${mine!.id}`],
      ['DELETE', `/api/webhooks/${mine!.id}`],
      ['POST', `/api/webhooks/${mine!.id}/test`],
      ['GET', `/api/webhooks/${mine!.id}/deliveries`],
      ['GET', '/api/webhooks/not-a-uuid/deliveries'],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: stranger.headers,
        ...(method === 'PUT' ? { payload: { enabled: false } } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }

    // The owner may change and delete it; the secret never shows again.
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/webhooks/${mine!.id}`,
      headers: user.headers,
      payload: { events: ['export.done', 'credits.low'], enabled: false },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({
      events: ['export.done', 'credits.low'],
      enabled: false,
    });
    expect(updated.body).not.toContain('whsec_');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${mine!.id}`,
      headers: user.headers,
    });
    expect(removed.statusCode).toBe(200);
  });
});
