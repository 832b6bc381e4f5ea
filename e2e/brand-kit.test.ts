/**
 * Brand kits end to end: a user makes a kit with a logo on Settings → Brand kits, picks it in the
 * clip editor, chooses caption colours and position with the style controls and saves them to
 * the kit, finds the kit and its look again after a reload, sees the logo and the styled captions
 * in the preview, exports, and the exported frame shows both as the preview frame does at the
 * same time of the clip.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CaptionPreview, Job, Moment } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, runLinkTask } from './support/api';
import { seriousViolations } from './support/axe';
import { chooseOption, hasChromium, seekPreview } from './support/browser';
import { signedInContext } from './support/session';
import { startTalkStage, type TalkStage } from './support/talk';

const run = promisify(execFile);
const TALK =
  'Our brand needs a logo on every clip. A small mark in the corner tells people who made it. Keep it simple and keep it clear.';

const asr = fasterWhisperAvailability();
const missing = [!hasChromium && 'Chromium', !asr.available && `speech (${asr.reason})`].filter(
  Boolean,
);
if (missing.length) console.warn(`e2e/brand-kit: skipping, missing ${missing.join(', ')}`);

/** RGB of the pixel at (x, y) of a PNG or MP4 frame, decoded by ffmpeg. */
async function pixelOf(file: string, x: number, y: number, atSec?: number) {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error'],
      ...(atSec !== undefined ? ['-ss', atSec.toFixed(3)] : []),
      ...[
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        `format=rgb24,crop=1:1:${Math.round(x)}:${Math.round(y)}`,
      ],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    ],
    { encoding: 'buffer' },
  );
  const bytes = stdout as Buffer;
  return [bytes[0]!, bytes[1]!, bytes[2]!];
}

/** The look chosen in the style editor: yellow words, magenta for the spoken one. */
const TEXT = [0xff, 0xee, 0x00] as const;
const HIGHLIGHT = [0xff, 0x00, 0xff] as const;
/** Both frames are compared at this size (the preview's and the export's 9:16, scaled). */
const COMPARED = { width: 360, height: 640 };

/**
 * How a frame (PNG or MP4 at `atSec`) shows a colour: how many pixels are near it and the height
 * of their middle, as a share of the frame's height.
 */
async function colourIn(file: string, colour: readonly number[], atSec?: number) {
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error'],
      ...(atSec !== undefined ? ['-ss', atSec.toFixed(3)] : []),
      ...['-i', file, '-frames:v', '1', '-vf', `scale=${COMPARED.width}:${COMPARED.height}`],
      ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  const bytes = stdout as Buffer;
  let pixels = 0;
  let rows = 0;
  for (let at = 0; at < bytes.length; at += 3) {
    const distance =
      Math.abs(bytes[at]! - colour[0]!) +
      Math.abs(bytes[at + 1]! - colour[1]!) +
      Math.abs(bytes[at + 2]! - colour[2]!);
    if (distance > 70) continue;
    pixels++;
    rows += Math.floor(at / 3 / COMPARED.width);
  }
  return { pixels, middle: pixels ? rows / pixels / COMPARED.height : Number.NaN };
}

describe.skipIf(missing.length > 0)('brand kits in the studio', () => {
  let stage: TalkStage;

  beforeAll(async () => {
    stage = await startTalkStage(TALK, 'brand.mp4');
  }, 240_000);
  afterAll(async () => {
    await stage?.close();
  });

  it('makes a kit, styles it in the editor, and exports the logo and captions the preview shows', async () => {
    const { context, token } = await signedInContext(stage.browser, stage.server.baseUrl);
    const call = apiClient(stage.server.baseUrl, () => token);
    const task = await runLinkTask(call, { url: stage.videoUrl, title: 'Brand talk' });
    expect(task.status).toBe('DONE');
    const [moment] = await call<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`);
    const logoFile = path.join(stage.mediaDir, 'logo.png');
    await runFfmpeg(['-f', 'lavfi', '-i', 'color=c=red:size=240x120', '-frames:v', '1', logoFile]);

    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto('/settings/brand');
    await page.getByRole('button', { name: 'New brand kit' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Red mark');
    await page.locator('input[type="file"]').setInputFiles(logoFile);
    await chooseOption(page, 'Logo corner', 'Top left');
    await page.getByTestId('brand-kit-preview').locator('img').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Make kit' }).click();
    await page.getByText('Red mark').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const previews: CaptionPreview[] = [];
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (!response.url().endsWith('/api/captions/preview') || response.status() !== 200) return;
      // A preview answered while the page moves on has no body left to read, and no one sees it.
      const reply = (await response.json().catch(() => null)) as { data: CaptionPreview } | null;
      if (!reply) return;
      previews.push(reply.data);
      bodies.push(response.request().postData() ?? '');
    });
    await page.goto(`/moment/${moment!.id}/clip`);
    await chooseOption(page, 'Brand kit', 'Red mark');
    const logo = page.getByTestId('clip-logo');
    await logo.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const frame = page.getByTestId('clip-preview');
    await expect
      .poll(() => frame.getAttribute('data-caption-state'), { timeout: 30_000 })
      .toBe('ready');

    // The look chosen with the style controls, then kept in the kit for every clip made with it.
    const textColour = page.getByRole('textbox', { name: 'Text colour' });
    await textColour.fill('#FFEE00');
    await textColour.press('Enter');
    const highlight = page.getByRole('textbox', { name: 'Highlight colour' });
    await highlight.fill('#FF00FF');
    await highlight.press('Enter');
    // The captions' middle up to half the frame's height.
    const position = page.getByRole('slider', { name: 'Vertical position' });
    await position.focus();
    await page.keyboard.press('Home');
    for (let step = 0; step < 40; step++) await page.keyboard.press('ArrowRight');
    expect(Number(await position.getAttribute('aria-valuenow'))).toBeCloseTo(0.5, 2);
    const saved = page.waitForResponse(
      (response) =>
        response.url().includes('/api/brand_kit/') && response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Save changes to kit' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByRole('status').filter({ hasText: 'Saved to Red mark' }).waitFor();
    const kits = await call<{ id: string; style: Record<string, unknown> }[]>(
      'GET',
      '/api/brand_kit/list',
    );
    expect(kits[0]!.style).toMatchObject({
      text_color: '#FFEE00',
      highlight_color: '#FF00FF',
      position_y: 0.5,
    });

    // The clip keeps its kit, and the kit's look fills the controls, after a reload.
    await expect
      .poll(async () => {
        const draft = await call<{ settings: Record<string, unknown> } | null>(
          'GET',
          `/api/highlight_moment/draft?id=${moment!.id}`,
        );
        return draft && { kit: draft.settings.brand_kit_id, style: draft.settings.style };
      })
      .toEqual({ kit: kits[0]!.id, style: {} });
    await page.reload();
    await expect
      .poll(() => frame.getAttribute('data-caption-state'), { timeout: 30_000 })
      .toBe('ready');
    const picker = page
      .getByRole('textbox', { name: 'Brand kit', exact: true })
      .or(page.getByRole('combobox', { name: 'Brand kit', exact: true }))
      .first();
    expect(await picker.inputValue()).toBe('Red mark');
    expect(await textColour.inputValue()).toBe('#FFEE00');
    expect(await highlight.inputValue()).toBe('#FF00FF');
    expect(await page.getByRole('button', { name: 'Reset to brand kit' }).isDisabled()).toBe(true);
    await logo.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const [frameBox, logoBox] = [(await frame.boundingBox())!, (await logo.boundingBox())!];
    // Top left, where the export puts it.
    expect(logoBox.x - frameBox.x).toBeLessThan(frameBox.width * 0.2);
    expect(logoBox.y - frameBox.y).toBeLessThan(frameBox.height * 0.15);
    const placed = previews.at(-1)!.logo!;
    expect(placed.position).toBe('top_left');
    const scale = frameBox.width / previews.at(-1)!.width;
    expect(Math.abs(logoBox.width - placed.width * scale)).toBeLessThan(3);

    // A time of the clip where a word is being said: the preview frame at that time.
    const shown = previews.at(-1)!;
    const word = shown.words[Math.min(1, shown.words.length - 1)]!;
    const wordMs = (word.start + word.end) / 2;
    await seekPreview(page, wordMs);
    const shot = path.join(stage.mediaDir, 'preview.png');
    await expect
      .poll(
        async () => {
          await frame.screenshot({ path: shot });
          return (await colourIn(shot, TEXT)).pixels + (await colourIn(shot, HIGHLIGHT)).pixels;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(150);

    // The export with the options the preview was asked with.
    const options = (JSON.parse(bodies.at(-1)!) as { options: Record<string, unknown> }).options;
    expect(options.brand_kit_id).toBeTruthy();
    const started = await call<Job>('POST', '/api/job', {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: moment!.id,
      options: { ...options, quality: '720p' },
    });
    let job = started;
    const deadline = Date.now() + 180_000;
    while (job.status === 'IN_PROGRESS' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = await call<Job>('GET', `/api/job/${started.job_id}`);
    }
    expect(job.status).toBe('DONE');
    const mp4 = path.join(stage.mediaDir, 'export.mp4');
    const reply = await fetch(`${stage.server.baseUrl}${job.file_url}`);
    await fs.writeFile(mp4, Buffer.from(await reply.arrayBuffer()));

    // The logo's middle: the same red over the picture in the preview frame and the export.
    const exportScale = 720 / previews.at(-1)!.width;
    const inExport = await pixelOf(
      mp4,
      (placed.x + placed.width / 2) * exportScale,
      (placed.y + placed.height / 2) * exportScale,
      1,
    );
    const box = await frame.boundingBox();
    const shotScale = (
      await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=width', '-of', 'csv=p=0', shot])
    ).stdout;
    const pngScale = Number(shotScale.trim()) / box!.width;
    const inPreview = await pixelOf(
      shot,
      (placed.x + placed.width / 2) * scale * pngScale,
      (placed.y + placed.height / 2) * scale * pngScale,
    );
    expect(inExport[0]!).toBeGreaterThan(180);
    inExport.forEach((channel, index) =>
      expect(Math.abs(channel - inPreview[index]!)).toBeLessThan(45),
    );

    // The captions at the same time: yellow words, the spoken one magenta, at half height, as
    // much of each colour in the export as in the preview.
    const clipSec = (wordMs - shown.start_ms) / 1000;
    for (const colour of [TEXT, HIGHLIGHT]) {
      const [previewed, exported] = [
        await colourIn(shot, colour),
        await colourIn(mp4, colour, clipSec),
      ];
      expect(previewed.pixels, `preview ${colour.join(',')}`).toBeGreaterThan(40);
      expect(exported.pixels, `export ${colour.join(',')}`).toBeGreaterThan(40);
      expect(Math.abs(exported.pixels - previewed.pixels)).toBeLessThan(previewed.pixels * 0.5);
      expect(Math.abs(exported.middle - 0.5)).toBeLessThan(0.06);
      expect(Math.abs(exported.middle - previewed.middle)).toBeLessThan(0.03);
    }
  }, 360_000);
});
