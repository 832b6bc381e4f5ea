/**
 * A free user sees the exports left in the clip editor before exporting, and at the
 * limit the dialog names the export limit, not credits (credits are still left). A real task runs
 * the pipeline on speech synthesised here so the editor has a real moment to export.
 */
import { fasterWhisperAvailability } from '@moments/ai/asr';
import type { Moment, Task } from '@moments/contract';
import { hasYtDlp } from '@moments/media/ingest';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type TestAccount } from './support/accounts';
import { apiClient, runLinkTask, type ApiCall } from './support/api';
import { DESKTOP_VIEWPORT, hasChromium } from './support/browser';
import { signedInContext } from './support/session';
import { startTalkStage, type TalkStage } from './support/talk';

/** The talk the moments e2e uses: announcements around a story the moment finder picks. */
const TALK = `Hello everyone, and thanks for joining us today. We have a few updates about the garden club schedule.
The meetings will stay on Tuesday evenings at seven. The library room is booked until the end of the year.
Please bring your own cups, since we ran out last week.
Now I want to tell you a story about my first marathon. I trained for six months and I felt ready.
On race day I started way too fast, because everybody around me was sprinting.
By mile twenty my legs were completely gone, and I was walking.
Then a tiny old woman in a pink tutu jogged past me, smiling.
She turned around and shouted, you can do it, honey, I am ninety one!
I laughed so hard that I started running again, and I finished the race.
That is when I learned that pride is a terrible fuel, but laughter is the best one.
Anyway, back to the club business. The seed swap is next month.
We need two volunteers for the sign up table. Thank you all for coming, and see you on Tuesday.`;

const asr = fasterWhisperAvailability();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !hasYtDlp() && 'yt-dlp (run scripts/setup.sh)',
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
].filter(Boolean);
if (missing.length) console.warn(`e2e/export-limit: skipping, missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('free plan export limit in the clip editor', () => {
  let stage: TalkStage;
  let account: TestAccount;
  let token: string;
  let moment: Moment;
  let apiCall: ApiCall;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stage = await startTalkStage(TALK, 'garden-club-exports.mp4');
    apiCall = apiClient(stage.server.baseUrl, () => token);
    account = newAccount('exports');
    const signup = await fetch(`${stage.server.baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    token = ((await signup.json()) as { data: { token: string } }).data.token;
    const task: Task = await runLinkTask(apiCall, {
      url: stage.videoUrl,
      title: 'Garden club, export limit',
    });
    expect(task.status).toBe('DONE');
    const moments = await apiCall<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`);
    moment = moments[0]!;
    expect(moment).toBeDefined();
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await stage?.close();
  });

  it('counts exports down before each export and names the export limit at the end', async () => {
    const { context } = await signedInContext(stage.browser, stage.server.baseUrl, {
      account,
      viewport: DESKTOP_VIEWPORT,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const remaining = page.getByTestId('exports-remaining').first();

    for (const left of [3, 2, 1]) {
      await page.goto(`/moment/${moment.id}/clip`);
      await expect
        .poll(() => remaining.textContent())
        .toBe(`${left} ${left === 1 ? 'export' : 'exports'} left on the free plan`);
      await page
        .getByRole('button', { name: /^Export .* MP4$/ })
        .first()
        .click();
      await page.waitForURL(/\/job\/[^/]+$/);
    }

    await page.goto(`/moment/${moment.id}/clip`);
    await expect
      .poll(() => remaining.textContent())
      .toBe('No exports left on the free plan: upgrade to export this clip');
    await page
      .getByRole('button', { name: /^Export .* MP4$/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: "You've reached your export limit" });
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain('all the exports included in the free plan');
    expect(text.toLowerCase()).not.toContain('credit');
    // Credits were not what ran out.
    const info = await apiCall<{
      entitlements: Array<{ feature: string; limit: number; usage: number }>;
    }>('GET', '/api/user/info');
    const credit = info.entitlements.find((e) => e.feature === 'CREDIT')!;
    expect(credit.limit - credit.usage).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Upgrade' }).click();
    await page.waitForURL('**/settings/plan');
  }, 180_000);
});
