import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { hasYtDlp } from '@moments/media/ingest';
import {
  makeTestVideo,
  serveFiles,
  sharedMediaDir,
  type ServedFiles,
} from '@moments/media/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './support/browser';
import { startMomentsServer, type RunningMomentsServer } from './support/server';
import { signedInContext } from './support/session';
import { ensureWebBuild } from './support/webBuild';

// Ingest acceptance in Chromium: a link or an upload on /home becomes a task whose progress is
// pushed live to /library/videoTasks; bad links and files say what is wrong next to the input.
const media = sharedMediaDir();
const asr = fasterWhisperAvailability();
const missingForTasks = [
  !media && 'the shared test media (../shared/media)',
  !hasYtDlp() && 'yt-dlp (run scripts/setup.sh)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (!hasChromium) console.warn('e2e/ingest: /usr/bin/chromium is missing, skipping');
if (missingForTasks.length) {
  console.warn(`e2e/ingest: skipping the link-to-DONE test: missing ${missingForTasks.join(', ')}`);
}

describe.skipIf(!hasChromium)('video ingest from the home page', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  let served: ServedFiles;
  let dir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-e2e-ingest-'));
    const made: Array<Promise<unknown>> = [
      makeTestVideo(path.join(dir, 'tone.mp4'), { durationSec: 2 }),
      fs.writeFile(path.join(dir, 'notes.txt'), 'not a video\n'),
      fs.writeFile(path.join(dir, 'fake.mp4'), 'this is plain text, not a video\n'.repeat(50)),
    ];
    if (media) {
      made.push(makeTestVideo(path.join(dir, 'jfk.mp4'), { audio: path.join(media, 'jfk.flac') }));
    }
    await Promise.all([ensureWebBuild(), ...made]);
    [served, server, browser] = await Promise.all([
      serveFiles(dir),
      // Test media is served from loopback, which the SSRF guard refuses unless allowed.
      startMomentsServer({ MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1' }),
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

  async function openHome(query = ''): Promise<Page> {
    const { context } = await signedInContext(browser, server.baseUrl);
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`/home${query}`);
    return page;
  }

  const linkBox = (page: Page) => page.getByRole('textbox', { name: 'Video link or search' });

  it.skipIf(missingForTasks.length > 0)(
    'turns a pasted link into a task whose live progress ends DONE without a reload',
    async () => {
      const page = await openHome();
      // Published "just now": the served file's time, set here (the setup before can take a minute).
      await fs.utimes(path.join(dir, 'jfk.mp4'), new Date(), new Date());
      await linkBox(page).fill(`${served.url}/jfk.mp4`);
      const card = page.getByTestId('video-card');
      await card.waitFor();
      // The card shows the link's real metadata: its name, the source and the publish time.
      expect(await page.getByTestId('video-title').textContent()).toBe('jfk');
      expect(await card.textContent()).toContain('Web link');
      expect(await page.getByTestId('video-facts').textContent()).toBe('just now');

      // A marker that only survives if the page is never reloaded.
      await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
      await page.getByRole('button', { name: 'Start' }).click();
      await page.waitForURL('**/library/videoTasks');
      const row = page.getByTestId('task-row').first();
      await row.waitFor();

      const seenProgress = new Set<number>();
      const deadline = Date.now() + 150_000;
      let status = await row.getAttribute('data-status');
      while (status !== 'DONE' && status !== 'ERROR' && Date.now() < deadline) {
        const value = await row
          .getByTestId('task-progress')
          .getAttribute('data-value', { timeout: 500 })
          .catch(() => null);
        if (value !== null) seenProgress.add(Number(value));
        await page.waitForTimeout(100);
        status = await row.getAttribute('data-status');
      }
      expect(await row.getByTestId('task-error').count()).toBe(0);
      expect(status).toBe('DONE');
      // Pushed updates moved the bar while the task ran (no polling, no reload).
      expect(seenProgress.size).toBeGreaterThanOrEqual(2);
      expect(
        await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload),
      ).toBe(true);
      expect(await row.getByTestId('task-status').textContent()).toBe('Done');
      const taskId = await row.getAttribute('data-task-id');
      expect(await row.getByRole('link', { name: 'View moments' }).getAttribute('href')).toBe(
        `/video/${taskId}/moments`,
      );
      expect(await row.getByRole('button', { name: 'Run again' }).isEnabled()).toBe(true);
    },
    200_000,
  );

  it('fetches the metadata of the `url` query parameter at once', async () => {
    const link = `${served.url}/tone.mp4`;
    const page = await openHome(`?url=${encodeURIComponent(link)}&auto_parse_video=1`);
    await page.getByTestId('video-card').waitFor();
    expect(await linkBox(page).inputValue()).toBe(link);
    expect(await page.getByTestId('video-title').textContent()).toBe('tone');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('uploads a video with a progress bar that reaches 100% and starts its task', async () => {
    const page = await openHome();
    await page.getByLabel('Upload a video').setInputFiles(path.join(dir, 'tone.mp4'));
    const progress = page.getByTestId('upload-progress');
    await progress.getByText('Uploaded · 100%').waitFor();
    expect(
      await page
        .getByRole('progressbar', { name: 'Upload progress' })
        .getAttribute('aria-valuenow'),
    ).toBe('100');
    const card = page.getByTestId('video-card');
    await card.waitFor();
    expect(await card.textContent()).toContain('tone');
    expect(await card.textContent()).toContain('Upload');

    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL('**/library/videoTasks');
    const row = page.getByTestId('task-row').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('tone');
    expect(['START', 'IN_PROGRESS', 'DONE']).toContain(await row.getAttribute('data-status'));

    // Delete asks first, then removes the row.
    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this video task?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByText('No video tasks yet').waitFor();
  });

  it('explains a private-address link, a text file and a fake video next to the input', async () => {
    const page = await openHome();
    await linkBox(page).fill('http://10.0.0.5/v.mp4');
    const linkError = page.getByTestId('link-error');
    await linkError.waitFor();
    expect(await linkError.textContent()).toMatch(/private|cannot be fetched/i);
    expect(await page.getByTestId('video-card').count()).toBe(0);

    // Refused in the browser before any byte is sent.
    await page.getByLabel('Upload a video').setInputFiles(path.join(dir, 'notes.txt'));
    const uploadError = page.getByRole('alert').filter({ hasText: 'Upload failed' });
    await uploadError.waitFor();
    expect(await uploadError.textContent()).toContain('“notes.txt” is not a supported video');

    // An .mp4 that is really text passes the browser check; the server's probe refuses it.
    await page.getByLabel('Upload a video').setInputFiles(path.join(dir, 'fake.mp4'));
    await uploadError.getByText('not an mp4, mov or webm video').waitFor();
    expect(await page.getByTestId('video-card').count()).toBe(0);
  });
});
