/**
 * Exports at the encoder's pace: once a task is DONE, a low-priority background
 * job analyses the framing of its best moments (shots, faces, the picture under the captions) and
 * measures their loudness, kept in media_analyses; exporting such a moment then only renders, and
 * a trimmed or extended export analyses only what lies outside. A real upload of a speaker talking
 * (footage from real photos, speech read by espeak), transcribed by the real engine, on PGlite.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Job, Moment, Task } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { humanAssetsDir, makeFootage, synthesizeSpeech } from '@moments/media/testing';
import { probeMedia } from '@moments/media/probe';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { jobs, mediaAnalyses, tasks } from '../src/db/schema.js';
import type { JobOptions } from '../src/modules/exports/export-renderer.js';
import { waitForJob } from './support/fixtures.js';
import {
  signUp,
  startTestApp,
  uploadAndStartTask,
  waitForTask,
  type TestApp,
} from './support/app.js';

const TALK = `Good evening and welcome back to the workshop. Tonight I want to share one lesson.
Last spring our team shipped a feature nobody had asked for, and it failed within a week.
We had spent four months on it, and the numbers were brutal: only twelve people used it.
So we started talking to customers every single Friday, no slides and no agenda.
Within two months we found the three problems they really cared about, and we fixed them.
The lesson is simple. Ask first, build second, and measure everything you ship.
Thank you for listening, and see you next week.`;

const asr = fasterWhisperAvailability();
const missing = [
  !asr.available && `the speech engine (${asr.reason ?? 'run scripts/setup.sh'})`,
  !humanAssetsDir() && 'the demo images of @vladmandic/human',
].filter(Boolean);
if (missing.length)
  console.warn(`Skipping background framing tests: missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('framing prepared in the background', () => {
  let t: TestApp;
  let dir: string;
  let user: Awaited<ReturnType<typeof signUp>>;
  let task: Task;
  let best: Moment;
  let mediaKey: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-prepare-'));
    const wav = await synthesizeSpeech(TALK.replace(/\s+/g, ' '), path.join(dir, 'talk.wav'));
    const seconds = Math.ceil((await probeMedia(wav)).durationMs / 1000) + 1;
    const video = path.join(dir, 'talk.mp4');
    await makeFootage('speaker', video, {
      durationSec: seconds,
      audio: wav,
      width: 1280,
      height: 720,
    });
    t = await startTestApp(await openPglite(), { FRAMING_PREPARE_MOMENTS: '2' }, { workers: true });
    user = await signUp(t.app, 'speaker');
    const taskId = await uploadAndStartTask(t.app, user.headers, {
      name: 'Workshop.mp4',
      content: await fs.readFile(video),
    });
    task = Task.parse(await waitForTask(t.app, user.headers, taskId));
    expect(task.status, task.error_reason ?? '').toBe('DONE');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment/list?task_id=${task.id}`,
      headers: user.headers,
    });
    best = Moment.parse(list.json().data[0]);
    const [row] = await t.services.database.db
      .select({ mediaKey: tasks.mediaKey })
      .from(tasks)
      .where(eq(tasks.id, task.id));
    mediaKey = row!.mediaKey!;
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const analyses = (kind: string) =>
    t.services.database.db
      .select({ spanKey: mediaAnalyses.spanKey })
      .from(mediaAnalyses)
      .where(and(eq(mediaAnalyses.mediaKey, mediaKey), eq(mediaAnalyses.kind, kind)));

  const exportMoment = async (options: Record<string, unknown>) => {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: { type: 'VIRAL_MOMENT_EXPORT', moment_id: best.id, options },
    });
    expect(started.statusCode, started.body).toBe(200);
    return Job.parse(started.json().data).job_id;
  };

  it('analyses the best moments once the task is DONE, and their export only renders', async () => {
    // The job was queued when the task finished: wait for the queue to have done it.
    const deadline = Date.now() + 180_000;
    const count = async (states: string) =>
      (
        (await t.services.database.db.execute(
          sql.raw(
            `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'framing-prepare' AND state::text IN (${states})`,
          ),
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n;
    for (;;) {
      const queued = await count(`'created', 'retry', 'active', 'completed'`);
      if (queued > 0 && (await count(`'created', 'retry', 'active'`)) === 0) break;
      expect(Date.now(), 'the background analysis to finish').toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // It kept a plan and a loudness measure for the moments it prepared.
    expect((await analyses('framing')).length).toBeGreaterThanOrEqual(1);
    expect((await analyses('loudness')).length).toBeGreaterThanOrEqual(1);
    const decodedBefore = t.services.exportRenderer.framing.framesDecoded;
    const loudnessBefore = (await analyses('loudness')).length;

    const jobId = await exportMoment({ aspect: '9:16', quality: '1080p' });
    // The prepared plan goes with the job from the start: no analysing stage.
    const [row] = await t.services.database.db
      .select({ options: jobs.options })
      .from(jobs)
      .where(eq(jobs.id, jobId));
    expect((row!.options as JobOptions).framing?.layout).toBe('crop');
    const done = await waitForJob(t.app, user.headers, jobId, 240_000);
    expect(done.error_reason).toBeNull();
    expect(done.status).toBe('DONE');
    expect(t.services.exportRenderer.framing.framesDecoded).toBe(decodedBefore);
    expect((await analyses('loudness')).length).toBe(loudnessBefore);
  }, 420_000);

  it('a trimmed export decodes nothing new; an extended one only what lies outside', async () => {
    const spanMs = best.end - best.start;
    const before = t.services.exportRenderer.framing.framesDecoded;
    const trimmed = await exportMoment({
      aspect: '9:16',
      quality: '720p',
      start_ms: best.start + Math.round(spanMs / 4),
      end_ms: best.end - Math.round(spanMs / 4),
    });
    expect((await waitForJob(t.app, user.headers, trimmed, 240_000)).status).toBe('DONE');
    expect(t.services.exportRenderer.framing.framesDecoded).toBe(before);

    // Two seconds more at the start (or as much as the video has before the moment).
    const extraMs = Math.min(2000, best.start);
    const extended = await exportMoment({
      aspect: '9:16',
      quality: '720p',
      start_ms: best.start - extraMs,
      end_ms: best.end,
    });
    expect((await waitForJob(t.app, user.headers, extended, 240_000)).status).toBe('DONE');
    const decoded = t.services.exportRenderer.framing.framesDecoded - before;
    // About 8 decoded frames a second of new footage, never the whole span again.
    expect(decoded).toBeLessThanOrEqual(Math.ceil((extraMs / 1000) * 8) + 12);
    expect(decoded).toBeLessThan((spanMs / 1000) * 8);
  }, 420_000);
});
