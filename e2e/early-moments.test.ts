/**
 * A long video is transcribed in chunks, and the task page shows the transcript
 * growing and provisional moments (pushed over STOMP as each chunk is merged) before the task is
 * DONE; at the end the final ranking replaces them.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { makeTestVideo, serveFiles, type ServedFiles } from '@moments/media/testing';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishRecordings, joinRecordings } from '../packages/ai/test/support/recordings';
import { hasChromium, launchChromium } from './support/browser';
import { startMomentsServer, type RunningMomentsServer } from './support/server';
import { signedInContext } from './support/session';
import { ensureWebBuild } from './support/webBuild';

const asr = fasterWhisperAvailability();
const recordings = englishRecordings();
const missing = [
  !hasChromium && 'Chromium (/usr/bin/chromium)',
  !asr.available && `the speech engine (${asr.reason})`,
  recordings.length < 8 && 'real speech (../shared/media and pocketsphinx-testdata)',
].filter(Boolean);
if (missing.length) console.warn(`e2e/early-moments: skipping, missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('first moments early', () => {
  let server: RunningMomentsServer;
  let browser: Browser;
  let served: ServedFiles;
  let dir: string;
  let context: BrowserContext;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-e2e-early-'));
    // About 2.5 minutes of real read speech (every recording, twice in different orders), cut into
    // 20 s chunks heard one after the other: the page is open long before the last one is done.
    const talk = [...recordings, ...[...recordings].reverse()];
    const joined = await joinRecordings(talk, path.join(dir, 'talk.wav'), [900, 1500, 600]);
    await makeTestVideo(path.join(dir, 'reading.mp4'), { audio: joined.file });
    [, served, server, browser] = await Promise.all([
      ensureWebBuild(),
      serveFiles(dir),
      startMomentsServer({
        MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1',
        ASR_CHUNK_SECONDS: '20',
        ASR_PROCESSES: '1',
      }),
      launchChromium(),
    ]);
    context = (await signedInContext(browser, server.baseUrl)).context;
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await served?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('shows the transcript and provisional moments while transcribing, then the final ranking', async () => {
    const page = await context.newPage();
    const reply = await page.request.post(
      '/api/highlight_moment/task/start?url_source=direct&source_lang=auto&caption_display=source',
      { data: { url: `${served.url}/reading.mp4`, title: 'A long reading' } },
    );
    expect(reply.status(), await reply.text()).toBe(200);
    const taskId = ((await reply.json()) as { data: { id: string } }).data.id;
    await page.goto(`/video/${taskId}/moments`);

    // Provisional moments appear while the progress panel (shown until DONE) is still there.
    const provisional = page.getByTestId('provisional-moments');
    await provisional.waitFor({ timeout: 240_000 });
    await expect(page.getByTestId('task-status').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('moment-card').count()).resolves.toBe(0);
    expect(await provisional.textContent()).toMatch(/provisional/i);
    const heard = page.getByTestId('transcript-so-far');
    expect(await heard.textContent()).toMatch(/parts/);
    const task = (await (
      await page.request.get(`/api/highlight_moment/task?id=${taskId}`)
    ).json()) as { data: { status: string } };
    expect(task.data.status, 'provisional moments came before DONE').toBe('IN_PROGRESS');

    // The final ranking replaces them.
    await page.getByTestId('moment-card').first().waitFor({ timeout: 300_000 });
    await expect(provisional.count()).resolves.toBe(0);
    await page.close();
  }, 600_000);
});
