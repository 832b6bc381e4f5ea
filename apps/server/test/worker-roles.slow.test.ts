/**
 * Scale-out switches: a worker started with WORKER_QUEUES=render renders exports but never takes a
 * task (transcription) job, so GPU transcription machines and CPU render machines run the same
 * code; and the GPU switches (ASR_DEVICE=cuda, VIDEO_ENCODER=nvenc) are refused with a clear
 * message on a machine without the hardware, instead of failing every job later.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cudaAvailability } from '@moments/ai/asr';
import { Job } from '@moments/contract';
import { nvencAvailability, runFfmpeg } from '@moments/media/ffmpeg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { loadConfig } from '../src/config/index.js';
import { tasks } from '../src/db/schema.js';
import { assertAccelerationAvailable } from '../src/queue/acceleration.js';
import { signUp, startTestApp, uploadAndStartTask, type TestApp } from './support/app.js';
import { seedFinishedTask, waitForJob } from './support/fixtures.js';

const hasNvenc = (await nvencAvailability()).available;
const hasCuda = (await cudaAvailability()).available;
if (hasNvenc) console.warn('NVENC works here: the NVENC refusal test is skipped');
if (hasCuda) console.warn('a CUDA GPU is visible here: the CUDA refusal test is skipped');

describe('GPU switches on a machine without the hardware', () => {
  it.skipIf(hasNvenc)(
    'refuses VIDEO_ENCODER=nvenc, naming h264_nvenc and the way back',
    async () => {
      const config = loadConfig({ VIDEO_ENCODER: 'nvenc' });
      await expect(assertAccelerationAvailable(config)).rejects.toThrow(
        /VIDEO_ENCODER=nvenc.*h264_nvenc.*unset VIDEO_ENCODER/s,
      );
    },
  );

  it.skipIf(hasCuda)('refuses ASR_DEVICE=cuda, naming the missing GPU', async () => {
    const config = loadConfig({ ASR_DEVICE: 'cuda' });
    await expect(assertAccelerationAvailable(config)).rejects.toThrow(/ASR_DEVICE=cuda/);
  });

  it('checks only what the worker’s queues use, and nothing when the switches are off', async () => {
    // A render-only worker never transcribes: its ASR_DEVICE does not matter.
    await expect(
      assertAccelerationAvailable(loadConfig({ ASR_DEVICE: 'cuda', WORKER_QUEUES: 'render' })),
    ).resolves.toBeUndefined();
    await expect(assertAccelerationAvailable(loadConfig({}))).resolves.toBeUndefined();
    expect(() => loadConfig({ WORKER_QUEUES: 'gpu' })).toThrow(/WORKER_QUEUES/);
  });
});

describe('a render-only worker', () => {
  let t: TestApp;
  let workDir: string;
  let video: string;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-roles-'));
    video = path.join(workDir, 'talk.mp4');
    await runFfmpeg([
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=3'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=300:duration=3'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', video],
    ]);
    t = await startTestApp(await openPglite(), { WORKER_QUEUES: 'render' }, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  });

  it('renders exports but leaves tasks for a transcription worker', async () => {
    const user = await signUp(t.app, 'roles');
    const taskId = await uploadAndStartTask(
      t.app,
      user.headers,
      { name: 'talk.mp4', content: await fs.readFile(video) },
      'url_source=upload&source_lang=en',
    );

    // An export queued after the task is taken and finished by this worker...
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video,
      title: 'Pattern',
      durationMs: 3000,
      words: [{ text: 'hello', startMs: 500, endMs: 1000 }],
      moment: { startMs: 0, endMs: 2000, title: 'Pattern' },
    });
    const job = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options: { aspect: 'original', caption_display: 'none' },
      },
    });
    expect(job.statusCode, job.body).toBe(200);
    const done = await waitForJob(t.app, user.headers, Job.parse(job.json().data).job_id);
    expect(done.status).toBe('DONE');

    // ...while the task was never started: it waits, queued, for a worker that takes `asr`.
    const [task] = await t.services.database.db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(task!.status).toBe('START');
    expect(task!.progress).toBe(0);
  }, 180_000);
});
