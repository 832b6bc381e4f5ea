/**
 * Everyday actions a user can trust, in Chromium: an uploaded video's page survives a reload, Back
 * and Forward; a double click on Start, Ask or Export makes one piece of work and one charge; the
 * credits left shown in another tab follow a charge without a reload. Real server, build,
 * pipeline (speech synthesised here) and browser.
 */
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import type { CreditHistory, Job, Moment, Task } from '@moments/contract';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiCall } from './support/api';
import { hasChromium } from './support/browser';
import { signedInContext } from './support/session';
import { startTalkStage, type TalkStage } from './support/talk';

const TALK = `Welcome to the garden club. Today we talk about tomatoes in small spaces.
A balcony with six hours of sun is enough for two plants in large pots.
Water them in the morning, deeply, and never on the leaves.
The mistake everyone makes is crowding them: one plant per pot, always.
Thank you, and see you at the seed swap next Saturday.`;

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/everyday-trust: skipping, missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('everyday actions a user can trust, in Chromium', () => {
  let stage: TalkStage;
  let token: string;
  let apiCall: ApiCall;
  let page: Page;
  let close: () => Promise<void>;
  let secondTab: Page;
  /** Every POST the page sent, by path. */
  const posts: Request[] = [];
  const postsTo = (pattern: RegExp) => posts.filter((request) => pattern.test(request.url()));

  const tasks = () => apiCall<Task[]>('GET', '/api/highlight_moment/task/list');
  /** What the ledger charged for a task, its run and summary together. */
  const chargedFor = async (taskId: string) =>
    -(await apiCall<CreditHistory>('GET', '/api/credit/history?page_size=100')).movements
      .filter((movement) => movement.kind === 'charge' && movement.task_id === taskId)
      .reduce((sum, movement) => sum + movement.amount, 0);
  async function waitForTask(id: string) {
    await expect
      .poll(
        async () => (await apiCall<Task>('GET', `/api/highlight_moment/task?id=${id}`)).status,
        { timeout: 240_000, interval: 1000 },
      )
      .toMatch(/^(DONE|ERROR)$/);
  }

  beforeAll(async () => {
    stage = await startTalkStage(TALK, 'garden.mp4');
    apiCall = apiClient(stage.server.baseUrl, () => token);
    const signedIn = await signedInContext(stage.browser, stage.server.baseUrl);
    token = signedIn.token;
    close = () => signedIn.context.close();
    page = await signedIn.context.newPage();
    page.setDefaultTimeout(20_000);
    secondTab = await signedIn.context.newPage();
    secondTab.setDefaultTimeout(20_000);
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request);
    });
  }, 300_000);
  afterAll(async () => {
    await close?.();
    await stage?.close();
  });

  let task: Task;

  let uploadedPage = '';

  it('keeps an uploaded video on its own page through a reload, Back and Forward', async () => {
    await page.goto('/home');
    await page.getByLabel('Upload a video').setInputFiles(path.join(stage.mediaDir, 'garden.mp4'));
    await page.waitForURL(/\/home\/video\/result\?upload=/, { timeout: 60_000 });
    uploadedPage = page.url();
    await page.getByTestId('video-card').waitFor({ timeout: 60_000 });
    await page.reload();
    await page.getByTestId('video-card').waitFor();
    await page.getByRole('button', { name: 'Start' }).waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/home');
    await page.goForward();
    await page.waitForURL(uploadedPage);
    await page.getByTestId('video-card').waitFor();
    expect(await page.getByTestId('video-card').textContent()).toContain('garden');
  }, 120_000);

  it('starts one task of a double click on Start, and another tab shows the credits left at once', async () => {
    // The same video open in a second tab: its start form says how many credits are left.
    await secondTab.goto(uploadedPage);
    const creditsLeft = async () =>
      /· (\d+(?:\.\d)?) credits? left/.exec(
        (await secondTab.getByTestId('task-cost').textContent()) ?? '',
      )?.[1];
    await expect.poll(creditsLeft).toBeDefined();
    const before = Number(await creditsLeft());
    const started = page.waitForResponse((r) => /\/task\/start/.test(r.url()));
    await page.getByRole('button', { name: 'Start' }).dblclick();
    task = ((await (await started).json()) as { data: Task }).data;
    // Whatever reached the server, it made one task and charged once.
    await expect.poll(async () => (await tasks()).length, { timeout: 10_000 }).toBe(1);
    const keys = new Set(postsTo(/\/task\/start/).map((r) => r.headers()['idempotency-key']));
    expect([...keys].every(Boolean)).toBe(true);
    expect(keys.size).toBe(1);
    expect(await chargedFor(task.id)).toBe(task.cost_credits);
    // No reload in the second tab: the pushed change brings the new balance.
    await expect
      .poll(async () => Number(await creditsLeft()), { timeout: 10_000 })
      .toBe(before - task.cost_credits / 10);
    await waitForTask(task.id);
  }, 300_000);

  it('asks one question of a double click on Ask', async () => {
    await page.goto(`/video/${task.id}/moments`);
    await page.getByRole('textbox', { name: 'Search this video' }).fill('How much sun is enough?');
    await page.getByRole('button', { name: 'Ask', exact: true }).dblclick();
    await page.waitForURL(
      (url) => /\/video\/[^/]+\/moments$/.test(url.pathname) && !url.pathname.includes(task.id),
    );
    await expect.poll(async () => (await tasks()).length, { timeout: 10_000 }).toBe(2);
    const questions = (await tasks()).filter((t) => t.id !== task.id);
    expect(questions).toHaveLength(1);
    expect(await chargedFor(questions[0]!.id)).toBe(questions[0]!.cost_credits);
  }, 120_000);

  it('exports once of a double click on Export', async () => {
    const moments = await apiCall<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`);
    expect(moments.length).toBeGreaterThan(0);
    await page.goto(`/moment/${moments[0]!.id}/clip`);
    await page.getByRole('button', { name: 'Export 1080p MP4' }).first().dblclick();
    await page.waitForURL(/\/job\/[^/]+$/);
    const jobs = await apiCall<Job[]>('GET', '/api/job/list');
    expect(jobs).toHaveLength(1);
    const keys = new Set(
      postsTo(/\/api\/job$/).map((request) => request.headers()['idempotency-key']),
    );
    expect(keys.size).toBe(1);
  }, 120_000);
});
