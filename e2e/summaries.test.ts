import { fasterWhisperAvailability } from '@moments/ai/asr';
import { endsOnFunctionWord, nounPhrases } from '@moments/ai/language';
import type { Moment, SummaryView, Task } from '@moments/contract';
import { formatDuration } from '@moments/domain/format';
import { hasYtDlp } from '@moments/media/ingest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type TestAccount } from './support/accounts';
import { DESKTOP_VIEWPORT, hasChromium } from './support/browser';
import type { RunningMomentsServer } from './support/server';
import { apiClient, runLinkTask, type ApiCall } from './support/api';
import { startTalkStage, type TalkStage } from './support/talk';

// Acceptance of summaries, notes and shares: a real task on a spoken talk makes its
// summary; Chromium opens it, seeks by chapter, turns it into a note, edits it (autosave), shares
// it, reads it logged out, and unshares it (the link then answers 404).

/** Three clearly different subjects, one after the other. */
const TALK = `Honey bees live together in a hive ruled by a single queen. Worker bees fly from flower to flower collecting nectar and pollen.
Back at the hive they turn the nectar into honey and store it in wax cells. Beekeepers use smoke to keep the bees calm while they check the honey frames.
A volcano forms where hot magma rises from deep inside the earth. When the pressure builds up, the volcano erupts and throws lava, ash and gas into the sky.
Lava flows can cover whole valleys in black rock. Scientists measure small earthquakes around the crater to warn the people living near the mountain.
To bake bread at home you need flour, water, salt and yeast. Mix them into a dough and knead it for ten minutes until it feels smooth.
Let the dough rise in a warm place for about an hour. Then bake the loaf in a hot oven until the crust turns golden brown.`;

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !hasYtDlp() && 'yt-dlp (run scripts/setup.sh)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/summaries: skipping, missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('summaries, notes and shares', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  let stage: TalkStage;
  let account: TestAccount;
  let token: string;
  let task: Task;
  let apiCall: ApiCall;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stage = await startTalkStage(TALK, 'three-topics.mp4');
    server = stage.server;
    browser = stage.browser;
    apiCall = apiClient(server.baseUrl, () => token);
    account = newAccount('summaries');
    const signup = await fetch(`${server.baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    token = ((await signup.json()) as { data: { token: string } }).data.token;
    task = await runLinkTask(apiCall, { url: stage.videoUrl, title: 'Bees, volcanoes and bread' });
    expect(task.error_reason).toBeNull();
    expect(task.status).toBe('DONE');
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await stage?.close();
  });

  async function openPage(loggedIn: boolean): Promise<Page> {
    const context = await browser.newContext({
      viewport: DESKTOP_VIEWPORT,
      baseURL: server.baseUrl,
      serviceWorkers: 'block',
    });
    contexts.push(context);
    if (loggedIn) {
      const login = await context.request.post('/api/auth/login', {
        data: { email: account.email, password: account.password },
      });
      expect(login.status()).toBe(200);
      await context.addInitScript(() => {
        localStorage.setItem('moments.welcomeOfferSeen', '1');
        localStorage.setItem('moments.communityChatClosed', '1');
        localStorage.setItem('moments.updateBannerDismissed', '1');
      });
    }
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  }

  it('opens the summary, seeks by chapter, makes and edits a note, shares it and unshares it', async () => {
    const summary = await apiCall<SummaryView>('GET', `/api/summary?task_id=${task.id}`);
    expect(summary.chapters.length).toBeGreaterThanOrEqual(2);

    const page = await openPage(true);
    await page.goto(`/video/${task.id}/summary`);
    await page.getByRole('heading', { name: 'Summary', level: 1 }).waitFor();
    expect(await page.getByTestId('summary-overview').textContent()).toBe(summary.overview);

    // Clicking a chapter seeks the video to its start.
    const video = page.getByTestId('summary-video');
    await expect
      .poll(() => video.evaluate((element) => (element as HTMLVideoElement).readyState))
      .toBeGreaterThanOrEqual(1);
    const chapter = summary.chapters[summary.chapters.length - 1]!;
    await page.getByTestId('summary-chapter').last().click();
    await expect
      .poll(async () =>
        Math.abs(
          (await video.evaluate((element) => (element as HTMLVideoElement).currentTime)) * 1000 -
            chapter.start,
        ),
      )
      .toBeLessThan(1500);
    expect(await page.getByTestId('summary-chapter').last().getAttribute('aria-current')).toBe(
      'true',
    );

    // A note from the summary keeps timestamp links into the video.
    await page.getByRole('button', { name: 'Create note' }).click();
    await page.waitForURL(/\/note\/detail\//);
    const noteId = new URL(page.url()).pathname.split('/').pop()!;
    const editor = page.getByRole('textbox', { name: 'Note text' });
    await editor.waitFor();
    const link = editor.locator(`a[href^="/video/${task.id}/summary?t="]`).first();
    expect(await link.count()).toBe(1);

    // Edit: autosave stores it without a save button.
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('My own thought about pollination.');
    await page.getByLabel('Title').fill('Bees and lava');
    await expect.poll(() => page.getByTestId('note-save-status').textContent()).toBe('Saved');
    await page.reload();
    await page.getByRole('textbox', { name: 'Note text' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Note text' }).textContent()).toContain(
      'My own thought about pollination.',
    );
    expect(await page.getByLabel('Title').inputValue()).toBe('Bees and lava');

    // The notes tab finds it.
    await page.goto('/library/notes');
    await page.getByLabel('Search notes').fill('pollination');
    await expect.poll(() => page.getByTestId('note-card').count()).toBe(1);
    await page.getByTestId('note-card').click();
    await page.waitForURL(`**/note/detail/${noteId}`);

    // Share: an unlisted link that a logged-out visitor can read, with a link preview.
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this note' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const sharedLink = await dialog.getByTestId('share-link').inputValue();
    expect(sharedLink).toMatch(new RegExp(`^${server.baseUrl}/s/[A-Za-z0-9_-]+\\?note=1$`));
    const html = await (await fetch(sharedLink)).text();
    expect(html).toContain('<meta property="og:title" content="Bees and lava" />');

    const visitor = await openPage(false);
    await visitor.goto(sharedLink);
    await visitor.getByRole('heading', { name: 'Bees and lava', level: 1 }).waitFor();
    expect(await visitor.getByTestId('shared-note').textContent()).toContain(
      'My own thought about pollination.',
    );

    // Unshare: the link is revoked.
    await dialog.getByRole('button', { name: 'Stop sharing' }).click();
    await dialog.getByRole('button', { name: 'Create link' }).waitFor();
    expect((await fetch(sharedLink)).status).toBe(404);
    await visitor.reload();
    await visitor.getByRole('heading', { name: 'This link does not work' }).waitFor();
  }, 120_000);

  // What a user reads first. Chapter time badges are whole ("0:42", not a clipped "0."),
  // chapter titles are noun phrases that end on no function word, and moment titles are the
  // clip's own words, whole, at most 60 characters, with no hyphenated word split apart.
  it('shows whole chapter time badges and readable titles on the summary and moments pages', async () => {
    const summary = await apiCall<SummaryView>('GET', `/api/summary?task_id=${task.id}`);
    const page = await openPage(true);
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto(`/video/${task.id}/summary`);
    await page.getByRole('heading', { name: 'Chapters' }).waitFor();
    const badges = page.getByTestId('summary-chapter-time');
    await expect.poll(() => badges.count()).toBe(summary.chapters.length);
    for (const [index, chapter] of summary.chapters.entries()) {
      const badge = badges.nth(index);
      expect(await badge.innerText()).toBe(formatDuration(chapter.start));
      // Nothing of the badge's text is cut off by its box.
      const clipped = await badge.evaluate((element) =>
        [element, ...Array.from(element.querySelectorAll('*'))].some(
          (node) => (node as HTMLElement).scrollWidth > (node as HTMLElement).clientWidth + 1,
        ),
      );
      expect(clipped, `badge "${formatDuration(chapter.start)}" is clipped`).toBe(false);
      const title = await page.getByTestId('summary-chapter-title').nth(index).innerText();
      expect(title).toBe(chapter.title);
      expect(nounPhrases(title).length, `"${title}" names a topic`).toBeGreaterThan(0);
      expect(endsOnFunctionWord(title), `"${title}" ends on a function word`).toBe(false);
    }

    const moments = await apiCall<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`);
    expect(moments.length).toBeGreaterThan(0);
    await page.goto(`/video/${task.id}/moments`);
    const titles = page.getByTestId('moment-title');
    await expect.poll(() => titles.count()).toBe(moments.length);
    const spans = page.getByTestId('moment-span');
    for (const [index, moment] of moments.entries()) {
      const shown = await titles.nth(index).innerText();
      expect(shown).toBe(moment.title);
      expect(shown.length).toBeLessThanOrEqual(60);
      expect(shown).not.toMatch(/\w -\w|\w- \w/);
      // The title starts with a whole word the speaker said in this clip.
      const first = shown.toLowerCase().match(/[a-z0-9']+/)![0];
      expect(moment.transcript.toLowerCase().split(/[^a-z0-9']+/)).toContain(first);
      expect(await spans.nth(index).innerText()).toContain(formatDuration(moment.start));
    }
  }, 60_000);

  it('shares the summary as a public page with Open Graph tags', async () => {
    const page = await openPage(true);
    await page.goto(`/video/${task.id}/summary`);
    await page.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this summary' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const sharedLink = await dialog.getByTestId('share-link').inputValue();
    const html = await (await fetch(sharedLink)).text();
    expect(html).toContain(
      '<meta property="og:title" content="Summary: Bees, volcanoes and bread" />',
    );
    expect(html).toMatch(/<meta property="og:description" content="[^"]*\b(bees?|honey)\b/i);
    const visitor = await openPage(false);
    await visitor.goto(sharedLink);
    await visitor.getByRole('heading', { name: 'Bees, volcanoes and bread', level: 1 }).waitFor();
    expect(await visitor.getByRole('heading', { name: 'Chapters' }).count()).toBe(1);
    // The legacy /sharesummary?id= link lands on the same page.
    const shareId = new URL(sharedLink).pathname.split('/').pop()!;
    await visitor.goto(`/home/sharesummary?id=${shareId}`);
    await visitor.waitForURL(`**/s/${shareId}`);
    await visitor.getByRole('heading', { name: 'Bees, volcanoes and bread', level: 1 }).waitFor();
  }, 60_000);
});
