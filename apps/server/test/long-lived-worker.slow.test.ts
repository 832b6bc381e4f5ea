// A worker runs for weeks: what one task's chunks attach to the process must go with them.
// Found in the speed bench (an hour of speech in 26 chunks printed MaxListenersExceededWarning):
// every chunk left a listener, holding its controller, on the process's closing signal.
import { getEventListeners } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Task } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { probeMedia } from '@moments/media/probe';
import { makeTestVideo, synthesizeSpeech } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import {
  signUp,
  startTestApp,
  uploadAndStartTask,
  waitForTask,
  type TestApp,
} from './support/app.js';

const engine = fasterWhisperAvailability();
if (!engine.available) console.warn(`Skipping the long-lived worker test: ${engine.reason}`);

/** Plain talk, about 40 s when spoken; said four times it is cut into a dozen 10 s chunks. */
const TALK =
  'Most people water their tomatoes every evening, which keeps the roots near the surface. ' +
  'Water them deeply twice a week instead and the roots follow the moisture down. ' +
  'Deep roots find water in a dry spell, and the fruit splits far less after a storm. ' +
  'Mulch helps too: a layer of straw keeps the soil cool and stops the splashing that spreads blight. ' +
  'Pinch out the side shoots while they are small, so the plant puts its strength into fruit.';

describe.skipIf(!engine.available)('a worker that transcribes many chunks', () => {
  let t: TestApp;
  let dir: string;
  let video: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-long-lived-'));
    const wav = await synthesizeSpeech(
      [TALK, TALK, TALK, TALK].join(' '),
      path.join(dir, 'talk.wav'),
    );
    video = await makeTestVideo(path.join(dir, 'talk.mp4'), { audio: wav });
    t = await startTestApp(await openPglite(), { ASR_CHUNK_SECONDS: '10' }, { workers: true });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('keeps nothing of its chunks on the process once the task is done', async () => {
    const closing = t.services.background.signal;
    const before = getEventListeners(closing, 'abort').length;
    const seconds = (await probeMedia(video)).durationMs / 1000;
    expect(seconds, 'the talk is long enough for ten or more chunks').toBeGreaterThan(100);

    const user = await signUp(t.app, 'gardener');
    const taskId = await uploadAndStartTask(
      t.app,
      user.headers,
      { name: 'Tomatoes.mp4', content: await fs.readFile(video) },
      'url_source=upload&source_lang=en',
    );
    const task = Task.parse(await waitForTask(t.app, user.headers, taskId));
    expect(task.status, task.error_reason ?? '').toBe('DONE');

    // It really ran in chunks, all of them in this process.
    const chunks = await t.services.database.pglite!.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM asr_chunks WHERE task_id = $1',
      [task.id],
    );
    expect(chunks.rows[0]!.n).toBeGreaterThanOrEqual(10);
    // Nothing per chunk is left listening on the process's closing signal.
    expect(getEventListeners(closing, 'abort').length).toBeLessThanOrEqual(before + 1);
  }, 300_000);
});
