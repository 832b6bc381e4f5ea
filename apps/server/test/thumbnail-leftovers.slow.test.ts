/**
 * Thumbnail loose ends, on PGlite and PostgreSQL: the thumbnail backfill (run at every worker
 * start) marks a video whose media gives no frame, so the next start neither probes nor
 * downloads it again, while a video still gets its picture; and a link preview no task adopted
 * leaves storage with the hourly housekeeping once a day has passed, while an adopted one stays
 * as the video's thumbnail. On local disk and on S3 storage (moto).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { serveFiles, type ServedFiles } from '@moments/media/testing';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '../src/db/schema.js';
import type { S3Storage } from '../src/storage/index.js';
import type { MediaRepository } from '../src/modules/media/media.repository.js';
import { ThumbnailsRepository } from '../src/modules/thumbnails/thumbnails.repository.js';
import {
  LINK_PREVIEW_TTL_MS,
  ThumbnailsService,
} from '../src/modules/thumbnails/thumbnails.service.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { hasMoto, startMoto } from './support/moto.js';

const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite')!;
const SETUPS = [
  ...DATABASE_TARGETS.map((target) => ({ name: target.name, target, s3: false })),
  ...(hasMoto ? [{ name: 'pglite with S3 storage', target: pglite, s3: true }] : []),
];

describe.each(SETUPS)('thumbnail leftovers on $name', ({ target, s3 }) => {
  let skip: string | null = null;
  let t: TestApp;
  let dir: string;
  let served: ServedFiles;
  let userId: string;
  let moto: Awaited<ReturnType<typeof startMoto>> | undefined;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-thumb-leftovers-'));
    const lavfi = (source: string) => ['-f', 'lavfi', '-i', source];
    await runFfmpeg([...lavfi('sine=frequency=440:duration=3'), path.join(dir, 'talk.m4a')]);
    await runFfmpeg([
      ...lavfi('testsrc2=size=320x240:duration=3'),
      ...lavfi('sine=frequency=440:duration=3'),
      '-shortest',
      '-pix_fmt',
      'yuv420p',
      path.join(dir, 'talk.mp4'),
    ]);
    await runFfmpeg([
      ...lavfi('testsrc2=size=1200x630'),
      '-frames:v',
      '1',
      path.join(dir, 'og.png'),
    ]);
    await runFfmpeg([
      ...lavfi('testsrc=size=1200x630'),
      '-frames:v',
      '1',
      path.join(dir, 'og2.png'),
    ]);
    served = await serveFiles(dir);
    if (s3) moto = await startMoto();
    const bucket = 'moments-leftovers';
    t = await startTestApp(
      await target.open(),
      moto
        ? {
            STORAGE_DRIVER: 's3',
            S3_ENDPOINT: moto.endpoint,
            S3_BUCKET: bucket,
            S3_ACCESS_KEY_ID: 'test',
            S3_SECRET_ACCESS_KEY: 'test',
          }
        : {},
    );
    if (moto) {
      const client = (t.services.storage as S3Storage).client;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    }
    userId = (await signUp(t.app, 'leftovers')).userId;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await served?.close();
    await moto?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  /** The real media tools, counting their probes; the link guard lets the test server through. */
  const countingThumbnails = () => {
    const real = t.services.media;
    const probes: string[] = [];
    const media: MediaRepository = Object.assign(Object.create(real) as MediaRepository, {
      probe: ((file, options) => {
        probes.push(file);
        return real.probe(file, options);
      }) satisfies MediaRepository['probe'],
    });
    const service = new ThumbnailsService(
      new ThumbnailsRepository(t.services.database.db),
      media,
      t.services.storage,
      {
        tmpDir: path.join(t.dataDir, 'tmp'),
        allowHosts: ['127.0.0.1'],
      },
    );
    return { service, probes };
  };

  /** A finished task stored as a version before thumbnails left it: media, no picture. */
  async function storedTask(file: string) {
    const id = crypto.randomUUID();
    const mediaKey = `users/${userId}/tasks/${id}/source${path.extname(file)}`;
    await t.services.storage.putFile(mediaKey, path.join(dir, file));
    const [row] = await t.services.database.db
      .insert(tasks)
      .values({
        id,
        userId,
        kind: 'highlight',
        urlSource: 'upload',
        video: { url: `upload://${id}`, title: file },
        status: 'DONE',
        mediaKey,
        durationMs: 3000,
      })
      .returning();
    return row!;
  }

  it('probes an audio-only video once, at the first backfill, and still makes a video its picture', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const audio = await storedTask('talk.m4a');
    const video = await storedTask('talk.mp4');

    const first = countingThumbnails();
    expect(await first.service.backfill()).toMatchObject({ videos: 1 });
    expect(first.probes).toHaveLength(2);
    const { db } = t.services.database;
    const [audioRow] = await db.select().from(tasks).where(eq(tasks.id, audio.id));
    const [videoRow] = await db.select().from(tasks).where(eq(tasks.id, video.id));
    expect(audioRow).toMatchObject({ thumbnailKey: null, framelessReason: 'audio-only' });
    expect(videoRow).toMatchObject({ framelessReason: null });
    expect(await t.services.storage.stat(videoRow!.thumbnailKey!)).toBeTruthy();

    // The next worker start: nothing left to look at.
    const second = countingThumbnails();
    expect(await second.service.backfill()).toEqual({ videos: 0, moments: 0, posters: 0 });
    expect(second.probes).toEqual([]);
  });

  it('removes a link preview no task adopted after a day, and keeps an adopted one as the thumbnail', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const { service } = countingThumbnails();
    const storage = t.services.storage;
    const unused = await service.linkPreview(userId, `${served.url}/og.png`);
    const adopted = await service.linkPreview(userId, `${served.url}/og2.png`);
    expect(unused).toMatch(/^\/api\/thumbnail\/preview\/[a-f0-9]{32}$/);
    const fileOf = (preview: string) =>
      `users/${userId}/link-previews/${path.basename(preview)}.jpg`;
    expect(await storage.stat(fileOf(unused!))).toBeTruthy();

    // The second link became a video: its preview is the video's thumbnail now.
    const task = await storedTask('talk.mp4');
    const key = await service.forTask(task, path.join(dir, 'talk.mp4'), {
      durationMs: 3000,
      remoteImage: `${served.url}/og2.png`,
    });
    expect(await storage.stat(fileOf(adopted!))).toBeFalsy();

    // Within the day, housekeeping leaves the preview its card may still show.
    expect(await t.services.housekeeping.runOnce()).toMatchObject({ linkPreviews: 0 });
    expect(await storage.stat(fileOf(unused!))).toBeTruthy();

    const dayLater = new Date(Date.now() + LINK_PREVIEW_TTL_MS + 60_000);
    expect(await t.services.housekeeping.runOnce(dayLater)).toMatchObject({ linkPreviews: 1 });
    expect(await storage.stat(fileOf(unused!))).toBeFalsy();
    expect(await storage.stat(key!)).toBeTruthy();
    expect(await t.services.housekeeping.runOnce(dayLater)).toMatchObject({ linkPreviews: 0 });
  });
});
