import fs from 'node:fs/promises';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import type { Moment, SearchVideosReply, Task } from '@moments/contract';
import { hasYtDlp } from '@moments/media/ingest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from './support/browser';
import type { RunningMomentsServer } from './support/server';
import { signedInContext } from './support/session';
import { apiClient, runLinkTask, type ApiCall } from './support/api';
import { startTalkStage, type TalkStage } from './support/talk';

// Acceptance of the home search: a real task (local link → download → transcript → moments) on
// speech synthesised here; its owner finds the video by a word of its title from the home box,
// and a logged-out visitor sees the moment the owner published on the home shelf, is asked to log
// in to search (/search/result needs a login), and the anonymous search API finds the
// published moment but never the private video.

/** Half a minute of a guide's talk around a short story. */
const TALK = `Good evening and welcome to the harbour walk. Tonight we start at the old pier and end at the lighthouse.
When I was a child my grandfather kept that lighthouse for thirty years.
One winter night a storm knocked out the power, and the lamp went dark.
He climbed the stairs with a candle in each hand and kept them burning until morning.
A fishing boat found its way home because of those two small flames.
That is why I still believe that one small light can save a whole crew.
Now please follow me, and mind the wet stones.`;

/**
 * In the video's title only: never spoken, so only the owner's own video can match it. The home
 * box gets two words: it reads a single dotless word as a link (parse_url turns it into https://word/).
 */
const TITLE_WORD = 'Quayside';
const VIDEO_TITLE = `${TITLE_WORD} walk, autumn edition`;

/** Set to a folder to keep screenshots of the pages for a visual check. */
const screenshotDir = process.env.MOMENTS_E2E_SCREENSHOTS;
async function screenshot(page: Page, name: string) {
  if (!screenshotDir) return;
  await fs.mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !hasYtDlp() && 'yt-dlp (run scripts/setup.sh)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/search: skipping, missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('home search', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  let stage: TalkStage;
  let owner: BrowserContext;
  let token: string;
  let task: Task;
  let shared: Moment;
  const contexts: BrowserContext[] = [];

  let apiCall: ApiCall;

  beforeAll(async () => {
    stage = await startTalkStage(TALK, 'harbour.mp4');
    server = stage.server;
    browser = stage.browser;
    apiCall = apiClient(server.baseUrl, () => token);
    const signedIn = await signedInContext(browser, server.baseUrl);
    owner = signedIn.context;
    token = signedIn.token;
    contexts.push(owner);

    task = await runLinkTask(apiCall, { url: stage.videoUrl, title: VIDEO_TITLE });
    expect(task.error_reason).toBeNull();
    const moments = await apiCall<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`);
    expect(moments.length).toBeGreaterThan(0);
    shared = moments[0]!;
    // Sharing alone makes an unlisted link; "Publish to Moments home" lists it.
    await apiCall('POST', `/api/highlight_moment/share?id=${shared.id}`, { publish: true });
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await stage?.close();
  });

  async function searchFromHome(page: Page, words: string) {
    await page.goto('/home');
    const box = page.getByRole('textbox', { name: 'Video link or search' });
    await box.fill(words);
    // The home box asks the server whether the text is a link first; then the button says Search.
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    await box.press('Enter');
    await page.waitForURL(/\/search\/result\?query=/);
  }

  it("finds the owner's video by a word of its title, from the home box", async () => {
    const page = await owner.newPage();
    page.setDefaultTimeout(15_000);
    await searchFromHome(page, `${TITLE_WORD.toLowerCase()} walk`);
    expect(new URL(page.url()).searchParams.get('query')).toBe(`${TITLE_WORD.toLowerCase()} walk`);

    const hit = page.locator(`[data-testid="search-hit"][data-id="${task.id}"]`);
    await expect.poll(() => hit.count()).toBe(1);
    expect(await hit.getAttribute('data-kind')).toBe('task');
    // The query word is marked in the title.
    expect(await hit.locator('mark').first().textContent()).toBe(TITLE_WORD);
    await screenshot(page, 'search-owner');
    await hit.click();
    await page.waitForURL(`**/video/${task.id}/moments`);
    await page.close();
  });

  it('answers a logged-out visitor on /home with the published moment, and no private video', async () => {
    const visitor = await browser.newContext({ baseURL: server.baseUrl, serviceWorkers: 'block' });
    contexts.push(visitor);
    const page = await visitor.newPage();
    page.setDefaultTimeout(15_000);

    // The home page's shelf of shared moments links to the moment's public page.
    await page.goto('/home');
    const card = page.locator(`[data-testid="shared-moment"][data-id="${shared.id}"]`);
    await card.waitFor();
    expect(await card.getAttribute('href')).toBe(`/home/moment/${shared.id}`);
    await screenshot(page, 'home-shared-moments');

    // A visitor searches from the home box and gets the answer on /home itself
    // (/search/result needs a login): published moments only, never the owner's private video.
    const word = shared.title
      .split(/[^\p{L}]+/u)
      .sort((a, b) => b.length - a.length)[0]!
      .toLowerCase();
    expect(word.length).toBeGreaterThan(2);
    const box = page.getByRole('textbox', { name: 'Video link or search' });
    await box.fill(`${word} ${TITLE_WORD}`);
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    await box.press('Enter');
    await page.waitForURL(/\/home\?query=/);
    const results = page.getByTestId('home-search');
    await results.locator(`[data-testid="search-hit"][data-id="${shared.id}"]`).waitFor();
    expect(await results.locator('[data-testid="search-hit"][data-kind="task"]').count()).toBe(0);
    await expect.poll(() => page.getByText('Showing shared moments.').count()).toBe(1);
    await screenshot(page, 'search-visitor-home');

    const privateTitle = await apiCall<SearchVideosReply>(
      'POST',
      '/api/p/v1/searchVideos',
      { query: `${TITLE_WORD} walk` },
      { auth: false },
    );
    expect(privateTitle.items.map((item) => item.kind)).not.toContain('task');

    // The API agrees: anonymous replies never carry the owner's task.
    const reply = await apiCall<SearchVideosReply>(
      'POST',
      '/api/p/v1/searchVideos',
      { query: word },
      { auth: false },
    );
    expect(reply.items.map((item) => item.kind)).not.toContain('task');
    expect(reply.items.map((item) => item.moment_id)).toContain(shared.id);
  });
});
