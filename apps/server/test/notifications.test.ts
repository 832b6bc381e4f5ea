import { Notification } from '@moments/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StompErrorFrame, connectStompClient, waitFor } from './support/stomp.js';
import type { TaskRow } from '../src/modules/tasks/task-mapper.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

/** A task row as the runner reports it, for driving notifications without running media work. */
const taskRow = (userId: string, status: string, title: string): TaskRow =>
  ({
    id: crypto.randomUUID(),
    userId,
    status,
    stage: status === 'DONE' ? 'finishing' : 'transcribing',
    progress: status === 'DONE' ? 100 : 40,
    errorReason: status === 'ERROR' ? 'The link answered 404.' : null,
    video: { url: 'https://example.com/v.mp4', title },
  }) as TaskRow;

describe.each(DATABASE_TARGETS)('notifications and realtime on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let wsUrl: string;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { listen: true });
    wsUrl = `${t.url.replace('http', 'ws')}/stomp-ws`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a STOMP connection without a valid session token', async (ctx) => {
    if (skip) return ctx.skip(skip);
    await expect(connectStompClient(wsUrl, undefined)).rejects.toBeInstanceOf(StompErrorFrame);
    await expect(connectStompClient(wsUrl, 'not-a-real-token')).rejects.toBeInstanceOf(
      StompErrorFrame,
    );
  });

  it('stores finished-task notifications and pushes them only to their owner', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const alice = await signUp(t.app, 'alice');
    const bob = await signUp(t.app, 'bob');
    const aliceTab1 = await connectStompClient(wsUrl, alice.token);
    const aliceTab2 = await connectStompClient(wsUrl, alice.token);
    const bobTab = await connectStompClient(wsUrl, bob.token);
    try {
      await t.services.notifications.taskChanged(
        taskRow(alice.userId, 'IN_PROGRESS', 'Talk'),
        true,
      );
      await t.services.notifications.taskChanged(taskRow(alice.userId, 'DONE', 'Talk'), true);
      await waitFor(
        () => aliceTab1.messages.length === 2 && aliceTab2.messages.length === 2,
        'both tabs',
      );
      expect(aliceTab1.messages[0]).toMatchObject({
        type: 'TASK_STATUS_UPDATE',
        data: { task_status: 'IN_PROGRESS', task_title: 'Talk' },
      });
      expect(aliceTab1.messages[0]!.id).toBeUndefined(); // progress is pushed, not stored
      expect(aliceTab1.messages[1]).toMatchObject({
        type: 'TASK_STATUS_UPDATE',
        data: { task_status: 'DONE', task_title: 'Talk' },
      });
      expect(aliceTab1.messages[1]!.id).toBeTruthy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(bobTab.messages).toEqual([]);

      const history = await t.app.inject({
        method: 'GET',
        url: '/api/notify/history?page_num=1&page_size=20',
        headers: alice.headers,
      });
      const page = history.json().data;
      expect(page.last).toBe(true);
      expect(page.content).toHaveLength(1);
      const stored = Notification.parse(page.content[0]);
      expect(stored).toMatchObject({
        type: 'TASK_STATUS_UPDATE',
        viewed: false,
        data: { task_status: 'DONE', task_title: 'Talk' },
      });
      const bobs = await t.app.inject({
        method: 'GET',
        url: '/api/notify/history',
        headers: bob.headers,
      });
      expect(bobs.json().data.content).toEqual([]);

      // Viewing on tab 1 syncs tab 2, not tab 1 itself.
      const viewed = await t.app.inject({
        method: 'POST',
        url: '/api/notify/viewed',
        headers: { ...alice.headers, 'x-stomp-session': aliceTab1.session },
        payload: [stored.id],
      });
      expect(viewed.json().data).toEqual([stored.id]);
      await waitFor(() => aliceTab2.messages.length === 3, 'sync view');
      expect(aliceTab2.messages[2]).toEqual({
        type: 'SYNC_NOTIFY_VIEW',
        data: { ids: [stored.id] },
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(aliceTab1.messages).toHaveLength(2);

      // Bob can neither view nor delete Alice's notification.
      const bobViews = await t.app.inject({
        method: 'POST',
        url: '/api/notify/viewed',
        headers: bob.headers,
        payload: [stored.id],
      });
      expect(bobViews.json().data).toEqual([]);
      const bobDeletes = await t.app.inject({
        method: 'DELETE',
        url: '/api/notify/delete',
        headers: bob.headers,
        payload: [stored.id],
      });
      expect(bobDeletes.json().data).toEqual([]);

      const deleted = await t.app.inject({
        method: 'DELETE',
        url: '/api/notify/delete',
        headers: { ...alice.headers, 'x-stomp-session': aliceTab2.session },
        payload: { ids: [stored.id] },
      });
      expect(deleted.json().data).toEqual([stored.id]);
      await waitFor(() => aliceTab1.messages.length === 3, 'sync delete');
      expect(aliceTab1.messages[2]).toEqual({
        type: 'SYNC_NOTIFY_DELETE',
        data: { ids: [stored.id] },
      });
      const after = await t.app.inject({
        method: 'GET',
        url: '/api/notify/history',
        headers: alice.headers,
      });
      expect(after.json().data.content).toEqual([]);
    } finally {
      await Promise.all([aliceTab1.disconnect(), aliceTab2.disconnect(), bobTab.disconnect()]);
    }
  });

  it('pages with a creation cutoff, and marks all viewed', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const carol = await signUp(t.app, 'carol');
    for (let i = 0; i < 23; i++) {
      await t.services.notifications.taskChanged(
        taskRow(carol.userId, i % 2 ? 'DONE' : 'ERROR', `Video ${i}`),
        true,
      );
    }
    const cutoff = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Arrives after the first page was fetched: must not shift the later pages.
    await t.services.notifications.taskChanged(taskRow(carol.userId, 'DONE', 'Late'), true);

    const page1 = (
      await t.app.inject({
        method: 'GET',
        url: `/api/notify/history?page_num=1&page_size=20&created=${cutoff}`,
        headers: carol.headers,
      })
    ).json().data;
    const page2 = (
      await t.app.inject({
        method: 'GET',
        url: `/api/notify/history?page_num=2&page_size=20&created=${cutoff}`,
        headers: carol.headers,
      })
    ).json().data;
    expect(page1.content).toHaveLength(20);
    expect(page1.last).toBe(false);
    expect(page2.content).toHaveLength(3);
    expect(page2.last).toBe(true);
    const titles = [...page1.content, ...page2.content].map((n: Notification) => n.data.task_title);
    expect(new Set(titles).size).toBe(23);
    expect(titles).not.toContain('Late');
    expect(titles[0]).toBe('Video 22');

    await t.app.inject({ method: 'POST', url: '/api/notify/all-viewed', headers: carol.headers });
    const all = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notify/history?page_size=100',
        headers: carol.headers,
      })
    ).json().data;
    expect(all.content.every((n: Notification) => n.viewed)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/api/notify/history' })).statusCode).toBe(
      401,
    );
  });
});
