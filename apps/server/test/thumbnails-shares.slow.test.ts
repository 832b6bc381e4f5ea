import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Moment } from '@moments/contract';
import { Job, Task } from '@moments/contract';
import { fasterWhisperAvailability } from '@moments/ai/asr';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { probeMedia } from '@moments/media/probe';
import {
  makeTestVideo,
  pictureLooks,
  serveFiles,
  synthesizeSpeech,
  type ServedFiles,
} from '@moments/media/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, moments as momentRows, tasks } from '../src/db/schema.js';
import { ThumbnailsRepository } from '../src/modules/thumbnails/thumbnails.repository.js';
import { ThumbnailsService } from '../src/modules/thumbnails/thumbnails.service.js';
import {
  multipartFile,
  signUp,
  startTestApp,
  waitForMomentPictures,
  waitForTask,
  type TestApp,
} from './support/app.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { waitForJob } from './support/fixtures.js';

// Every video gets a stored thumbnail at ingest (a frame worth seeing, not the black
// first frame), every moment its own, every export a poster; a link page's image is fetched by the
// server through the link guard and stored; each is served to its owner and to visitors of a share.

const TALK = `Good morning and welcome. Today I want to tell you about the best bread I ever baked.
It took three days, a lot of patience and one very hot oven. The crust sang as it cooled.`;

const asr = fasterWhisperAvailability();
if (!asr.available) console.warn(`thumbnails: skipping, ${asr.reason ?? 'no speech engine'}`);

/** Mean luma and contrast of a JPEG answer. */
async function looksOf(jpeg: Buffer, dir: string) {
  const file = path.join(dir, `look-${Math.random().toString(36).slice(2)}.jpg`);
  await fs.writeFile(file, jpeg);
  return pictureLooks(file);
}

describe.skipIf(!asr.available).each(DATABASE_TARGETS)('thumbnails on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let dir: string;
  let served: ServedFiles;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let task: Task;
  let job: Job | undefined;
  /** The exported MP4's frame size, as ffprobe reads it. */
  let exportedSize: { width: number; height: number } | undefined;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-thumbs-'));
    const wav = path.join(dir, 'talk.wav');
    await synthesizeSpeech(TALK, wav, { engine: 'festival' });
    // Four seconds of black picture first: a first-frame thumbnail would be black.
    await makeTestVideo(path.join(dir, 'talk.mp4'), { audio: wav, blackIntroSec: 4 });
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1200x630',
      '-frames:v',
      '1',
      path.join(dir, 'og.png'),
    ]);
    served = await serveFiles(dir);
    // A stand-in for the built app: the share pages serve it with their preview tags.
    const web = path.join(dir, 'web');
    await fs.mkdir(web);
    await fs.writeFile(
      path.join(web, 'index.html'),
      '<!doctype html><html><head><title>Moments</title></head><body></body></html>',
    );
    t = await startTestApp(
      await target.open(),
      { WEB_DIST_DIR: web, PUBLIC_URL: 'https://moments.test' },
      { workers: true },
    );
    owner = await signUp(t.app, 'thumbs');
    stranger = await signUp(t.app, 'stranger');

    const body = multipartFile('talk.mp4', await fs.readFile(path.join(dir, 'talk.mp4')));
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: { ...owner.headers, ...body.headers },
    });
    expect(uploaded.statusCode).toBe(200);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/highlight_moment/task/start?url_source=upload&source_lang=en&caption_display=source',
      headers: owner.headers,
      payload: uploaded.json().data,
    });
    expect(started.statusCode, started.body).toBe(200);
    task = Task.parse(await waitForTask(t.app, owner.headers, started.json().data.id));
    expect(task.status, task.error_reason ?? '').toBe('DONE');
    // The moments' pictures follow DONE.
    await waitForMomentPictures(t.app, owner.headers, task.id);
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await served?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it("stores the upload's thumbnail past its black opening, for its owner only", async (ctx) => {
    if (skip) return ctx.skip(skip);
    expect(task.video.thumbnail).toBe(`/api/thumbnail/task/${task.id}`);
    const picture = await get(task.video.thumbnail!, owner.headers);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    const looks = await looksOf(picture.rawPayload, dir);
    expect(looks.brightness).toBeGreaterThan(40);
    expect(looks.contrast).toBeGreaterThan(20);
    // The list the library reads carries it too.
    const list = await get('/api/highlight_moment/task/list', owner.headers);
    expect(list.json().data.map((row: Task) => row.video.thumbnail)).toContain(
      task.video.thumbnail,
    );
    for (const headers of [stranger.headers, {}]) {
      expect((await get(task.video.thumbnail!, headers)).statusCode).toBe(404);
    }
  });

  it('gives every moment its own frame, shown to visitors only while it is shared', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const moments = (
      await get(`/api/highlight_moment/list?task_id=${task.id}`, owner.headers)
    ).json().data as Moment[];
    expect(moments.length).toBeGreaterThan(0);
    for (const moment of moments)
      expect(moment.thumbnail).toBe(`/api/thumbnail/moment/${moment.id}`);
    const moment = moments[0]!;
    expect((await get(moment.thumbnail!, owner.headers)).statusCode).toBe(200);
    expect((await get(moment.thumbnail!)).statusCode).toBe(404);

    await t.app.inject({
      method: 'POST',
      url: `/api/highlight_moment/share?id=${moment.id}`,
      headers: owner.headers,
    });
    const visitor = await get(moment.thumbnail!);
    expect(visitor.statusCode).toBe(200);
    expect(visitor.headers['cache-control']).toContain('public');
    // The visitor's view shows the moment's frame, not the owner's video thumbnail.
    const view = (await get(`/api/highlight_moment?id=${moment.id}`)).json().data;
    expect(view.video.thumbnail).toBe(moment.thumbnail);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/highlight_moment/share?id=${moment.id}`,
      headers: owner.headers,
    });
    expect((await get(moment.thumbnail!)).statusCode).toBe(404);
  });

  it('gives an export a poster: an exposed frame of the exported clip, at its aspect', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const [moment] = (
      await get(`/api/highlight_moment/list?task_id=${task.id}`, owner.headers)
    ).json().data as Moment[];
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: owner.headers,
      payload: {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: moment!.id,
        options: { aspect: 'original', quality: '720p' },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    job = Job.parse(await waitForJob(t.app, owner.headers, created.json().data.job_id));
    expect(job.status, job.error_reason ?? '').toBe('DONE');
    expect(job.poster_url).toBe(`/api/thumbnail/job/${job.job_id}`);
    const poster = await get(job.poster_url!, owner.headers);
    expect(poster.statusCode).toBe(200);
    const file = path.join(dir, 'poster.jpg');
    await fs.writeFile(file, poster.rawPayload);
    const picture = await probeMedia(file);
    expect(picture.videoCodec).toBe('mjpeg');
    expect(picture.width).toBe(640);
    // A frame of the clip as exported (its shape), not a black frame of the source's intro.
    const mp4 = path.join(dir, 'export.mp4');
    await fs.writeFile(mp4, (await get(job.file_url!, owner.headers)).rawPayload);
    const clip = await probeMedia(mp4);
    exportedSize = { width: clip.width!, height: clip.height! };
    expect(picture.width! / picture.height!).toBeCloseTo(clip.width! / clip.height!, 1);
    expect((await pictureLooks(file)).brightness).toBeGreaterThan(40);
    expect((await get(job.poster_url!, stranger.headers)).statusCode).toBe(404);
  });

  it('shares the export as an unlisted clip page with video preview tags; revoking answers 404', async (ctx) => {
    if (skip) return ctx.skip(skip);
    if (!job) throw new Error('the export test did not make an export');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/job/share?id=${job.job_id}`,
      headers: stranger.headers,
    });
    expect(refused.statusCode).toBe(404);
    const shared = await t.app.inject({
      method: 'POST',
      url: `/api/job/share?id=${job.job_id}`,
      headers: owner.headers,
    });
    expect(shared.statusCode).toBe(200);
    const { path: pagePath, share_id: shareId } = shared.json().data;
    expect(pagePath).toBe(`/s/${shareId}?clip=1`);

    // A stranger (no session) reads the page, its tags, the MP4 and the poster.
    const page = (await get(`/api/share/${shareId}?clip=1`)).json().data;
    expect(page).toMatchObject({ kind: 'clip', title: job.title, poster_url: job.poster_url });
    const html = (await get(pagePath)).body;
    const tag = (property: string) =>
      new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1];
    expect(tag('og:type')).toBe('video.other');
    expect(tag('og:title')).toBe(job.title);
    expect(tag('og:video')).toBe(`https://moments.test/api/share/${shareId}/clip.mp4`);
    expect(tag('og:video:type')).toBe('video/mp4');
    // An export in the source's own shape still tells players its size (the MP4's own).
    expect(Number(tag('og:video:width'))).toBe(exportedSize!.width);
    expect(Number(tag('og:video:height'))).toBe(exportedSize!.height);
    expect(tag('og:image')).toBe(`https://moments.test${job.poster_url}`);
    expect(Number(tag('video:duration'))).toBe(Math.round(job.duration_ms! / 1000));
    // Said what it is, not a generic line: its length and where it was cut from.
    expect(tag('og:description')).toMatch(/^A \d+ s clip\b/);
    const mp4 = await get(page.video_url, { range: 'bytes=0-99' });
    expect(mp4.statusCode).toBe(206);
    expect(mp4.headers['content-type']).toBe('video/mp4');
    expect((await get(job.poster_url!)).statusCode).toBe(200);

    await t.app.inject({
      method: 'DELETE',
      url: `/api/job/share?id=${job.job_id}`,
      headers: owner.headers,
    });
    expect((await get(pagePath)).statusCode).toBe(404);
    expect((await get(`/api/share/${shareId}?clip=1`)).statusCode).toBe(404);
    expect((await get(page.video_url)).statusCode).toBe(404);
    expect((await get(job.poster_url!)).statusCode).toBe(404);
  });

  it("gives a shared moment's page the same video preview tags", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const [moment] = (
      await get(`/api/highlight_moment/list?task_id=${task.id}`, owner.headers)
    ).json().data as Moment[];
    const before = await get(`/home/moment/${moment!.id}`);
    expect(before.statusCode).toBe(200);
    expect(before.body).not.toContain('og:video');
    const shared = await t.app.inject({
      method: 'POST',
      url: `/api/highlight_moment/share?id=${moment!.id}`,
      headers: owner.headers,
    });
    const html = (await get(`/home/moment/${moment!.id}`)).body;
    expect(html).toContain(
      `<meta property="og:video" content="https://moments.test/api/highlight_moment/shared_media/${shared.json().data.share_id}" />`,
    );
    expect(html).toContain(
      `<meta property="og:image" content="https://moments.test/api/thumbnail/moment/${moment!.id}" />`,
    );
    expect(html).toContain(
      `<meta property="video:duration" content="${Math.round((moment!.end - moment!.start) / 1000)}" />`,
    );
    expect(html).toContain(
      `<meta property="og:title" content="${moment!.title.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" />`,
    );
    await t.app.inject({
      method: 'DELETE',
      url: `/api/highlight_moment/share?id=${moment!.id}`,
      headers: owner.headers,
    });
  });

  it("stores a link page's image through the link guard, or a frame when the guard refuses it", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const [row] = await t.services.database.db.select().from(tasks).limit(1);
    const source = path.join(dir, 'talk.mp4');
    const facts = { durationMs: 8000, remoteImage: `${served.url}/og.png` };
    // The test server is on 127.0.0.1: the guard refuses it (MEDIA_FETCH_ALLOW_HOSTS is unset), so
    // the image is never requested and a frame of the video stands in.
    const refused = await t.services.thumbnails.forTask(
      { ...row!, thumbnailKey: null, video: { url: 'https://x.test' } },
      source,
      facts,
    );
    expect(refused).toBe(`users/${row!.userId}/tasks/${row!.id}/thumbnail.jpg`);
    expect(served.requests).not.toContain('/og.png');

    const allowing = new ThumbnailsService(
      new ThumbnailsRepository(t.services.database.db),
      t.services.media,
      t.services.storage,
      {
        tmpDir: path.join(t.dataDir, 'tmp'),
        allowHosts: ['127.0.0.1'],
      },
    );
    const other = {
      ...row!,
      id: crypto.randomUUID(),
      thumbnailKey: null,
      video: { url: 'https://x.test' },
    };
    // The preview card of the link stored the page's image once; the video made from the link
    // takes that picture over (no second fetch) and the preview goes with it.
    const preview = await allowing.linkPreview(row!.userId, facts.remoteImage);
    expect(preview).toMatch(/^\/api\/thumbnail\/preview\/[a-f0-9]{32}$/);
    expect((await get(preview!, owner.headers)).statusCode).toBe(200);
    const fetches = () => served.requests.filter((url) => url === '/og.png').length;
    expect(fetches()).toBe(1);
    const key = await allowing.forTask(other, source, facts);
    expect(fetches()).toBe(1);
    expect((await get(preview!, owner.headers)).statusCode).toBe(404);
    const stored = path.join(dir, 'stored.jpg');
    await t.services.storage.withLocalFile(key!, (file) => fs.copyFile(file, stored));
    // Re-encoded by us: a JPEG of the page's 1200x630 image at thumbnail width.
    expect(await probeMedia(stored)).toMatchObject({
      videoCodec: 'mjpeg',
      width: 640,
      height: 336,
    });
  });

  it('backfills the pictures of videos, moments and exports stored before thumbnails existed', async (ctx) => {
    if (skip) return ctx.skip(skip);
    if (!job) throw new Error('the export test did not make an export');
    const { db } = t.services.database;
    const storage = t.services.storage;
    // The rows as a version before stored thumbnails left them: no keys, no files, the link
    // page's image URL in the video meta.
    const [row] = await db.select().from(tasks).where(eq(tasks.id, task.id));
    const old = await db.select().from(momentRows).where(eq(momentRows.taskId, task.id));
    for (const moment of old) await storage.delete(moment.thumbnailKey!);
    await db.update(momentRows).set({ thumbnailKey: null }).where(eq(momentRows.taskId, task.id));
    await storage.delete(row!.thumbnailKey!);
    const video = { ...(row!.video as object), thumbnail: 'https://images.invalid/og.jpg' };
    await db.update(tasks).set({ thumbnailKey: null, video }).where(eq(tasks.id, task.id));
    const [jobRow] = await db.select().from(jobs).where(eq(jobs.id, job.job_id));
    await storage.delete(jobRow!.posterKey!);
    await db.update(jobs).set({ posterKey: null }).where(eq(jobs.id, job.job_id));
    expect((await get(`/api/thumbnail/task/${task.id}`, owner.headers)).statusCode).toBe(404);

    const done = await t.services.thumbnails.backfill();
    expect(done).toEqual({ videos: 1, moments: old.length, posters: 1 });
    const picture = await get(`/api/thumbnail/task/${task.id}`, owner.headers);
    expect(picture.statusCode).toBe(200);
    expect((await looksOf(picture.rawPayload, dir)).brightness).toBeGreaterThan(40);
    const listed = (
      await get(`/api/highlight_moment/list?task_id=${task.id}`, owner.headers)
    ).json().data as Moment[];
    for (const moment of listed) {
      expect((await get(moment.thumbnail!, owner.headers)).statusCode).toBe(200);
    }
    expect((await get(`/api/thumbnail/job/${job.job_id}`, owner.headers)).statusCode).toBe(200);
    // The hot-linked URL is gone from the row; a second run finds nothing left to do.
    const [after] = await db.select().from(tasks).where(eq(tasks.id, task.id));
    expect((after!.video as { thumbnail?: unknown }).thumbnail).toBeNull();
    expect(await t.services.thumbnails.backfill()).toEqual({ videos: 0, moments: 0, posters: 0 });
  });
});
