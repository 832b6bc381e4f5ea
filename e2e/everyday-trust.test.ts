/**
 * Everyday actions a user can trust, in Chromium: an uploaded video's page survives a reload, Back
 * and Forward; a double click on Start, Ask or Export makes one piece of work and one charge; the
 * credits left shown in another tab follow a charge without a reload; the clip editor keeps its
 * settings through Back, a reload and another browser, "Edit again" opens an export's own settings,
 * and leaving with changes the server did not get asks first. Real server, build, pipeline (speech
 * synthesised here) and browser.
 */
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import type { CreditHistory, Job, Moment, Task } from '@moments/contract';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiCall } from './support/api';
import type { TestAccount } from './support/accounts';
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
  let account: TestAccount;
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

  /** In the clip editor: the end moved back a word at a time until the clip lasts 4 s at most. */
  async function trimToFewSeconds() {
    const edge = (name: string) =>
      page.getByRole('slider', { name }).getAttribute('aria-valuenow').then(Number);
    await page.getByRole('slider', { name: 'Clip end' }).focus();
    for (let round = 0; round < 100; round++) {
      if ((await edge('Clip end')) - (await edge('Clip start')) <= 4_000) return;
      for (let press = 0; press < 5; press++) await page.keyboard.press('ArrowLeft');
    }
    throw new Error('the clip could not be trimmed to 4 s');
  }

  beforeAll(async () => {
    stage = await startTalkStage(TALK, 'garden.mp4');
    apiCall = apiClient(stage.server.baseUrl, () => token);
    const signedIn = await signedInContext(stage.browser, stage.server.baseUrl);
    token = signedIn.token;
    account = signedIn.account;
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
    // A clip of a few seconds: the render that follows stays short.
    await trimToFewSeconds();
    await page.getByRole('button', { name: 'Export 1080p MP4' }).first().dblclick();
    await page.waitForURL(/\/job\/[^/]+$/);
    const jobs = await apiCall<Job[]>('GET', '/api/job/list');
    expect(jobs).toHaveLength(1);
    const keys = new Set(
      postsTo(/\/api\/job$/).map((request) => request.headers()['idempotency-key']),
    );
    expect(keys.size).toBe(1);
  }, 120_000);

  it("keeps the clip editor's settings through Back, a reload and another browser; Edit again opens an export's own", async () => {
    const moment = (
      await apiCall<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`)
    )[0]!;
    const editorPath = `/moment/${moment.id}/clip`;
    /** What the editor on `tab` shows: template, shape, quality, trim end and the clip's text. */
    const shown = async (tab: Page) => {
      await tab.getByRole('slider', { name: 'Clip end' }).waitFor();
      const checked = async (names: string[]) => {
        for (const name of names) {
          if (await tab.getByRole('radio', { name, exact: true }).first().isChecked()) return name;
        }
        return null;
      };
      return {
        template: await checked(['Karaoke', 'One word', 'Keyword colour']),
        aspect: await checked(['9:16', '1:1', '4:5', '16:9']),
        quality: await checked(['720p', '1080p']),
        end: await tab.getByRole('slider', { name: 'Clip end' }).getAttribute('aria-valuenow'),
        text: await tab.getByRole('textbox', { name: 'Transcript of the clip' }).inputValue(),
      };
    };
    const saved = (tab: Page) =>
      expect
        .poll(() => tab.getByTestId('draft-status').first().textContent(), { timeout: 20_000 })
        .toBe('Changes saved');
    const openFromMoments = async () => {
      await page
        .locator(`[data-testid="moment-card"][data-moment-id="${moment.id}"]`)
        .getByRole('link', { name: 'Edit clip' })
        .click();
      await page.waitForURL((url) => url.pathname === editorPath);
    };

    // An export made with Keyword colour, 1:1, 720p, trimmed to a few seconds (a short render).
    await page.goto(editorPath);
    await page.getByRole('radio', { name: 'Keyword colour' }).check();
    await page.getByText('1:1', { exact: true }).click();
    await page.getByText('720p', { exact: true }).click();
    await trimToFewSeconds();
    const exportedWith = await shown(page);
    expect(exportedWith).toMatchObject({
      template: 'Keyword colour',
      aspect: '1:1',
      quality: '720p',
    });
    await page.getByRole('button', { name: 'Export 720p MP4' }).first().click();
    await page.waitForURL(/\/job\/[^/]+$/);
    const jobPage = new URL(page.url()).pathname;

    // Several other settings, then the app's Back at once: the changes go with it.
    await page.goto(`/video/${task.id}/moments`);
    await openFromMoments();
    await page.getByRole('radio', { name: 'One word' }).check();
    await page.getByText('9:16', { exact: true }).click();
    await page.getByText('1080p', { exact: true }).click();
    await page.getByRole('slider', { name: 'Clip end' }).focus();
    for (let press = 0; press < 3; press++) await page.keyboard.press('ArrowRight');
    const box = page.getByRole('textbox', { name: 'Transcript of the clip' });
    await box.fill(`Tomatoes! ${await box.inputValue()}`);
    const edited = await shown(page);
    expect(edited).toMatchObject({ template: 'One word', aspect: '9:16', quality: '1080p' });
    expect(edited.end).not.toBe(exportedWith.end);
    expect(edited.text).toMatch(/^Tomatoes! /);
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/video/${task.id}/moments`);
    await openFromMoments();
    expect(await shown(page)).toEqual(edited);

    // A reload, and another browser signed in as the same user, open the clip as it was left.
    await page.reload();
    expect(await shown(page)).toEqual(edited);
    const elsewhere = await signedInContext(stage.browser, stage.server.baseUrl, { account });
    try {
      const other = await elsewhere.context.newPage();
      other.setDefaultTimeout(20_000);
      await other.goto(editorPath);
      expect(await shown(other)).toEqual(edited);
    } finally {
      await elsewhere.context.close();
    }
    // Edit again on the export opens exactly what it was made with, and keeps it as the draft.
    await page.goto(jobPage);
    await page.getByRole('link', { name: 'Edit again' }).click({ timeout: 180_000 });
    await page.waitForURL((url) => url.pathname === editorPath && !url.searchParams.has('job'));
    expect(await shown(page)).toEqual(exportedWith);
    await saved(page);
    await page.reload();
    expect(await shown(page)).toEqual(exportedWith);

    // The server unreachable for saves: leaving asks first, and staying keeps the changes.
    await page.route('**/api/highlight_moment/draft**', (route) =>
      route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByRole('radio', { name: 'Karaoke' }).check();
    await expect
      .poll(() => page.getByTestId('draft-status').first().textContent(), { timeout: 20_000 })
      .toBe('Changes not saved: trying again');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Leave without your latest changes?' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe(editorPath);
    expect((await shown(page)).template).toBe('Karaoke');
    // Back online: the retry saves it.
    await page.unroute('**/api/highlight_moment/draft**');
    await saved(page);
  }, 300_000);
});
