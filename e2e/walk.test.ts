import fs from 'node:fs/promises';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { STOMP_ENDPOINT, type Job, type Moment, type Task, type UserInfo } from '@moments/contract';
import { makeTestVideo } from '@moments/media/testing';
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawKeysIn, t } from '../apps/web/src/messages/catalogue';
import { newAccount, type TestAccount } from './support/accounts';
import { apiClient, type ApiCall } from './support/api';
import { DESKTOP_VIEWPORT, PHONE_VIEWPORT, hasChromium } from './support/browser';
import { REPO_ROOT } from './support/paths';
import { signedInContext } from './support/session';
import { startTalkStage, type TalkStage } from './support/talk';

// The product as a user walks it, on a desktop (1280x800) and a phone (390x844):
// thumbnails of an upload in the library, its moments and search; an exported clip shared with a
// stranger, who plays it and whose link dies when revoked; a caption task's mail and route; one
// pop-up per visit; the Tools menu; the phone layout; the small things. Screenshots of every state
// go to test-results/screens/ for review.

const TALK = `Good evening and welcome to the garden hour. Tonight we plant tomatoes on a balcony.
Pick a deep pot, fill it with good soil and water it well before you plant anything.
The secret is sunlight: six hours a day turns a weak seedling into a heavy plant.
Feed it every week in summer, and pinch out the side shoots so the fruit gets the energy.
By August you will pick more tomatoes than you can eat. Thanks for gardening with me.`;

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/walk: skipping, missing ${missing.join(', ')}`);

const SCREENS_DIR = path.join(REPO_ROOT, 'test-results', 'screens');
const VIEWPORTS = [
  ['desktop', DESKTOP_VIEWPORT],
  ['phone', PHONE_VIEWPORT],
] as const;

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENS_DIR, `walk-${name}.png`), fullPage: true });
}

/** Mean brightness (0-255) and natural size of a loaded <img>, read in the page. */
async function pictureOf(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate(async (element) => {
      const img = element as HTMLImageElement;
      if (!img.complete) await new Promise((resolve) => img.addEventListener('load', resolve));
      const canvas = document.createElement('canvas');
      canvas.width = 32;
      canvas.height = 18;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0, 32, 18);
      const pixels = context.getImageData(0, 0, 32, 18).data;
      let sum = 0;
      for (let i = 0; i < pixels.length; i += 4)
        sum += (pixels[i]! + pixels[i + 1]! + pixels[i + 2]!) / 3;
      return {
        src: img.getAttribute('src') ?? '',
        width: img.naturalWidth,
        brightness: sum / (pixels.length / 4),
      };
    });
}

describe.skipIf(missing.length > 0)('the product as a user walks it', () => {
  let stage: TalkStage;
  let browser: Browser;
  let baseUrl: string;
  let account: TestAccount;
  let token: string;
  let call: ApiCall;
  let task: Task;
  let captionTask: Task;
  let moment: Moment;
  let job: Job;
  const contexts: BrowserContext[] = [];

  async function waitTask(id: string): Promise<Task> {
    for (;;) {
      const current = await call<Task>('GET', `/api/highlight_moment/task?id=${id}`);
      if (current.status === 'DONE' || current.status === 'ERROR') return current;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  beforeAll(async () => {
    await fs.mkdir(SCREENS_DIR, { recursive: true });
    stage = await startTalkStage(TALK, 'garden-hour.mp4');
    browser = stage.browser;
    baseUrl = stage.server.baseUrl;
    call = apiClient(baseUrl, () => token);
    account = newAccount('walker');
    const signup = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    token = ((await signup.json()) as { data: { token: string } }).data.token;

    // An upload that opens on three seconds of black: its thumbnail must not be that.
    const file = path.join(stage.mediaDir, 'balcony-tomatoes.mp4');
    await makeTestVideo(file, { audio: path.join(stage.mediaDir, 'talk.wav'), blackIntroSec: 3 });
    const form = new FormData();
    form.append('file', new Blob([await fs.readFile(file)]), 'balcony-tomatoes.mp4');
    const uploaded = await fetch(`${baseUrl}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const video = ((await uploaded.json()) as { data: unknown }).data;
    const start = (query: string) =>
      call<Task>(
        'POST',
        `/api/highlight_moment/task/start?url_source=upload&source_lang=en${query}`,
        video,
      );
    task = await waitTask((await start('&caption_display=source')).id);
    expect(task.status, task.error_reason ?? '').toBe('DONE');
    // No browser of the user is connected yet: the finished caption task is mailed.
    captionTask = await waitTask(
      (
        await call<Task>(
          'POST',
          '/api/tool-task/v2/caption/start?url_source=upload&source_lang=en&caption_display=source',
          video,
        )
      ).id,
    );
    expect(captionTask.status, captionTask.error_reason ?? '').toBe('DONE');
    moment = (await call<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`))[0]!;
    const created = await call<Job>('POST', '/api/job', {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: moment.id,
      options: { aspect: '9:16', quality: '720p' },
    });
    for (;;) {
      job = await call<Job>('GET', `/api/job/${created.job_id}`);
      if (job.status !== 'IN_PROGRESS') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(job.status, job.error_reason ?? '').toBe('DONE');
  }, 420_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await stage?.close();
  });

  async function signedIn(viewport: { width: number; height: number }) {
    const session = await signedInContext(browser, baseUrl, { account, viewport });
    contexts.push(session.context);
    const page = await session.context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  for (const [label, viewport] of VIEWPORTS) {
    it(`shows the upload's real thumbnail in the library, its moments and search (${label})`, async () => {
      const page = await signedIn(viewport);
      await page.goto('/library/videoTasks');
      const card = `[data-task-id="${task.id}"] img[data-testid="thumbnail"]`;
      const library = await pictureOf(page, card);
      expect(library.src).toBe(`/api/thumbnail/task/${task.id}`);
      expect(library.width).toBeGreaterThan(0);
      // Past the black opening: a picture with something in it.
      expect(library.brightness).toBeGreaterThan(30);
      await screenshot(page, `${label}-library-thumbnail`);

      await page.goto(`/video/${task.id}/moments`);
      const momentPicture = await pictureOf(
        page,
        `[data-testid="moment-card"][data-moment-id="${moment.id}"] img[data-testid="thumbnail"]`,
      );
      expect(momentPicture.src).toBe(`/api/thumbnail/moment/${moment.id}`);
      expect(momentPicture.width).toBeGreaterThan(0);
      await screenshot(page, `${label}-moments-thumbnails`);

      await page.goto('/search/result?query=tomatoes');
      const hit = await pictureOf(page, 'img[data-testid="thumbnail"]');
      expect(hit.src).toMatch(/^\/api\/thumbnail\/(task|moment)\//);
      expect(hit.width).toBeGreaterThan(0);
      await screenshot(page, `${label}-search-thumbnails`);
      // What the page shows is the app's own picture: no image from any other host loaded.
      const foreign = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => /\.(jpe?g|png|webp)|thumbnail/i.test(name))
          .filter((name) => !name.startsWith(location.origin)),
      );
      expect(foreign).toEqual([]);
    });
  }

  it("leads a caption task's mail and moments route to its captions page", async () => {
    const outbox = path.join(stage.server.dataDir, 'outbox');
    const mails = await Promise.all(
      (await fs.readdir(outbox)).map(async (name) =>
        JSON.parse(await fs.readFile(path.join(outbox, name), 'utf8')),
      ),
    );
    const captionMail = mails.find(
      (mail: { to: string; subject: string }) =>
        mail.to === account.email && mail.subject.startsWith('Your captions are ready'),
    ) as { text: string; html: string };
    expect(captionMail, 'the caption task was mailed').toBeDefined();
    expect(captionMail.text).toContain(`${baseUrl}/video/${captionTask.id}/captions`);
    expect(captionMail.html).toContain(`href="${baseUrl}/video/${captionTask.id}/captions"`);

    for (const [label, viewport] of VIEWPORTS) {
      const page = await signedIn(viewport);
      await page.goto(`/video/${captionTask.id}/moments`);
      await page.waitForURL(new RegExp(`/video/${captionTask.id}/captions$`));
      // The transcript rows wrap: the longest line is shown whole, over several rows.
      const rows = page.getByTestId('transcript-list').getByRole('textbox');
      await rows.first().waitFor();
      const longest = await rows.evaluateAll(
        (boxes) =>
          boxes
            .map((box) => box as HTMLTextAreaElement)
            .sort((a, b) => b.value.length - a.value.length)
            .map((box) => ({
              length: box.value.length,
              cut: box.scrollHeight > box.clientHeight + 1,
              height: box.clientHeight,
            }))[0]!,
      );
      expect(longest.length).toBeGreaterThan(60);
      expect(longest.cut).toBe(false);
      expect(longest.height).toBeGreaterThan(40);
      await screenshot(page, `${label}-caption-task-route`);
    }
  });

  it('shares an exported clip: a stranger plays it and sees its preview tags; revoked, it is gone', async () => {
    const owner = await signedIn(DESKTOP_VIEWPORT);
    // The page's realtime connection passes through the test, which can drop it later.
    const sockets: WebSocketRoute[] = [];
    await owner.routeWebSocket(`**${STOMP_ENDPOINT}`, (socket) => {
      socket.connectToServer();
      sockets.push(socket);
    });
    // The player learns the clip's size only when its poster or its file answers; both held back
    // here, the buttons under it must not move when they do (a click sent then would land on the
    // video).
    const heldPaths = [new URL(job.file_url!, baseUrl).pathname, job.poster_url!];
    let releaseFile!: () => void;
    const fileHeld = new Promise<void>((resolve) => (releaseFile = resolve));
    await owner.route(
      (url) => heldPaths.includes(url.pathname),
      async (route) => {
        await fileHeld;
        await route.continue();
      },
    );
    await owner.goto(`/job/${job.job_id}`);
    const shareButton = owner.getByRole('button', { name: 'Share', exact: true });
    const before = await shareButton.boundingBox();
    releaseFile();
    await owner
      .getByLabel(t('a11y.exportedVideo'))
      .evaluate(
        (video: HTMLVideoElement) =>
          video.readyState >= 1 ||
          new Promise((resolve) =>
            video.addEventListener('loadedmetadata', resolve, { once: true }),
          ),
      );
    expect(await shareButton.boundingBox()).toEqual(before);
    await shareButton.click();
    await owner.getByRole('button', { name: t('clip.share.start') }).click();
    const linkBox = owner.getByRole('textbox', { name: t('clip.share.link') });
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(new RegExp(`^${baseUrl}/s/[A-Za-z0-9_-]+\\?clip=1$`));
    await screenshot(owner, 'desktop-clip-share');

    // The link's preview, as a site that unfurls it reads the page.
    const html = await (await fetch(link)).text();
    const tag = (property: string) =>
      new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1];
    expect(tag('og:title')).toBe(job.title);
    expect(tag('og:video')).toMatch(new RegExp(`^${baseUrl}/api/share/.+/clip\\.mp4$`));
    expect(tag('og:image')).toBe(`${baseUrl}/api/thumbnail/job/${job.job_id}`);
    expect(Number(tag('video:duration'))).toBeGreaterThan(0);

    for (const [label, viewport] of VIEWPORTS) {
      // A stranger: no account, no cookies.
      const strangerContext = await browser.newContext({ viewport, serviceWorkers: 'block' });
      contexts.push(strangerContext);
      const stranger = await strangerContext.newPage();
      await stranger.goto(link);
      const player = stranger.getByTestId('shared-clip-video');
      await player.waitFor();
      const played = await player.evaluate(async (element) => {
        const video = element as HTMLVideoElement;
        video.muted = true;
        await video.play();
        return { width: video.videoWidth, poster: video.poster };
      });
      // It plays on (a busy machine may take a while to buffer and decode the first frames).
      await expect
        .poll(() => player.evaluate((element) => (element as HTMLVideoElement).currentTime))
        .toBeGreaterThan(0.3);
      expect(played.width).toBeGreaterThan(0);
      expect(played.poster).toContain(`/api/thumbnail/job/${job.job_id}`);
      await screenshot(stranger, `${label}-shared-clip`);
    }

    // The realtime connection drops (a network blip) and the refresh that follows its reconnect
    // fails: the owner's page stays as it was, share panel open, instead of an error.
    let refreshFailed = false;
    await owner.route(
      `**/api/job/${job.job_id}`,
      async (route) => {
        refreshFailed = true;
        await route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
      },
      { times: 1 },
    );
    expect(sockets.length).toBeGreaterThan(0);
    for (const socket of sockets) await socket.close();
    await expect.poll(() => refreshFailed, { timeout: 20_000 }).toBe(true);
    await owner.waitForTimeout(500);
    // What the page shows if the panel is gone (this failed once in a full run, never alone).
    const shown = async () =>
      (await owner.getByRole('textbox', { name: t('clip.share.link') }).isVisible()) ||
      (await owner.locator('body').ariaSnapshot());
    expect(await shown()).toBe(true);
    await owner.getByRole('button', { name: t('clip.share.stop') }).click();
    await owner.getByRole('button', { name: t('clip.share.start') }).waitFor();
    expect((await fetch(link)).status).toBe(404);
    const gone = await browser.newContext({ serviceWorkers: 'block' });
    contexts.push(gone);
    const visitor = await gone.newPage();
    await visitor.goto(link);
    await visitor.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await screenshot(visitor, 'desktop-shared-clip-revoked');
  });

  for (const [label, viewport] of VIEWPORTS) {
    it(`shows one pop-up per visit, in the spec's order, each naming what it is about (${label})`, async () => {
      const fresh = newAccount(`visits-${label}`);
      await fetch(`${baseUrl}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fresh),
      });
      const context = await browser.newContext({
        baseURL: baseUrl,
        viewport,
        serviceWorkers: 'block',
      });
      contexts.push(context);
      await context.request.post('/api/auth/login', {
        data: { email: fresh.email, password: fresh.password },
      });
      const expected = [
        t('popup.welcome.label'),
        t('popup.community.label'),
        'Available on yearly plans',
      ];
      // A visit is one tab: each new tab is a new visit.
      for (const [visit, name] of expected.entries()) {
        const page = await context.newPage();
        await page.goto('/home');
        const dialog = page.getByRole('dialog');
        await dialog.first().waitFor();
        await page.waitForTimeout(500);
        expect(await dialog.count(), `visit ${visit + 1} shows one pop-up`).toBe(1);
        expect(await dialog.textContent()).toContain(name);
        if (name === 'Available on yearly plans') {
          // The guard names what it is about.
          expect(await page.getByTestId('yearly-feature').textContent()).toBe(
            t('popup.yearly.feature'),
          );
        }
        await screenshot(page, `${label}-popup-visit-${visit + 1}`);
        await page.keyboard.press('Escape');
        await dialog.first().waitFor({ state: 'hidden' });
        // Nothing else this visit, even on coming back to home.
        await page.reload();
        await page.waitForTimeout(800);
        expect(await page.getByRole('dialog').count(), `visit ${visit + 1} after closing`).toBe(0);
        await page.close();
      }
      const after = await context.newPage();
      await after.goto('/home');
      await after.waitForTimeout(800);
      expect(await after.getByRole('dialog').count()).toBe(0);
      // A free member sees the new-member offer.
      expect(await after.locator('[data-banner]').getAttribute('data-banner')).toBe(
        'new-member-offer',
      );
    });
  }

  it('shows no new-member banner to a paying yearly user', async () => {
    const payer = newAccount('yearly');
    const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: 'block' });
    contexts.push(context);
    await context.request.post('/api/auth/signup', { data: payer });
    const checkout = await context.request.post('/api/subscription/create', {
      data: { plan: 'vip_year' },
      headers: { origin: baseUrl },
    });
    const checkoutUrl = ((await checkout.json()) as { data: string }).data;
    await context.request.post(new URL(checkoutUrl).pathname, {
      form: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123', name: 'Yearly' },
      headers: { origin: baseUrl },
    });
    const info = (await (await context.request.get('/api/user/info')).json()) as { data: UserInfo };
    expect(info.data.subscription.current_plan).toBe('vip_year');
    const page = await context.newPage();
    await page.goto('/library/videoTasks');
    await page.getByRole('navigation', { name: 'Side menu' }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator('[data-banner]').count()).toBe(0);
    expect(await page.getByText(t('banner.newMember')).count()).toBe(0);
  });

  it('opens every Tools entry in a new tab on its own start form, saying what translation needs', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: 'block' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/home');
    await page.getByRole('button', { name: 'Tools' }).click();
    const items = page.getByRole('menuitem');
    await items.first().waitFor();
    expect(await items.count()).toBe(5);
    for (const item of await items.all()) {
      expect(await item.getAttribute('target')).toBe('_blank');
      expect(await item.getAttribute('href')).toMatch(/^\/home\?tool=/);
    }
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('menuitem', { name: t('tools.video-translator') }).click(),
    ]);
    await opened.waitForURL(/\/home\?tool=video-translator$/);
    expect(page.url()).toMatch(/\/home$/);
    const intro = opened.getByTestId('tool-intro');
    await intro.waitFor();
    expect(await intro.textContent()).toContain(t('tools.video-translator'));
    const support = (await (await opened.request.get('/api/captions/languages')).json()) as {
      data: { engine: string | null };
    };
    if (support.data.engine === null) {
      expect(await opened.getByTestId('tool-needs').textContent()).toBe(t('tools.needsLlm'));
    }
    await screenshot(opened, 'desktop-tool-video-translator');
  });

  it('lays the phone out right: banner link beside its close button, Settings lit on the plan page, toasts off the title', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: PHONE_VIEWPORT,
      serviceWorkers: 'block',
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto('/home');
    const banner = page.getByRole('region', { name: 'Announcement' });
    await banner.waitFor();
    const link = await banner.getByRole('link').boundingBox();
    const close = await banner.getByRole('button', { name: 'Dismiss announcement' }).boundingBox();
    const box = await banner.boundingBox();
    expect(link!.height).toBeLessThan(24); // one line
    expect(link!.x + link!.width).toBeLessThanOrEqual(close!.x);
    expect(link!.y).toBeGreaterThanOrEqual(box!.y);
    expect(link!.y + link!.height).toBeLessThanOrEqual(box!.y + box!.height);
    await screenshot(page, 'phone-banner');

    const phone = await signedIn(PHONE_VIEWPORT);
    await phone.goto('/settings/plan');
    const settings = phone
      .getByRole('navigation', { name: 'Bottom menu' })
      .getByRole('link', { name: 'Settings' });
    expect(await settings.getAttribute('aria-current')).toBe('page');
    await screenshot(phone, 'phone-plan-bottom-menu');

    // A task finishing while the page is open pops a toast; it must not cover the page title.
    await phone.goto('/library/videoTasks');
    await phone.getByText('Library', { exact: true }).first().waitFor();
    // A toast is for a message pushed over a live connection: the retry may finish in seconds.
    await phone
      .locator('[data-testid=notification-badge][data-realtime=connected]')
      .waitFor({ state: 'attached' });
    const rerun = await call<Task>('POST', `/api/highlight_moment/task/retry?id=${captionTask.id}`);
    expect(rerun.id).toBe(captionTask.id);
    const toast = phone.getByTestId('notification-toast').first();
    await toast.waitFor({ timeout: 120_000 });
    const toastBox = await toast.boundingBox();
    const title = await phone
      .locator('header')
      .getByText('Library', { exact: true })
      .first()
      .boundingBox();
    expect(toastBox!.y).toBeGreaterThan(title!.y + title!.height);
    expect(toastBox!.y + toastBox!.height).toBeLessThanOrEqual(PHONE_VIEWPORT.height - 64);
    await screenshot(phone, 'phone-toast');
  }, 180_000);

  it('handles the small things: no console error for visitors, unknown summary, no doubled note text', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: 'block' });
    contexts.push(context);
    const visitor = await context.newPage();
    // The moment is shared, so a visitor may open its page.
    await call('POST', `/api/highlight_moment/share?id=${moment.id}`);
    const errors: string[] = [];
    visitor.on(
      'console',
      (entry) => entry.type() === 'error' && errors.push(`${visitor.url()}: ${entry.text()}`),
    );
    for (const url of [
      '/home',
      '/login',
      '/privacy-policy',
      `/home/moment/${moment.id}`,
      '/comingsoon',
    ]) {
      await visitor.goto(url);
      await visitor.waitForLoadState('networkidle');
    }
    expect(errors).toEqual([]);

    const page = await signedIn(DESKTOP_VIEWPORT);
    await page.goto('/video/00000000-0000-4000-8000-000000000000/summary');
    await page.getByTestId('summary-not-found').waitFor();
    expect(await page.getByText('Make the summary').count()).toBe(0);
    await screenshot(page, 'desktop-summary-not-found');

    // Typing into a just-opened note, across an autosave, writes each word once.
    const note = await call<{ id: string }>('POST', '/api/note', { from: 'summary', id: task.id });
    await page.goto(`/note/detail/${note.id}`);
    const editor = page.getByRole('textbox', { name: 'Note text' });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' First thought about watering.', { delay: 15 });
    await page.waitForTimeout(1500);
    await page.keyboard.type(' Second thought about sunlight.', { delay: 15 });
    await page.waitForTimeout(1500);
    const text = (await editor.textContent()) ?? '';
    expect(text.split('First thought about watering.').length - 1).toBe(1);
    expect(text.split('Second thought about sunlight.').length - 1).toBe(1);
    // The note saves itself a moment after the last key: read it once that save is stored.
    const stored = async () =>
      (await call<{ content_html: string }>('GET', `/api/note?id=${note.id}`)).content_html;
    await expect.poll(stored).toContain('Second thought about sunlight.');
    expect((await stored()).split('Second thought about sunlight.').length - 1).toBe(1);
    expect(rawKeysIn((await page.locator('body').innerText()) ?? '')).toEqual([]);
  });
});
