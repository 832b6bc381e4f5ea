/// <reference lib="dom" />
/**
 * The clip studio's first open (it once took 14 s until the preview settled, 1.6 s warm): a real
 * server and build, a real task from a spoken 1080p talk, and Chromium opening /moment/{id}/clip
 * with an empty cache; the talk is a 1080p video. Measured from the navigation: the first video frame on screen, the captions
 * drawn by libass, the export's framing applied, and the preview settled (all three). Beside them,
 * in the same run, the limit: the same browser opening the app's home page cold (the shell every
 * page pays), so the ratio says what the studio itself adds. Then a warm open (cache filled).
 * `STUDIO_BENCH_RUNS` sets the number of cold opens (default 3; the median is printed).
 */
import os from 'node:os';
import path from 'node:path';
import { makeTestVideo } from '../packages/media/test/support/index';
import type { Moment } from '../packages/contract/src/index';
import { newAccount } from '../e2e/support/accounts';
import { apiClient, runLinkTask } from '../e2e/support/api';
import { startTalkStage } from '../e2e/support/talk';
import type { Browser } from 'playwright-core';

const TALK = `Welcome back to the workshop. Today we build a bookshelf from one sheet of plywood.
Measure twice and cut once: a straight cut is the difference between a shelf and firewood.
Sand every edge, then glue and screw the sides before the glue sets.
The last secret is patience: let the finish dry overnight before you load any books on it.
That is all for today. Thanks for building with me, and see you next week.`;

interface Open {
  firstFrameMs: number;
  captionsMs: number;
  framingMs: number;
  settledMs: number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function openStudio(
  browser: Browser,
  baseUrl: string,
  email: string,
  password: string,
  path: string,
) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  await context.request.post('/api/auth/login', { data: { email, password } });
  await context.addInitScript(() => {
    for (const key of ['welcomeOfferSeen', 'communityChatClosed', 'updateBannerDismissed']) {
      localStorage.setItem(`moments.${key}`, '1');
    }
    localStorage.setItem('moments.yearlyGuardDismissed', 'free');
  });
  const page = await context.newPage();
  const measure = async (): Promise<Open> => {
    const started = Date.now();
    // The export's framing plan for the preview (face analysis on a first open).
    const framing = page.waitForResponse(
      (response) => response.url().includes('/api/captions/framing'),
      { timeout: 120_000 },
    );
    await page.goto(path, { waitUntil: 'commit' });
    const at = async (predicate: () => boolean) => {
      await page.waitForFunction(predicate, undefined, { timeout: 120_000, polling: 50 });
      return Date.now() - started;
    };
    const [firstFrameMs, captionsMs, framingMs] = await Promise.all([
      at(() => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="clip-video"]');
        return !!video && video.readyState >= 2 && video.videoWidth > 0;
      }),
      at(() => !!document.querySelector('[data-caption-state="ready"]')),
      framing.then(() => Date.now() - started),
    ]);
    return {
      firstFrameMs,
      captionsMs,
      framingMs,
      settledMs: Math.max(firstFrameMs, captionsMs, framingMs),
    };
  };
  const cold = await measure();
  const warm = await measure();
  await context.close();
  return { cold, warm };
}

async function openHome(browser: Browser, baseUrl: string): Promise<number> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const started = Date.now();
  await page.goto('/home', { waitUntil: 'commit' });
  await page.getByRole('textbox', { name: 'Video link or search' }).waitFor({ timeout: 60_000 });
  const ms = Date.now() - started;
  await context.close();
  return ms;
}

export default async function run(): Promise<void> {
  const runs = Number(process.env.STUDIO_BENCH_RUNS ?? 3);
  const stage = await startTalkStage(TALK, 'workshop.mp4');
  try {
    const baseUrl = stage.server.baseUrl;
    const account = newAccount('studio-bench');
    const signup = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    const token = ((await signup.json()) as { data: { token: string } }).data.token;
    const call = apiClient(baseUrl, () => token);
    // The talk as a 1080p video, as people upload them (the stage's own is 320x240).
    const fullHd = path.join(stage.mediaDir, 'workshop-1080p.mp4');
    await makeTestVideo(fullHd, {
      audio: path.join(stage.mediaDir, 'talk.wav'),
      width: 1920,
      height: 1080,
    });
    const task = await runLinkTask(call, {
      url: stage.videoUrl.replace(/workshop\.mp4$/, 'workshop-1080p.mp4'),
      title: 'Workshop',
    });
    if (task.status !== 'DONE') throw new Error(`task failed: ${task.error_reason}`);
    const moments = await call<Moment[]>('GET', `/api/highlight_moment/list?task_id=${task.id}`);
    const cold: Open[] = [];
    const warm: Open[] = [];
    const shell: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Another moment each run where the talk has several, so a cold open pays its framing too.
      const moment = moments[i % moments.length]!;
      shell.push(await openHome(stage.browser, baseUrl));
      const opened = await openStudio(
        stage.browser,
        baseUrl,
        account.email,
        account.password,
        `/moment/${moment.id}/clip`,
      );
      cold.push(opened.cold);
      warm.push(opened.warm);
    }
    const line = (label: string, opens: Open[], limit: number) => {
      const pick = (key: keyof Open) => median(opens.map((open) => open[key]));
      const settled = pick('settledMs');
      console.log(
        `${label}: first frame ${(pick('firstFrameMs') / 1000).toFixed(2)} s, captions ${(pick('captionsMs') / 1000).toFixed(2)} s, framing ${(pick('framingMs') / 1000).toFixed(2)} s, settled ${(settled / 1000).toFixed(2)} s | home shell cold ${(limit / 1000).toFixed(2)} s, ratio ${(settled / limit).toFixed(2)} | goal settled <= 3 s`,
      );
    };
    const limit = median(shell);
    line(`studio first open (cold cache, median of ${runs})`, cold, limit);
    line('studio second open (warm cache)', warm, limit);
    console.log(
      `load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}, ${os.cpus().length} cores`,
    );
  } finally {
    await stage.close();
  }
}
