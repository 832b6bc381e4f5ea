/**
 * The clip studio end to end: a real task (synthesized speech served over
 * HTTP, downloaded, transcribed, moments found) opened in the clip editor in Chromium; the
 * captions are drawn in the page by libass (JASSUB); template, aspect and trim are changed, a
 * sentence is deleted by text; the export renders on the real server and the downloaded MP4 is
 * probed and transcribed again.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CaptionPreview, ClipFraming, Job, Moment, Task } from '@moments/contract';
import { fasterWhisperAvailability, FasterWhisperEngine } from '@moments/ai/asr';
import { cutsOfDeleted, sentenceAround } from '@moments/domain/cuts';
import { formatDuration } from '@moments/domain/format';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { probeMedia } from '@moments/media/probe';
import {
  makeTestVideo,
  serveFiles,
  synthesizeSpeech,
  type ServedFiles,
} from '@moments/media/testing';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount } from './support/accounts';
import {
  DESKTOP_VIEWPORT,
  PHONE_VIEWPORT,
  chooseOption,
  chooseSpanishTranslation,
  hasChromium,
  launchChromium,
  seekPreview,
} from './support/browser';
import { startMomentsServer, type RunningMomentsServer } from './support/server';
import { ensureWebBuild } from './support/webBuild';
import { cropAt } from '../apps/web/src/studio/framing';
import { formatClock } from '../apps/web/src/studio/trim';
import { t } from '../apps/web/src/messages/catalogue';

/** About a minute of speech: a story with a point, so the moment finder has something to pick. */
const SPEECH = `Last summer I learned the most important lesson of my career from a broken coffee machine.
Our team had worked for six months on a product that nobody wanted. Every morning we stood in the
kitchen, waiting for that old machine to heat up, and we talked about what customers really needed.
One Tuesday the machine finally died. For the first time we walked to the cafe across the street,
and we started talking to strangers in the line. Within a week those strangers told us more than a
year of surveys. They did not care about our features. They cared about saving ten minutes every
morning. So we threw away half of our plans and built the simple thing they asked for. Three months
later we had ten thousand paying users. Here is the lesson. If you want to understand people, leave
your office and stand in line with them. The best research tool we ever had was a broken coffee
machine. Thank you for listening, and go talk to your customers today.`;

/**
 * The exported clip stays short: a 720p render of a few seconds keeps the test quick. It holds a
 * whole sentence (deleted by text) and enough of the next one for a transcription to hear.
 */
const MAX_CLIP_MS = 12_000;

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !asr.available && `the speech engine (${asr.reason})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/studio: skipping, missing ${missing.join(', ')}`);

/**
 * A real face photo (Debian's opencv-doc) walks slowly across the talk video, so the editor's
 * "Auto" framing preview has a moving crop to show; without it the video is a test pattern.
 */
const FACE_PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';
const hasFacePhoto = existsSync(FACE_PHOTO);
if (!hasFacePhoto)
  console.warn(`e2e/studio: ${FACE_PHOTO} missing, the framing checks are skipped`);

/** Where to save screenshots of the studio pages for a look by eye (optional). */
const SCREENSHOT_DIR = process.env.STUDIO_SCREENSHOTS_DIR;

describe.skipIf(missing.length > 0)('clip studio', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  let served: ServedFiles;
  let workDir: string;
  let context: BrowserContext;
  let moment: Moment;
  let exportedJob: Job;
  const contexts: BrowserContext[] = [];

  async function api<T>(pathAndQuery: string, init: RequestInit = {}, token?: string): Promise<T> {
    const reply = await fetch(`${server.baseUrl}${pathAndQuery}`, {
      ...init,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...init.headers,
      },
    });
    const body = (await reply.json()) as { code: string; message: string; data: T };
    if (reply.status !== 200) throw new Error(`${pathAndQuery}: ${reply.status} ${body.message}`);
    return body.data;
  }

  async function newPage(viewport = DESKTOP_VIEWPORT, storageFrom?: BrowserContext): Promise<Page> {
    const state = storageFrom ? await storageFrom.storageState() : undefined;
    const created = await browser.newContext({
      viewport,
      baseURL: server.baseUrl,
      storageState: state,
    });
    contexts.push(created);
    const page = await created.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  async function shot(page: Page, name: string) {
    if (!SCREENSHOT_DIR) return;
    await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-studio-'));
    const speech = await synthesizeSpeech(
      SPEECH.replace(/\s+/g, ' '),
      path.join(workDir, 'talk.wav'),
      {
        engine: 'festival',
      },
    );
    if (hasFacePhoto) {
      // The head walks from the left edge to the right at 8 px/s, never back.
      await runFfmpeg([
        ...['-f', 'lavfi', '-i', 'color=c=0x406080:s=640x360:r=25', '-loop', '1', '-i', FACE_PHOTO],
        ...['-i', speech, '-filter_complex'],
        `[1:v]crop=130:150:180:45[head];` +
          `[0:v][head]overlay=x='min(20+8*t,490)':y=100:shortest=1,format=yuv420p[v]`,
        ...['-map', '[v]', '-map', '2:a', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast'],
        ...['-c:a', 'aac', '-movflags', '+faststart', path.join(workDir, 'talk.mp4')],
      ]);
    } else {
      await makeTestVideo(path.join(workDir, 'talk.mp4'), {
        audio: speech,
        width: 640,
        height: 360,
      });
    }
    served = await serveFiles(workDir);
    await ensureWebBuild();
    [server, browser] = await Promise.all([
      startMomentsServer({ MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1' }),
      launchChromium(),
    ]);

    // A real task, started with the user's bearer token as any API client would.
    const account = newAccount('studio');
    const { token } = await api<{ token: string }>('/api/auth/signup', {
      method: 'POST',
      body: JSON.stringify(account),
    });
    const task = await api<Task>(
      '/api/highlight_moment/task/start?url_source=direct&source_lang=en&caption_display=source',
      { method: 'POST', body: JSON.stringify({ url: `${served.url}/talk.mp4` }) },
      token,
    );
    const deadline = Date.now() + 150_000;
    let current = task;
    while (current.status !== 'DONE') {
      if (current.status === 'ERROR') throw new Error(`task failed: ${current.error_reason}`);
      if (Date.now() > deadline)
        throw new Error(`task still ${current.stage} at ${current.progress}%`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      current = await api<Task>(`/api/highlight_moment/task?id=${task.id}`, {}, token);
    }
    const moments = await api<Moment[]>(`/api/highlight_moment/list?task_id=${task.id}`, {}, token);
    expect(moments.length).toBeGreaterThan(0);
    moment = moments[0]!;

    // The browser signs in with the same account (cookie session).
    context = await browser.newContext({ viewport: DESKTOP_VIEWPORT, baseURL: server.baseUrl });
    contexts.push(context);
    const login = await context.request.post('/api/auth/login', {
      data: { email: account.email, password: account.password },
    });
    expect(login.status()).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((each) => each.close()));
    await browser?.close();
    await server?.stop();
    await served?.close();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  /**
   * How many pixels of the preview the caption canvas changes: the frame is captured with the
   * canvas shown and hidden, and the two are compared in the page.
   */
  async function captionPixels(page: Page): Promise<number> {
    const frame = page.getByTestId('clip-preview');
    const canvas = page.getByTestId('caption-canvas');
    const withCaptions = await frame.screenshot();
    await canvas.evaluate((element: HTMLElement) => (element.style.visibility = 'hidden'));
    const without = await frame.screenshot();
    await canvas.evaluate((element: HTMLElement) => (element.style.visibility = ''));
    return page.evaluate(
      async ([a, b]) => {
        const pixels = async (base64: string) => {
          const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
          const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
          const surface = new OffscreenCanvas(bitmap.width, bitmap.height);
          const context2d = surface.getContext('2d')!;
          context2d.drawImage(bitmap, 0, 0);
          return context2d.getImageData(0, 0, bitmap.width, bitmap.height).data;
        };
        const [first, second] = await Promise.all([pixels(a), pixels(b)]);
        let changed = 0;
        for (let index = 0; index < Math.min(first.length, second.length); index += 4) {
          const delta =
            Math.abs(first[index]! - second[index]!) +
            Math.abs(first[index + 1]! - second[index + 1]!) +
            Math.abs(first[index + 2]! - second[index + 2]!);
          if (delta > 60) changed++;
        }
        return changed;
      },
      [withCaptions.toString('base64'), without.toString('base64')] as const,
    );
  }

  const sliderValue = async (page: Page, name: string) =>
    Number(await page.getByRole('slider', { name }).getAttribute('aria-valuenow'));

  it('previews captions in the browser, trims on words, and exports what it previewed', async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const previews: Request[] = [];
    const framingRequests: Request[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/captions/preview')) previews.push(request);
      if (request.url().endsWith('/api/captions/framing')) framingRequests.push(request);
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`/moment/${moment.id}/clip`);
    const preview = page.getByTestId('clip-preview');
    if (SCREENSHOT_DIR) {
      // The face analysis takes a moment: a look at the editor while it runs.
      const analysing = page.getByRole('status').filter({ hasText: 'Analysing framing' });
      if (
        await analysing.waitFor({ timeout: 5000 }).then(
          () => true,
          () => false,
        )
      ) {
        await shot(page, 'editor-analysing-framing');
      }
    }
    await expect
      .poll(() => preview.getAttribute('data-caption-state'), { timeout: 30_000 })
      .toBe('ready');
    expect(await preview.getAttribute('data-frame')).toBe('1080x1920');

    // "Auto" framing shows the export's own crop path: at each time exactly the plan's window
    // fills the frame, and the window follows the walking face.
    if (hasFacePhoto) {
      await expect
        .poll(() => preview.getAttribute('data-framing'), { timeout: 60_000 })
        .toBe('crop');
      await page.getByRole('status').filter({ hasText: 'Analysing framing' }).waitFor({
        state: 'detached',
      });
      const framingReply = await context.request.post('/api/captions/framing', {
        data: JSON.parse(framingRequests.at(-1)!.postData()!),
      });
      const plan = (await framingReply.json()).data as ClipFraming;
      expect(plan.layout).toBe('crop');
      const shownAt = async (clipMs: number) => {
        const frameMs = await seekPreview(page, plan.start_ms + clipMs);
        const video = page.getByTestId('clip-video');
        const [frameBox, videoBox] = [await preview.boundingBox(), await video.boundingBox()];
        return {
          frameBox: frameBox!,
          videoBox: videoBox!,
          crop: await video.getAttribute('data-crop'),
          clipMs: frameMs - plan.start_ms,
        };
      };
      const spanMs = plan.end_ms - plan.start_ms;
      const windows = [];
      for (const clipMs of [500, spanMs - 500]) {
        const shown = await shownAt(clipMs);
        const rect = cropAt(plan.keyframes, shown.clipMs, plan.source)!;
        // Within a pixel: the page lays out the seek's time, the frame shown may sit a few
        // milliseconds from it, and the window moves while the face walks.
        const shownCrop = shown.crop!.split(',').map(Number);
        [rect.x, rect.y, rect.w, rect.h].forEach((value, index) =>
          expect(Math.abs(shownCrop[index]! - value)).toBeLessThanOrEqual(1.5),
        );
        // The window's left edge sits at the frame's left edge, at the frame's scale.
        const scale = shown.frameBox.width / rect.w;
        expect(Math.abs(shown.videoBox.x - (shown.frameBox.x - rect.x * scale))).toBeLessThan(2);
        expect(Math.abs(shown.videoBox.width - plan.source.width * scale)).toBeLessThan(2);
        windows.push(rect.x);
      }
      expect(Math.abs(windows[1]! - windows[0]!)).toBeGreaterThan(10);
      await shot(page, 'editor-follow-speaker');

      // The framing chosen is kept with the clip. "Fit" shows the whole frame over
      // the blurred fill, and the editor opens framed that way again.
      // The editor shows the choice at once and keeps it after: reload once the server has it.
      const kept = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/api/highlight_moment/layout',
      );
      await page.getByText('Fit', { exact: true }).click();
      await expect.poll(() => preview.getAttribute('data-layout'), { timeout: 60_000 }).toBe('fit');
      expect((await kept).ok()).toBe(true);
      await page.reload();
      await expect
        .poll(() => preview.getAttribute('data-caption-state'), { timeout: 30_000 })
        .toBe('ready');
      expect(await page.getByRole('radio', { name: 'Fit' }).isChecked()).toBe(true);
      await expect.poll(() => preview.getAttribute('data-layout'), { timeout: 60_000 }).toBe('fit');
      await page.getByText('Auto', { exact: true }).click();
      await expect
        .poll(() => preview.getAttribute('data-framing'), { timeout: 60_000 })
        .toBe('crop');
    }

    // The trim starts on the moment's words; the captions are drawn at a word's time.
    const start = await sliderValue(page, 'Clip start');
    const transcript = (await (
      await context.request.get(`/api/highlight_moment/task/transcript?id=${moment.task_id}`)
    ).json()) as {
      data: { segments: { words: { text: string; start: number; end: number }[] }[] };
    };
    const words = transcript.data.segments.flatMap((segment) => segment.words);
    const firstWord = words.find((word) => word.start >= start)!;
    expect(Math.abs(firstWord.start - start)).toBeLessThanOrEqual(1);
    expect(Math.abs(start - moment.start)).toBeLessThan(1000);
    await seekPreview(page, firstWord.start + 100);
    await expect.poll(() => captionPixels(page), { timeout: 15_000 }).toBeGreaterThan(300);
    await shot(page, 'editor-desktop');

    // A new template: a new document is fetched and drawn.
    const drawn = Number(await preview.getAttribute('data-caption-documents'));
    await page.getByRole('radio', { name: 'One word' }).check();
    await expect
      .poll(async () => Number(await preview.getAttribute('data-caption-documents')))
      .toBeGreaterThan(drawn);
    expect(JSON.parse(previews.at(-1)!.postData()!).options.template).toBe('one_word');

    // A translation needs a language this install can translate into, as on the captions page.
    await chooseSpanishTranslation(page, /^Export/);
    await chooseOption(page, 'Captions show', 'Original language');

    // The frame follows the aspect and the quality.
    await page.getByText('1:1', { exact: true }).click();
    await expect.poll(() => preview.getAttribute('data-frame')).toBe('1080x1080');
    await page.getByText('720p', { exact: true }).click();
    await expect.poll(() => preview.getAttribute('data-frame')).toBe('720x720');
    await page.getByText('9:16', { exact: true }).click();
    await expect.poll(() => preview.getAttribute('data-frame')).toBe('720x1280');

    // Trim from the end, one word per key press, down to a short clip.
    const endHandle = page.getByRole('slider', { name: 'Clip end' });
    await endHandle.focus();
    for (let presses = 0; presses < 400; presses++) {
      if ((await sliderValue(page, 'Clip end')) - start <= MAX_CLIP_MS) break;
      await page.keyboard.press('ArrowLeft');
    }
    const end = await sliderValue(page, 'Clip end');
    expect(end - start).toBeLessThanOrEqual(MAX_CLIP_MS);
    expect(end - start).toBeGreaterThan(1000);
    // Every trim edge is a word edge.
    expect(words.some((word) => word.end === end)).toBe(true);
    await expect
      .poll(() => page.getByTestId('clip-duration').textContent())
      .toContain(`${Math.floor((end - start) / 1000)}.`);

    // The preview of the final options has the trimmed span and still draws captions.
    await expect
      .poll(() => {
        const last = previews.at(-1);
        return last ? JSON.parse(last.postData()!).options.end_ms : null;
      })
      .toBe(end);
    await seekPreview(page, firstWord.start + 150);
    await expect.poll(() => captionPixels(page), { timeout: 15_000 }).toBeGreaterThan(300);
    await shot(page, 'editor-desktop-trimmed');

    // A corrected word goes out as transcript_text and comes back in the caption words.
    const transcriptBox = page.getByRole('textbox', { name: 'Transcript of the clip' });
    const spanWords = (await transcriptBox.inputValue()).split(' ');
    const edited = ['Yesterday', ...spanWords.slice(1)].join(' ');
    const editedPreview = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/captions/preview') &&
        JSON.parse(response.request().postData()!).options.transcript_text === edited,
    );
    await transcriptBox.fill(edited);
    const retimed = (await (await editedPreview).json()) as {
      data: { words: { text: string; start: number }[] };
    };
    expect(retimed.data.words[0]).toMatchObject({ text: 'Yesterday', start });

    // Edit by text: a sentence deleted in the cut panel is gone from the preview's captions and
    // its clock, and (below) from the export: its length and what a transcription of it hears.
    const clipWords = words.filter((word) => {
      const middle = (word.start + word.end) / 2;
      return middle >= start && middle <= end;
    });
    // The clip's first sentence (the trim starts on a sentence and holds its end and a few words
    // more); a clip with no sentence end inside deletes a run of words instead.
    const firstSentence = sentenceAround(clipWords, 1);
    const wholeSentence = firstSentence.at(-1)! < clipWords.length - 2;
    const deleted = wholeSentence
      ? firstSentence
      : [1, 2, 3].filter((index) => index < clipWords.length - 1);
    const cuts = cutsOfDeleted(
      clipWords.map((word) => ({ startMs: word.start, endMs: word.end })),
      new Set(deleted),
    ).map((cut) => ({ start_ms: cut.startMs, end_ms: cut.endMs }));
    const cutPreviewReply = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/captions/preview') &&
        JSON.stringify(JSON.parse(response.request().postData()!).options.cuts) ===
          JSON.stringify(cuts),
    );
    const cutButtons = page.getByTestId('clip-cut-words').getByRole('button');
    if (wholeSentence) {
      await cutButtons.nth(1).dblclick();
    } else {
      await cutButtons.nth(deleted[0]!).click();
      await cutButtons.nth(deleted.at(-1)!).click({ modifiers: ['Shift'] });
    }
    const cutPreview = (await (await cutPreviewReply).json()) as { data: CaptionPreview };
    console.log(
      wholeSentence,
      JSON.stringify(deleted.map((i) => clipWords[i]!.text)),
      JSON.stringify(cutPreview.data.removed),
    );
    const removedMs = cutPreview.data.removed.reduce(
      (sum, span) => sum + span.end_ms - span.start_ms,
      0,
    );
    const deletedWords = deleted.map((index) => clipWords[index]!);
    expect(removedMs).toBeGreaterThanOrEqual(deletedWords.at(-1)!.end - deletedWords[0]!.start);
    expect(cutPreview.data.duration_ms).toBe(end - start - removedMs);
    const bare = (text: string) => text.toLowerCase().replace(/[^\p{L}]+/gu, '');
    const keptTexts = clipWords
      .filter((_, index) => !deleted.includes(index))
      .map((w) => bare(w.text));
    // The deleted words said nowhere else in the clip: the ones no caption or transcription may show.
    const goneTexts = deletedWords
      .map((word) => bare(word.text))
      .filter((text) => !keptTexts.includes(text));
    expect(goneTexts.length).toBeGreaterThan(0);
    const captionTexts = cutPreview.data.words.map((word) => bare(word.text));
    for (const text of goneTexts) expect(captionTexts).not.toContain(text);
    await expect
      .poll(() => page.getByLabel(t('studio.preview.position')).textContent())
      .toContain(`/ ${formatClock(cutPreview.data.duration_ms)}`);
    expect(await page.getByTestId('clip-cut-length').textContent()).toContain(
      t('studio.cuts.saved', { saved: formatDuration(removedMs) }),
    );

    // After the clip's end there are no captions: the comparison measures captions, nothing else.
    await seekPreview(page, end + 1500);
    await expect.poll(() => captionPixels(page), { timeout: 15_000 }).toBeLessThan(30);

    const exportRequest = page.waitForRequest(
      (request) => request.url().endsWith('/api/job') && request.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Export 720p MP4' }).first().click();
    const body = JSON.parse((await exportRequest).postData()!);
    expect(body).toMatchObject({
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: moment.id,
      options: {
        transcript_text: edited,
        aspect: '9:16',
        quality: '720p',
        template: 'one_word',
        start_ms: start,
        end_ms: end,
        cuts,
      },
    });

    await page.waitForURL(/\/job\/[^/]+$/);
    const jobId = new URL(page.url()).pathname.split('/').pop()!;
    await shot(page, 'job-rendering-desktop');
    const download = page.getByRole('link', { name: 'Download MP4' });
    await download.waitFor({ timeout: 150_000 });
    await shot(page, 'job-desktop');
    // Share makes a public clip page, not a link only its owner can open.
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByRole('button', { name: t('clip.share.start') }).click();
    expect(await page.getByRole('textbox', { name: t('clip.share.link') }).inputValue()).toMatch(
      new RegExp(`^${server.baseUrl}/s/[A-Za-z0-9_-]+\\?clip=1$`),
    );
    expect(await page.getByRole('link', { name: 'Edit again' }).getAttribute('href')).toBe(
      `/moment/${moment.id}/clip?job=${jobId}`,
    );

    const fileUrl = await download.getAttribute('href');
    const reply = await context.request.get(fileUrl!);
    expect(reply.status()).toBe(200);
    expect(reply.headers()['content-type']).toBe('video/mp4');
    expect(reply.headers()['content-disposition']).toContain('.mp4');
    const file = path.join(workDir, 'export.mp4');
    await fs.writeFile(file, await reply.body());
    const info = await probeMedia(file);
    expect(info).toMatchObject({ width: 720, height: 1280, hasAudio: true });
    expect(Math.abs(info.durationMs - (end - start - removedMs))).toBeLessThanOrEqual(100);
    // Transcribed again, the export no longer says the deleted sentence, and says the rest.
    const engine = new FasterWhisperEngine();
    const heard = await engine
      .transcribe(file, { language: 'en' })
      .then((spoken) =>
        spoken.segments.flatMap((segment) => segment.words).map((w) => bare(w.text)),
      )
      .finally(() => engine.close());
    console.log(heard.join(' '), '/ gone', goneTexts.join(' '), '/ kept', keptTexts.join(' '));
    for (const text of goneTexts) expect(heard, heard.join(' ')).not.toContain(text);
    expect(heard.filter((text) => keptTexts.includes(text)).length).toBeGreaterThanOrEqual(
      keptTexts.length / 2,
    );

    exportedJob = await (await context.request.get(`/api/job/${jobId}`)).json().then((r) => r.data);
    expect(exportedJob).toMatchObject({ status: 'DONE', moment_id: moment.id });
    expect(pageErrors).toEqual([]);
  }, 300_000);

  it('lists the export under Projects on a phone, and deletes it', async () => {
    expect(exportedJob, 'needs the export of the previous test').toBeDefined();
    const page = await newPage(PHONE_VIEWPORT, context);
    await page.goto('/library/projects');
    const card = page.getByRole('listitem', { name: exportedJob.title });
    await card.getByText('Ready').waitFor();
    expect(
      await card.getByRole('link', { name: `Open ${exportedJob.title}` }).getAttribute('href'),
    ).toBe(`/job/${exportedJob.job_id}`);
    await shot(page, 'projects-phone');

    // The editor and the job page on a phone, for a look by eye.
    if (SCREENSHOT_DIR) {
      await page.goto(`/job/${exportedJob.job_id}`);
      await page.getByRole('link', { name: 'Download MP4' }).waitFor();
      await shot(page, 'job-phone');
      await page.goto(`/moment/${moment.id}/clip`);
      await expect
        .poll(() => page.getByTestId('clip-preview').getAttribute('data-caption-state'))
        .toBe('ready');
      await shot(page, 'editor-phone');
      await page.getByText('Fit', { exact: true }).click();
      await seekPreview(page, moment.start + 1500);
      await shot(page, 'editor-phone-blurred');
      await page.goto('/library/projects');
    }

    await card.getByRole('button', { name: `Delete ${exportedJob.title}` }).click();
    await page
      .getByRole('dialog', { name: 'Delete this export?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await card.waitFor({ state: 'detached' });
    await page.getByText('No projects yet').waitFor();
    const gone = await context.request.get(`/api/job/${exportedJob.job_id}`);
    expect(gone.status()).toBe(404);
  });

  it('asks a signed-out visitor of a job page to log in', async () => {
    const page = await newPage();
    await page.goto(`/job/${exportedJob?.job_id ?? 'some-job'}`);
    await page.getByRole('heading', { name: 'Log in to see this export' }).waitFor();
    const href = await page
      .getByRole('main')
      .getByRole('link', { name: 'Log in', exact: true })
      .getAttribute('href');
    expect(href).toContain('/login?redirect=%2Fjob%2F');
  });
});
