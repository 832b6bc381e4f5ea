/**
 * Animated captions as a product, end to end: a caption task on a spoken test video
 * (the translation refused up front when no engine is configured, then started without one), the
 * caption result page in Chromium (display modes, templates, a corrected word shown by the
 * preview, 9:16), the whole-video export downloaded and checked (full duration, frame size, the
 * corrected word read back by OCR at its time), and the SRT/WebVTT files parsed with `subtitle`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Task } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { probeMedia } from '@moments/media/probe';
import type { BrowserContext } from 'playwright-core';
import { parseSync, type NodeCue } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount } from './support/accounts';
import { apiClient, type ApiCall } from './support/api';
import {
  DESKTOP_VIEWPORT,
  chooseOption,
  chooseSpanishTranslation,
  hasChromium,
  seekPreview,
} from './support/browser';
import { startTalkStage, type TalkStage } from './support/talk';

const run = promisify(execFile);

const SPEECH = `Every morning the harbour wakes up before the city does. The fishing boats come back
at six, and the market opens at seven. Visitors love the fresh bread and the strong coffee.`;

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !asr.available && `the speech engine (${asr.reason})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/captions: skipping, missing ${missing.join(', ')}`);

/** The word typed over a transcript word; OCR must find it in the exported video at its time. */
const EDIT = 'ZEBRA';

describe.skipIf(missing.length > 0)('animated captions result page', () => {
  let stage: TalkStage;
  let call: ApiCall;
  let token: string;
  let context: BrowserContext;
  let task: Task;
  let workDir: string;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-e2e-captions-'));
    stage = await startTalkStage(SPEECH.replace(/\s+/g, ' '), 'harbour.mp4');
    call = apiClient(stage.server.baseUrl, () => token);
    const account = newAccount('captions');
    ({ token } = await call<{ token: string }>('POST', '/api/auth/signup', account));

    // With a target language: translated if this install can, otherwise refused before anything
    // is stored or charged, and the task starts without one.
    const start = (targetLang: string) =>
      fetch(
        `${stage.server.baseUrl}/api/tool-task/v2/caption/start?url_source=direct&source_lang=en&caption_display=source&target_lang=${targetLang}`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: stage.videoUrl, title: 'Harbour morning' }),
        },
      );
    const withTranslation = await start('es');
    const translationAvailable = withTranslation.status === 200;
    let started: Task;
    if (translationAvailable) {
      started = ((await withTranslation.json()) as { data: Task }).data;
    } else {
      const refusal = (await withTranslation.json()) as { code: string; message: string };
      expect(withTranslation.status).toBe(422);
      expect(refusal.code).toBe('TRANSLATION_UNAVAILABLE');
      expect(await call<Task[]>('GET', '/api/highlight_moment/task/list')).toHaveLength(0);
      const plain = await start('');
      expect(plain.status).toBe(200);
      started = ((await plain.json()) as { data: Task }).data;
    }
    const deadline = Date.now() + 180_000;
    for (;;) {
      task = await call<Task>('GET', `/api/highlight_moment/task?id=${started.id}`);
      if (task.status === 'DONE') break;
      if (task.status === 'ERROR') throw new Error(`task failed: ${task.error_reason}`);
      if (Date.now() > deadline) throw new Error(`task still ${task.stage}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }

    context = await stage.browser.newContext({
      viewport: DESKTOP_VIEWPORT,
      baseURL: stage.server.baseUrl,
      acceptDownloads: true,
    });
    const login = await context.request.post('/api/auth/login', {
      data: { email: account.email, password: account.password },
    });
    expect(login.status()).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await stage?.close();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  it('previews, edits and exports the whole captioned video, with subtitle files', async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));

    // The task card opens the result page.
    await page.goto('/library/videoTasks');
    await page.getByRole('link', { name: 'Open captions' }).first().click();
    await page.waitForURL(`**/video/${task.id}/captions`);
    const preview = page.getByTestId('clip-preview');
    await expect
      .poll(() => preview.getAttribute('data-caption-state'), { timeout: 30_000 })
      .toBe('ready');

    // Display modes: a translation needs a language this install can translate into.
    await chooseSpanishTranslation(page, 'Export video');
    await chooseOption(page, 'Captions show', 'No captions');
    await chooseOption(page, 'Captions show', 'Original language');

    // Another template: a new document is fetched and drawn.
    const drawn = Number(await preview.getAttribute('data-caption-documents'));
    await page.getByRole('radio', { name: 'One word' }).check();
    await expect
      .poll(async () => Number(await preview.getAttribute('data-caption-documents')))
      .toBeGreaterThan(drawn);

    // Correct a word of the second line: the preview's captions carry it at that word's time.
    const line = page.getByRole('textbox', { name: 'Line 1' });
    const words = (await line.inputValue()).split(' ');
    const editedIndex = Math.min(2, words.length - 1);
    words[editedIndex] = EDIT;
    const editedPreview = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/captions/preview') &&
        (JSON.parse(response.request().postData()!).options.transcript_text ?? '').includes(EDIT),
      { timeout: 30_000 },
    );
    await line.fill(words.join(' '));
    await line.press('Enter');
    const previewed = (await (await editedPreview).json()).data as {
      ass: string;
      words: { text: string; start: number; end: number }[];
    };
    expect(previewed.ass).toContain(EDIT);
    const edited = previewed.words.find((word) => word.text === EDIT)!;
    expect(edited).toBeDefined();
    await seekPreview(page, (edited.start + edited.end) / 2);

    // Made for TikTok: its shape, 9:16 (the subject kept in frame, or the blurred fit when there
    // is none), its safe zone outlined over the preview, and a hook title over the first seconds.
    await chooseOption(page, 'Made for', 'TikTok');
    await expect.poll(() => preview.getAttribute('data-frame')).toBe('720x1280');
    await page.getByRole('checkbox', { name: 'Show the safe zone' }).check();
    const zone = (await page.getByTestId('safe-zone').boundingBox())!;
    const whole = (await preview.boundingBox())!;
    expect(Math.abs((zone.y - whole.y) / whole.height - 0.1)).toBeLessThan(0.01);
    expect(Math.abs((zone.y + zone.height - whole.y) / whole.height - 0.8)).toBeLessThan(0.01);
    await page.getByRole('switch', { name: 'Hook title over the first seconds' }).check();
    expect(await page.getByTestId('hook-title-text').inputValue()).toBe('Harbour morning');
    await page.getByText('9:16', { exact: true }).click();

    // Subtitle files: parsed back, every cue on its words' times.
    await page.getByRole('button', { name: 'Subtitle files' }).click();
    const srtHref = await page.getByRole('menuitem', { name: 'SRT' }).first().getAttribute('href');
    const vttHref = await page
      .getByRole('menuitem', { name: 'WebVTT' })
      .first()
      .getAttribute('href');
    await page.keyboard.press('Escape');
    for (const href of [srtHref!, vttHref!]) {
      const reply = await context.request.get(href);
      expect(reply.status()).toBe(200);
      const cues = parseSync(await reply.text())
        .filter((node): node is NodeCue => node.type === 'cue')
        .map((node) => node.data);
      expect(cues.length).toBeGreaterThan(1);
      expect(cues.map((cue) => cue.text).join(' ')).toContain(EDIT);
      let next = 0;
      for (const cue of cues) {
        const count = cue.text.split(/\s+/).length;
        const first = previewed.words[next]!;
        const last = previewed.words[next + count - 1]!;
        expect(Math.abs(cue.start - first.start), cue.text).toBeLessThanOrEqual(50);
        expect(Math.abs(cue.end - last.end), cue.text).toBeLessThanOrEqual(50);
        next += count;
      }
      expect(next).toBe(previewed.words.length);
    }

    // The whole-video export at 9:16.
    const exportRequest = page.waitForRequest(
      (request) => request.url().endsWith('/api/job') && request.method() === 'POST',
    );
    await page.getByRole('button', { name: 'Export video' }).click();
    expect(JSON.parse((await exportRequest).postData()!)).toMatchObject({
      type: 'ANIMATED_CAPTION_EXPORT',
      task_id: task.id,
      options: {
        aspect: '9:16',
        quality: '720p',
        template: 'one_word',
        platform: 'tiktok',
        hook_title: { text: 'Harbour morning', seconds: 3 },
      },
    });
    await page.waitForURL(/\/job\/[^/]+$/);
    const download = page.getByRole('link', { name: 'Download MP4' });
    await download.waitFor({ timeout: 240_000 });
    const reply = await context.request.get((await download.getAttribute('href'))!);
    expect(reply.status()).toBe(200);
    const file = path.join(workDir, 'captioned.mp4');
    await fs.writeFile(file, await reply.body());
    const [exported, source] = await Promise.all([
      probeMedia(file),
      probeMedia(path.join(stage.mediaDir, 'harbour.mp4')),
    ]);
    expect(exported).toMatchObject({ width: 720, height: 1280, hasAudio: true });
    expect(Math.abs(exported.durationMs - source.durationMs)).toBeLessThanOrEqual(100);

    // The corrected word is on screen at its time.
    const png = path.join(workDir, 'edited.png');
    const white = 'if(gte(val,215),255,0)';
    await runFfmpeg([
      ...['-i', file, '-ss', ((edited.start + edited.end) / 2000).toFixed(3)],
      ...['-frames:v', '1', '-vf'],
      `crop=iw:${Math.round(1280 * 0.5)}:0:${Math.round(1280 * 0.45)},format=rgb24,` +
        `lutrgb=r='${white}':g='${white}':b='${white}',format=gray,lut=y='if(gte(val,250),0,255)'`,
      png,
    ]);
    const { stdout } = await run('tesseract', [png, '-', '--psm', '6', '-l', 'eng']);
    expect(stdout.replace(/\s+/g, ' ')).toContain(EDIT);

    // The hook title is read at the top, below TikTok's top tenth, in its seconds, and gone after.
    const titleAt = async (seconds: number) => {
      const top = path.join(workDir, `title-${seconds}.png`);
      await runFfmpeg([
        ...['-ss', seconds.toFixed(3), '-i', file, '-frames:v', '1', '-vf'],
        `crop=iw:${Math.round(1280 * 0.3)}:0:${Math.round(1280 * 0.1)},format=rgb24,` +
          `lutrgb=r='${white}':g='${white}':b='${white}',format=gray,lut=y='if(gte(val,250),0,255)'`,
        top,
      ]);
      return (await run('tesseract', [top, '-', '--psm', '6', '-l', 'eng'])).stdout;
    };
    expect(await titleAt(1)).toMatch(/Harbour morning/i);
    expect(await titleAt(4.5)).not.toMatch(/Harbour|morning/i);
    expect(pageErrors).toEqual([]);
  }, 400_000);
});
