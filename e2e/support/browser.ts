import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
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
