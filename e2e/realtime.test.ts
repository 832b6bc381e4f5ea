import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NOTIFICATION_PAGE_SIZE } from '@moments/contract';
import { serveFiles, type ServedFiles } from '@moments/media/testing';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './support/browser';
import { startMomentsServer, type RunningMomentsServer } from './support/server';
import { signedInContext } from './support/session';
import { ensureWebBuild } from './support/webBuild';

// Realtime acceptance in Chromium: notifications pushed over STOMP reach every open client of the
// user; viewing one on one client clears the badge on the others; /notification pages by 20.
/** Pushed updates land within a second; a loaded CI box gets more room. */
const POLL = { timeout: 20_000, interval: 100 };

if (!hasChromium) console.warn('e2e/realtime: /usr/bin/chromium is missing, skipping');

describe.skipIf(!hasChromium)('realtime notifications in the browser', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  let served: ServedFiles;
  let dir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-e2e-realtime-'));
    // An .mp4 that is really text: its task is accepted, then ends ERROR within a second, which
    // is a real finished task (and a real stored notification) without any speech recognition.
    await fs.writeFile(path.join(dir, 'broken.mp4'), 'plain text, not a video\n'.repeat(50));
    [, served, server, browser] = await Promise.all([
      ensureWebBuild(),
      serveFiles(dir),
      // Three workers so the 21 failing tasks of the paging test finish quickly; the paging test
      // starts all 21 at once, beyond the default per-user limit of 5 running tasks.
      startMomentsServer({
        MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
        WORKER_CONCURRENCY: '3',
        MAX_RUNNING_TASKS_PER_USER: String(NOTIFICATION_PAGE_SIZE + 1),
      }),
      launchChromium(),
    ]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await server?.stop();
    await served?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  async function startFailingTask(request: APIRequestContext, title: string): Promise<string> {
    const reply = await request.post(
      '/api/highlight_moment/task/start?url_source=direct&source_lang=auto&caption_display=source',
      { data: { url: `${served.url}/broken.mp4`, title } },
    );
    expect(reply.status(), await reply.text()).toBe(200);
    return ((await reply.json()) as { data: { id: string } }).data.id;
  }

  async function openConnected(context: BrowserContext, route: string): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(route);
    await page.locator('[data-testid=notification-badge][data-realtime=connected]').waitFor();
    return page;
  }

  const badgeCount = (page: Page) =>
    page.getByTestId('notification-badge').getAttribute('data-count');

  it('pops a finished task in both clients and clears the badge in the other when viewed', async () => {
    const first = await signedInContext(browser, server.baseUrl);
    const second = await signedInContext(browser, server.baseUrl, { account: first.account });
    contexts.push(first.context, second.context);
    const [pageA, pageB] = await Promise.all([
      openConnected(first.context, '/library/videoTasks'),
      openConnected(second.context, '/home'),
    ]);
    expect(await badgeCount(pageA)).toBe('0');

    const taskId = await startFailingTask(first.context.request, 'Quarterly review');
    // Both clients at once: a toast shows for 8 s, and one client's checks must not outlast it.
    await Promise.all(
      [pageA, pageB].map(async (page) => {
        const toast = page.getByTestId('notification-toast');
        await toast.waitFor();
        expect(await toast.textContent()).toContain('Video processing failed');
        expect(await toast.textContent()).toContain('Quarterly review');
        await expect.poll(() => badgeCount(page), POLL).toBe('1');
      }),
    );
    // The task list of client A followed the same pushes.
    const row = pageA.locator(`[data-task-id="${taskId}"]`);
    await expect.poll(() => row.getAttribute('data-status'), POLL).toBe('ERROR');
    expect(await row.getByTestId('task-error').textContent()).not.toBe('');

    // Client A opens it from the bell: it is stored as viewed before the dialog shows.
    await pageA.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await pageA.getByTestId('notification-item').first().getByRole('button').click();
    const dialog = pageA.getByTestId('notification-dialog');
    await dialog.waitFor();
    const history = await first.context.request.get('/api/notify/history?page_num=1&page_size=20');
    const stored = ((await history.json()) as { data: { content: Array<{ viewed: boolean }> } })
      .data.content;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.viewed).toBe(true);
    expect(await dialog.textContent()).toContain('Video processing failed');

    // SYNC_NOTIFY_VIEW reaches client B; client A skips its own echo but is already at zero.
    await expect.poll(() => badgeCount(pageB), POLL).toBe('0');
    expect(await badgeCount(pageA)).toBe('0');

    // A task dialog leads to /library/videoTasks.
    await dialog.getByRole('button', { name: 'Go to my videos' }).click();
    await pageA.waitForURL('**/library/videoTasks');
  });

  it('loads notifications 20 at a time with the first request time as the cutoff', async () => {
    const { context } = await signedInContext(browser, server.baseUrl);
    contexts.push(context);
    const total = NOTIFICATION_PAGE_SIZE + 1;
    await Promise.all(
      Array.from({ length: total }, (_, i) => startFailingTask(context.request, `Video ${i + 1}`)),
    );
    await expect
      .poll(
        async () => {
          const reply = await context.request.get('/api/notify/history?page_num=1&page_size=50');
          return ((await reply.json()) as { data: { content: unknown[] } }).data.content.length;
        },
        { timeout: 90_000, interval: 500 },
      )
      .toBe(total);

    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const historyCalls: URL[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/notify/history')) historyCalls.push(new URL(request.url()));
    });
    // The realtime connection comes up while "Load more" is loading its page: the list is read
    // again after a connect, and that re-read must not cancel the page (the list stayed on 20).
    const ticket = held();
    const secondPage = held();
    const secondPageAsked = held();
    const connected = held();
    await page.route('**/api/auth/token', async (route) => {
      await ticket.promise;
      await route.continue();
    });
    await page.route(
      (url) => url.pathname === '/api/notify/history' && url.searchParams.get('page_num') === '2',
      async (route) => {
        secondPageAsked.release();
        await secondPage.promise;
        // The browser may have dropped the request meanwhile (the old client cancelled it).
        await route.continue().catch(() => undefined);
      },
    );
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).startsWith('CONNECTED')) connected.release();
      }),
    );
    await page.goto('/notification');
    const items = page.getByTestId('notification-list').getByTestId('notification-item');
    await expect.poll(() => items.count(), POLL).toBe(NOTIFICATION_PAGE_SIZE);
    await page.getByRole('button', { name: 'Load more' }).click();
    await secondPageAsked.promise;
    ticket.release();
    await connected.promise;
    secondPage.release();
    await expect.poll(() => items.count(), POLL).toBe(total);
    await page.getByText('That is everything.').waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    const pages = historyCalls.map((url) => url.searchParams);
    const firstCall = pages.find((params) => params.get('page_num') === '1');
    const secondCall = pages.find((params) => params.get('page_num') === '2');
    expect(firstCall?.get('page_size')).toBe('20');
    expect(firstCall?.has('created')).toBe(false);
    expect(Number(secondCall?.get('created'))).toBeGreaterThan(0);

    // Mark all as read, then delete one. The list changes at once and the server is told after
    // (a failed call is ignored), so what the server kept is read once its replies are in.
    const answered = (path: string) =>
      page.waitForResponse((response) => new URL(response.url()).pathname === path);
    const allViewed = answered('/api/notify/all-viewed');
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect
      .poll(() => page.locator('[data-testid=notification-item][data-viewed=false]').count(), POLL)
      .toBe(0);
    expect((await allViewed).ok()).toBe(true);
    const deleted = answered('/api/notify/delete');
    await items.first().getByRole('button', { name: 'Delete notification' }).click();
    await expect.poll(() => items.count(), POLL).toBe(total - 1);
    expect((await deleted).ok()).toBe(true);
    const after = await context.request.get('/api/notify/history?page_num=1&page_size=50');
    const content = ((await after.json()) as { data: { content: Array<{ viewed: boolean }> } }).data
      .content;
    expect(content).toHaveLength(total - 1);
    expect(content.every((n) => n.viewed)).toBe(true);
  }, 150_000);
});

/** A promise the test resolves when it chooses. */
function held(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}
