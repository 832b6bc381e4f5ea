import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

const CHROMIUM_PATH = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM_PATH);

/** Debian's Chromium, headless, with the flags a shared CI box needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-dev-shm-usage',
    ],
  });
}

export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };
export const PHONE_VIEWPORT = { width: 390, height: 844 };

/** Picks `option` in the Mantine select labelled `label` (a textbox or a combobox, by version). */
export async function chooseOption(page: Page, label: string, option: string | RegExp) {
  await page
    .getByRole('textbox', { name: label, exact: true })
    .or(page.getByRole('combobox', { name: label, exact: true }))
    .first()
    .click();
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * Asks for Spanish captions: where this install has no translation engine, the editor says that
 * this server cannot translate yet and how one is added, and its export button (named
 * `exportButton`) stays disabled.
 */
export async function chooseSpanishTranslation(page: Page, exportButton: string | RegExp) {
  await chooseOption(page, 'Captions show', 'Translation');
  await chooseOption(page, 'Translate into', /^Spanish/);
  const support = (await (await page.request.get('/api/captions/languages')).json()).data as {
    engine: string | null;
  };
  if (support.engine !== null) return;
  await expect
    .poll(() => page.getByTestId('translation-note').textContent())
    .toContain('cannot translate them yet');
  expect(
    await page
      .getByTestId('translation-note')
      .getByRole('link', { name: 'How translation is added' })
      .count(),
  ).toBe(1);
  expect(await page.getByRole('button', { name: exportButton }).first().isDisabled()).toBe(true);
}

/**
 * Seeks the paused preview to `ms` of the source and resolves with the time of the frame it
 * then shows (ms): the page frames each frame at that frame's own time, as the export does,
 * and a frame's time lies up to a frame before the time asked for.
 */
export async function seekPreview(page: Page, ms: number): Promise<number> {
  return page.getByTestId('clip-video').evaluate(async (video: HTMLVideoElement, seconds) => {
    video.pause();
    const landed = new Promise((resolve) =>
      video.addEventListener('seeked', resolve, { once: true }),
    );
    const shown = new Promise<number>((resolve) => {
      video.requestVideoFrameCallback((_now, meta) => resolve(meta.mediaTime));
      // A seek onto the frame already shown presents no new frame.
      setTimeout(() => resolve(video.currentTime), 2000);
    });
    video.currentTime = seconds;
    await landed;
    return (await shown) * 1000;
  }, ms / 1000);
}
