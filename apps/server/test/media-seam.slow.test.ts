/**
 * Services reach the media tools only through the injected MediaRepository, so a
 * service runs alone with the fake. Here the real export renderer (its lease, stages, storage,
 * refunds) and the real uploads service run with FakeMediaRepository on PGlite; what is checked
 * is what the user sees: the export's status, its file and its charge, and the upload's answer.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Job } from '@moments/contract';
import { createTranslator } from '@moments/ai/translate';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { MediaError } from '@moments/media/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { AppError } from '../src/http/errors.js';
import { ExportRenderer } from '../src/modules/exports/export-renderer.js';
import { ExportsRepository } from '../src/modules/exports/exports.repository.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { UploadsRepository } from '../src/modules/uploads/uploads.repository.js';
import { UploadsService } from '../src/modules/uploads/uploads.service.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { entitlementOf } from './support/credits.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask, waitForJob } from './support/fixtures.js';

const WORDS = [
  { text: 'elephant', startMs: 500, endMs: 900 },
  { text: 'guitar', startMs: 1000, endMs: 1400 },
  { text: 'planet', startMs: 1500, endMs: 1900 },
];

let t: TestApp;
let workDir: string;
let sourceVideo: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-media-seam-'));
  // Creating an export (the API, with the real tools) reads the source's size: a 2 s clip.
  sourceVideo = path.join(workDir, 'source.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=10:duration=2'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    sourceVideo,
  ]);
  // No workers: the renderer under test takes the export instead of the real one.
  t = await startTestApp(await openPglite());
});

afterAll(async () => {
  await t?.close();
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

/** The real renderer with the fake tools, sharing the app's database, storage and billing. */
function rendererWith(media: FakeMediaRepository): ExportRenderer {
  const db = t.services.database.db;
  return new ExportRenderer({
    exports: new ExportsRepository(db),
    media,
    tasks: new TasksRepository(db),
    storage: t.services.storage,
    billing: t.services.billing,
    notifications: t.services.notifications,
    translator: createTranslator({}),
    workRoot: t.services.workRoot,
    background: t.services.background,
    leases: t.services.exportLeases,
  });
}

/** A moment export asked for through the API; answers its id and the run token to render it. */
async function startExport(headers: Record<string, string>, momentId: string) {
  const started = await t.app.inject({
    method: 'POST',
    url: '/api/job',
    headers,
    payload: {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: momentId,
      options: { aspect: '9:16', quality: '720p', template: 'one_word' },
    },
  });
  expect(started.statusCode, started.body).toBe(200);
  const jobId = Job.parse(started.json().data).job_id;
  const row = await new ExportsRepository(t.services.database.db).findById(jobId);
  return { jobId, runToken: row!.runToken! };
}

const exportUsage = async (userId: string) =>
  (await entitlementOf(t.services, userId, 'CANVAS_EXPORT')).usage;

describe('export renderer with the fake media repository', () => {
  it('renders an export to DONE with the file the tools made, charged once', async () => {
    const user = await signUp(t.app, 'fake-media-exporter');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video: sourceVideo,
      title: 'Three words',
      durationMs: 2000,
      words: WORDS,
      moment: { startMs: 0, endMs: 2000, title: 'All of it' },
    });
    const media = new FakeMediaRepository();
    media.renderedBytes = Buffer.from('the clip the fake encoder made');
    const { jobId, runToken } = await startExport(user.headers, momentId);

    await rendererWith(media).run(jobId, runToken);

    const done = await waitForJob(t.app, user.headers, jobId, 5000);
    expect(done.error_reason).toBeNull();
    expect(done).toMatchObject({ status: 'DONE', progress: 100 });
    const file = await t.app.inject({ method: 'GET', url: done.file_url! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.toString()).toBe('the clip the fake encoder made');
    expect(await exportUsage(user.userId)).toBe(1);
    // A second delivery of the same run finds it finished and renders nothing again.
    const rendersBefore = media.calls.filter((call) => call.tool === 'render').length;
    await rendererWith(media).run(jobId, runToken);
    expect(media.calls.filter((call) => call.tool === 'render')).toHaveLength(rendersBefore);
  });

  it('ends ERROR with a reason the user can read when the encoder fails, and gives the export back', async () => {
    const user = await signUp(t.app, 'fake-media-failure');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video: sourceVideo,
      title: 'Three words',
      durationMs: 2000,
      words: WORDS,
      moment: { startMs: 0, endMs: 2000, title: 'All of it' },
    });
    const media = new FakeMediaRepository();
    media.failing.set(
      'render',
      new MediaError('CORRUPT_MEDIA', 'The video file is damaged or incomplete.'),
    );
    const { jobId, runToken } = await startExport(user.headers, momentId);
    expect(await exportUsage(user.userId)).toBe(1);

    await rendererWith(media).run(jobId, runToken);

    const failed = await waitForJob(t.app, user.headers, jobId, 5000);
    expect(failed).toMatchObject({
      status: 'ERROR',
      error_reason: 'The video file is damaged or incomplete.',
      file_url: null,
    });
    expect(await exportUsage(user.userId)).toBe(0);
  });
});

describe('uploads service with the fake media repository', () => {
  const uploadsWith = (media: FakeMediaRepository) =>
    new UploadsService(
      new UploadsRepository(t.services.database.db),
      media,
      t.services.storage,
      t.services.fileUrls,
      workDir,
    );
  const received = async (name: string) => {
    const file = path.join(workDir, `${name}-${Date.now()}`);
    await fs.writeFile(file, 'received bytes');
    return file;
  };

  it("answers the video's meta from the probe and stores it with its thumbnail", async () => {
    const user = await signUp(t.app, 'fake-media-uploader');
    const media = new FakeMediaRepository();
    media.info = { ...media.info, durationMs: 42_500 };
    const file = await received('talk');

    const meta = await uploadsWith(media).ingest({
      userId: user.userId,
      file,
      originalName: 'My talk.mp4',
    });

    expect(meta).toMatchObject({ title: 'My talk', duration: 42.5, video_platform: 'upload' });
    expect(meta.thumbnail).toBeTruthy();
    const again = await uploadsWith(media).getVideoMeta(
      user.userId,
      meta.url.slice('upload://'.length),
    );
    expect(again).toMatchObject({ title: 'My talk', duration: 42.5 });
    // The received file was moved into storage, not left in the scratch folder.
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stores the length measured from the packets, not the one the header claims', async () => {
    const user = await signUp(t.app, 'fake-media-header');
    const media = new FakeMediaRepository();
    media.info = { ...media.info, durationMs: 20_000 };
    media.measuredMs = 4_200_000;

    const meta = await uploadsWith(media).ingest({
      userId: user.userId,
      file: await received('edited'),
      originalName: 'Edited.mp4',
    });

    expect(meta.duration).toBe(4200);
    expect(media.calls.map((call) => call.tool)).toEqual(['validateUpload', 'thumbnail']);
  });

  it('refuses a file that is not a video with a 422 and its code, keeping nothing', async () => {
    const user = await signUp(t.app, 'fake-media-not-video');
    const media = new FakeMediaRepository();
    media.failing.set(
      'validateUpload',
      new MediaError('NOT_A_VIDEO', 'The file is not a video we can read.'),
    );
    const file = await received('notes');

    const refused = await uploadsWith(media)
      .ingest({ userId: user.userId, file, originalName: 'notes.mp4' })
      .catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'NOT_A_VIDEO', status: 422 });
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(media.calls.map((call) => call.tool)).toEqual(['validateUpload']);
  });
});
