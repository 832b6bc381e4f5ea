/**
 * Credits in Chromium: the number shown before Start (viral moments, a question, captions) and
 * before Export is the number the ledger charges, to the tenth; a caption task the free balance
 * cannot cover is refused at start, and at Retry, with the credits dialog in the free
 * plan's words; Settings → Credits shows where the credits went, axe-clean on a desktop and a
 * phone. Real server, build, pipeline (speech synthesised here) and browser.
 */
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import type { CreditHistory, Task } from '@moments/contract';
import { hasYtDlp } from '@moments/media/ingest';
import { makeTestVideo } from '@moments/media/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from './support/accounts';
import { apiClient, type ApiCall } from './support/api';
import { seriousViolations } from './support/axe';
import { PHONE_VIEWPORT, hasChromium } from './support/browser';
import { signedInContext } from './support/session';
import { startTalkStage, type TalkStage } from './support/talk';

const TALK = `Good evening and welcome to the town hall about the new bicycle lanes.
The council voted last month to build three kilometres of protected lanes along the river road.
Construction starts in spring and should take about ten weeks.
Here is the part everyone asks about: parking. We keep every parking space on the east side.
On the west side, twelve spaces move around the corner to Mill Street.
Shop owners told us deliveries matter most, so loading zones stay where they are.
Thank you for coming, and please send your questions to the council office.`;

const DESKTOP_WIDE = { width: 1440, height: 900 };

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !hasYtDlp() && 'yt-dlp (run scripts/setup.sh)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/money: skipping, missing ${missing.join(', ')}`);

/** "Costs 4.5 credits · 60 credits left" → 45 (credit units, tenths of a credit). */
function shownUnits(text: string | null): number {
  const match = /^Costs (\d+(?:\.\d)?) credits?/.exec(text ?? '');
  if (!match) throw new Error(`no cost in "${text}"`);
  return Math.round(Number(match[1]) * 10);
}

describe.skipIf(missing.length > 0)('the cost shown is the cost charged, in Chromium', () => {
  let stage: TalkStage;
  let account: TestAccount;
  let token: string;
  let apiCall: ApiCall;
  let page: Page;
  const contexts: BrowserContext[] = [];
  const talkFile = () => path.join(stage.mediaDir, 'town-hall.mp4');

  /** What the ledger holds for a task or an export: its charges less its refunds. */
  async function ledgerCharge(work: { task_id: string } | { job_id: string }) {
    const history = await apiCall<CreditHistory>('GET', '/api/credit/history?page_size=100');
    const net = history.movements
      .filter((m) => (m.kind === 'charge' || m.kind === 'refund') && m.feature === 'CREDIT')
      .filter((m) => ('task_id' in work ? m.task_id === work.task_id : m.job_id === work.job_id))
      .reduce((sum, m) => sum + m.amount, 0);
    return net === 0 ? 0 : -net;
  }

  async function waitForTask(id: string, statuses: Task['status'][] = ['DONE']) {
    await expect
      .poll(
        async () => (await apiCall<Task>('GET', `/api/highlight_moment/task?id=${id}`)).status,
        {
          timeout: 240_000,
          interval: 1000,
        },
      )
      .toSatisfy((status: Task['status']) => statuses.includes(status));
  }

  /** Uploads `file` on the home page until its card (and the start form) shows. */
  async function uploadOnHome(file: string) {
    await page.goto('/home');
    await page.getByLabel('Upload a video').setInputFiles(file);
    await page.getByTestId('video-card').waitFor({ timeout: 60_000 });
  }

  /** Presses Start and returns the task the server started. */
  async function start(): Promise<Task> {
    const reply = page.waitForResponse(
      (r) => /\/(task|caption)\/start/.test(r.url()) && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Start' }).click();
    const body = (await (await reply).json()) as { data: Task };
    return body.data;
  }

  beforeAll(async () => {
    stage = await startTalkStage(TALK, 'town-hall.mp4');
    apiCall = apiClient(stage.server.baseUrl, () => token);
    const signedIn = await signedInContext(stage.browser, stage.server.baseUrl, {
      viewport: DESKTOP_WIDE,
    });
    account = signedIn.account;
    token = signedIn.token;
    contexts.push(signedIn.context);
    page = await signedIn.context.newPage();
    page.setDefaultTimeout(20_000);
    // 21 minutes: captions and summary cost 63 credits, more than the free plan's 60.
    await makeTestVideo(path.join(stage.mediaDir, 'long-meeting.mp4'), {
      width: 64,
      height: 48,
      fps: 1,
      durationSec: 21 * 60,
    });
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await stage?.close();
  });

  let viral: Task;
  let caption: Task;

  it('charges a viral task, then a question on the transcribed video, what each showed', async () => {
    await uploadOnHome(talkFile());
    const shownViral = shownUnits(await page.getByTestId('task-cost').textContent());
    viral = await start();
    await waitForTask(viral.id);
    expect(await ledgerCharge({ task_id: viral.id })).toBe(shownViral);

    // The Ask box prices a question on this transcribed video as the question only.
    await page.goto(`/video/${viral.id}/moments`);
    const questionCost = page.getByTestId('question-cost');
    await questionCost.waitFor();
    const shownQuestion = shownUnits(await questionCost.textContent());
    expect(shownQuestion).toBeLessThan(shownViral);
    await page.getByRole('textbox', { name: 'Search this video' }).fill('What about parking?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.waitForURL(
      (url) => /\/video\/[^/]+\/moments$/.test(url.pathname) && !url.pathname.includes(viral.id),
    );
    const questionId = decodeURIComponent(page.url().split('/video/')[1]!.split('/')[0]!);
    await waitForTask(questionId, ['DONE', 'ERROR']);
    expect(await ledgerCharge({ task_id: questionId })).toBe(shownQuestion);
  }, 400_000);

  it('charges a caption task and its whole-video export what each showed', async () => {
    await uploadOnHome(talkFile());
    await page
      .getByRole('form', { name: 'Start a task' })
      .getByText('Animated captions', { exact: true })
      .click();
    const shown = shownUnits(await page.getByTestId('task-cost').textContent());
    caption = await start();
    expect(caption.kind).toBe('caption');
    await waitForTask(caption.id);
    expect(await ledgerCharge({ task_id: caption.id })).toBe(shown);

    await page.goto(`/video/${caption.id}/captions`);
    const exportCost = page.getByTestId('export-cost');
    await exportCost.waitFor({ timeout: 60_000 });
    const shownExport = shownUnits(await exportCost.textContent());
    await page.getByRole('button', { name: 'Export video' }).click();
    await page.waitForURL(/\/job\/[^/]+$/);
    const jobId = decodeURIComponent(page.url().split('/job/')[1]!);
    expect(await ledgerCharge({ job_id: jobId })).toBe(shownExport);
  }, 400_000);

  /** The credits dialog, in the free plan's words, with its Upgrade action. */
  async function expectCreditsDialog() {
    const dialog = page.getByRole('dialog', { name: "You're out of credits" });
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain('You have used the credits included in the free plan');
    expect(text).not.toContain('export limit');
    expect(await dialog.getByRole('button', { name: 'Upgrade' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }

  it('refuses at start, and at Retry, a caption task the free balance cannot cover', async () => {
    const before = await apiCall<Task[]>('GET', '/api/highlight_moment/task/list');
    await uploadOnHome(path.join(stage.mediaDir, 'long-meeting.mp4'));
    await page
      .getByRole('form', { name: 'Start a task' })
      .getByText('Animated captions', { exact: true })
      .click();
    await expect
      .poll(() => page.getByTestId('task-cost').textContent())
      .toMatch(/^Costs 63 credits · .* credits left: not enough for this video$/);
    const refused = page.waitForResponse((r) => /\/caption\/start/.test(r.url()));
    await page.getByRole('button', { name: 'Start' }).click();
    const reply = await refused;
    expect(reply.status()).toBe(402);
    expect(((await reply.json()) as { code: string }).code).toBe('BALANCE_NOT_ENOUGH');
    await expectCreditsDialog();
    // Nothing was stored or charged.
    const after = await apiCall<Task[]>('GET', '/api/highlight_moment/task/list');
    expect(after.length).toBe(before.length);

    // A link whose page does not say how long it is: accepted, then refused once probed (the
    // download shows the length); its Retry is refused at start, before any new download.
    const linked = await apiCall<Task>(
      'POST',
      '/api/tool-task/v2/caption/start?url_source=direct&source_lang=en&caption_display=source',
      { url: `${new URL(stage.videoUrl).origin}/long-meeting.mp4`, title: 'Long meeting' },
    );
    await waitForTask(linked.id, ['ERROR']);
    expect(await ledgerCharge({ task_id: linked.id })).toBe(0);
    await page.goto('/library/videoTasks');
    const row = page.locator(`[data-testid="task-row"]`, { hasText: 'Long meeting' });
    await row.waitFor();
    const retried = page.waitForResponse((r) => /\/task\/retry/.test(r.url()));
    await row.getByRole('button', { name: /^Retry/ }).click();
    const retryReply = await retried;
    expect(retryReply.status()).toBe(402);
    expect(((await retryReply.json()) as { code: string }).code).toBe('BALANCE_NOT_ENOUGH');
    await expectCreditsDialog();
    const task = await apiCall<Task>('GET', `/api/highlight_moment/task?id=${linked.id}`);
    expect(task.status).toBe('ERROR');
  }, 400_000);

  it('shows every movement in Settings → Credits, axe-clean at 1440x900 and 390x844', async () => {
    const phone = await signedInContext(stage.browser, stage.server.baseUrl, {
      account,
      viewport: PHONE_VIEWPORT,
    });
    contexts.push(phone.context);
    const phonePage = await phone.context.newPage();
    phonePage.setDefaultTimeout(20_000);
    for (const [label, view] of [
      ['desktop', page],
      ['phone', phonePage],
    ] as const) {
      await view.goto('/settings/credits');
      const table = view.getByTestId('credit-history');
      await table.waitFor();
      for (const reason of ['Viral moments', 'Question', 'Caption task', 'Caption video export']) {
        await expect.poll(() => table.textContent(), { message: label }).toContain(reason);
      }
      const balances = (await view.getByTestId('credit-balances').textContent()) ?? '';
      expect(balances, label).toContain('Plan credits');
      expect(await seriousViolations(view), label).toEqual([]);
      const overflow = await view.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${label}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    }
  }, 120_000);
});
