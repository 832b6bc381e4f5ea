/**
 * Deleting for good: an upload, a task and its exports leave no file in storage and no working
 * link; the plan's upload rate and storage quota refuse before a byte is stored. On PGlite and
 * PostgreSQL, with the fake media tools (S3 is covered by storage.slow.test.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_LIMITS } from '@moments/domain/plans';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, moments, tasks, uploads, uploadStarts } from '../src/db/schema.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { multipartFile, signUp, startTestApp, type TestApp } from './support/app.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask, storedKeys } from './support/fixtures.js';

const START = '/api/highlight_moment/task/start?url_source=upload&source_lang=en';

describe.each(DATABASE_TARGETS)('deleting uploads and tasks on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  const db = () => t.services.database.db;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { media: new FakeMediaRepository() });
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = (headers: Record<string, string>, name = 'talk.mp4', bytes = 1000) => {
    const body = multipartFile(name, Buffer.alloc(bytes, 7));
    return t.app.inject({
      method: 'POST',
      url: '/api/upload',
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
  };
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const del = (url: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'DELETE', url, headers });

  it('answers an upload with its id, starts a task from that reply, and deletes it for good', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'deleter');
    const stranger = await signUp(t.app, 'stranger');
    const uploaded = await upload(user.headers);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const meta = uploaded.json().data;
    expect(meta.url).toBe(`upload://${meta.id}`);
    expect(await storedKeys(t, user.userId)).toEqual([
      `users/${user.userId}/uploads/${meta.id}/source.mp4`,
      `users/${user.userId}/uploads/${meta.id}/thumbnail.jpg`,
    ]);
    expect((await get(meta.thumbnail)).statusCode).toBe(200);

    // The reply as it came is a start body.
    const started = await t.app.inject({
      method: 'POST',
      url: START,
      headers: user.headers,
      payload: meta,
    });
    expect(started.statusCode, started.body).toBe(200);
    const taskId = started.json().data.id as string;

    // Another user's id is not found, like a missing one, and touches nothing.
    const foreign = await del(`/api/upload/${meta.id}`, stranger.headers);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('NOT_FOUND');
    expect((await del('/api/upload/not-an-id', user.headers)).statusCode).toBe(404);

    // A task still reading the file keeps it.
    const inUse = await del(`/api/upload/${meta.id}`, user.headers);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('UPLOAD_IN_USE');
    expect(await storedKeys(t, user.userId)).toHaveLength(2);

    await db().update(tasks).set({ status: 'DONE' }).where(eq(tasks.id, taskId));
    const deleted = await del(`/api/upload/${meta.id}`, user.headers);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await storedKeys(t, user.userId)).toEqual([]);
    expect((await get(meta.thumbnail)).statusCode).toBe(404);
    expect((await get(`/api/upload/${meta.id}`, user.headers)).statusCode).toBe(404);
    expect((await del(`/api/upload/${meta.id}`, user.headers)).statusCode).toBe(404);
    // Nothing to start from any more.
    const again = await t.app.inject({
      method: 'POST',
      url: START,
      headers: user.headers,
      payload: meta,
    });
    expect(again.statusCode).toBe(404);
  });

  it("removes a deleted task's files, exports and links, keeping a source its follow-up reads", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'task-deleter');
    const stranger = await signUp(t.app, 'task-stranger');
    const video = path.join(t.dataDir, 'downloaded.mp4');
    await fs.writeFile(video, 'stand-in media');
    const root = await seedFinishedTask(t, user.userId, {
      video,
      title: 'A linked talk',
      durationMs: 60_000,
      words: [{ text: 'hello', startMs: 0, endMs: 500 }],
      moment: { startMs: 0, endMs: 10_000, title: 'Hello' },
    });
    const folder = `users/${user.userId}/tasks/${root.taskId}/`;
    const { storage, fileUrls, pictureTokens } = t.services;
    // What a run and the exports leave: pictures, a shared span, speech chunks, one export.
    const note = path.join(t.dataDir, 'note.bin');
    await fs.writeFile(note, 'made from the source');
    for (const key of [
      `${folder}thumbnail.jpg`,
      `${folder}moments/${root.momentId}-0-10000.jpg`,
      `${folder}spans/${root.momentId}-0-10000.mp4`,
      `${folder}asr/chunk-0.json`,
    ]) {
      await storage.putFile(key, note);
    }
    await db()
      .update(tasks)
      .set({ thumbnailKey: `${folder}thumbnail.jpg` })
      .where(eq(tasks.id, root.taskId));
    const [job] = await db()
      .insert(jobs)
      .values({
        userId: user.userId,
        taskId: root.taskId,
        momentId: root.momentId,
        type: 'VIRAL_MOMENT_EXPORT',
        status: 'DONE',
        title: 'Hello',
        fileKey: `users/${user.userId}/jobs/export-of-root.mp4`,
        shareId: `share-${root.taskId.slice(0, 8)}`,
      })
      .returning();
    const jobKey = `users/${user.userId}/jobs/${job!.id}.mp4`;
    await db().update(jobs).set({ fileKey: jobKey }).where(eq(jobs.id, job!.id));
    await storage.putFile(jobKey, note);
    // A follow-up question on the same video reads the root's downloaded source.
    const [followUp] = await db()
      .insert(tasks)
      .values({
        userId: user.userId,
        rootTaskId: root.taskId,
        kind: 'search',
        urlSource: 'direct',
        video: { url: 'https://example.com/talk.mp4', title: 'A linked talk' },
        status: 'DONE',
        mediaKey: `${folder}source.mp4`,
      })
      .returning();

    const links = {
      source: await fileUrls.signFileUrl(`${folder}source.mp4`, { expiresInSec: 3600 }),
      export: await fileUrls.signFileUrl(jobKey, { expiresInSec: 3600 }),
      picture: `/api/thumbnail/task/${root.taskId}?sig=${encodeURIComponent(pictureTokens.sign('task', root.taskId))}`,
      jobPicture: `/api/thumbnail/moment/${root.momentId}?sig=${encodeURIComponent(pictureTokens.sign('moment', root.momentId))}`,
    };
    expect((await get(links.export)).statusCode).toBe(200);
    expect((await get(links.picture)).statusCode).toBe(200);

    const foreign = await del(`/api/highlight_moment/task?id=${root.taskId}`, stranger.headers);
    expect(foreign.statusCode).toBe(404);
    expect(await storedKeys(t, user.userId)).toHaveLength(6);

    const removed = await del(`/api/highlight_moment/task?id=${root.taskId}`, user.headers);
    expect(removed.statusCode, removed.body).toBe(200);
    // Only the source the follow-up still reads is left.
    expect(await storedKeys(t, user.userId)).toEqual([`${folder}source.mp4`]);
    expect((await get(links.export)).statusCode).toBe(404);
    expect((await get(links.picture)).statusCode).toBe(404);
    expect((await get(links.jobPicture)).statusCode).toBe(404);
    expect((await get(`/api/job/${job!.id}`, user.headers)).statusCode).toBe(404);
    expect(await db().select().from(jobs).where(eq(jobs.id, job!.id))).toEqual([]);
    expect(await db().select().from(moments).where(eq(moments.taskId, root.taskId))).toEqual([]);
    expect((await get(links.source)).statusCode).toBe(200);

    // The last reader gone, the source goes too.
    const last = await del(`/api/highlight_moment/task?id=${followUp!.id}`, user.headers);
    expect(last.statusCode, last.body).toBe(200);
    expect(await storedKeys(t, user.userId)).toEqual([]);
    expect((await get(links.source)).statusCode).toBe(404);
  });

  it('refuses uploads past the plan rate with 429 and Retry-After, before storing a byte', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'burst');
    const perHour = UPLOAD_LIMITS.FREE.uploadsPerHour;
    for (let i = 0; i < perHour; i++) {
      const response = await upload(user.headers, `clip-${i}.mp4`, 100);
      expect(response.statusCode, response.body).toBe(200);
    }
    const refused = await upload(user.headers, 'one-more.mp4', 100);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('UPLOAD_RATE_LIMITED');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(refused.json().message).toMatch(/next one can start in 60 minutes/);
    const resumable = await t.app.inject({
      method: 'POST',
      url: '/api/upload/tus',
      headers: {
        ...user.headers,
        'tus-resumable': '1.0.0',
        'upload-length': '100',
        'upload-metadata': `filename ${Buffer.from('more.mp4').toString('base64')}`,
      },
    });
    expect(resumable.statusCode).toBe(429);
    expect(resumable.json().code).toBe('UPLOAD_RATE_LIMITED');
    expect(resumable.headers['retry-after']).toBeDefined();
    expect(await storedKeys(t, user.userId)).toHaveLength(perHour * 2);

    // An hour later the oldest starts no longer count.
    await db()
      .update(uploadStarts)
      .set({ createdAt: new Date(Date.now() - 3601_000) })
      .where(eq(uploadStarts.userId, user.userId));
    expect((await upload(user.headers, 'later.mp4', 100)).statusCode).toBe(200);
  });

  it("refuses what does not fit the plan's storage, from the declared length and from the real bytes", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'hoarder');
    const quota = UPLOAD_LIMITS.FREE.storageBytes;
    // Earlier uploads fill the plan's storage but for 5000 bytes.
    await db()
      .insert(uploads)
      .values({
        userId: user.userId,
        storageKey: `users/${user.userId}/uploads/earlier/source.mp4`,
        originalName: 'earlier.mp4',
        sizeBytes: quota - 5000,
      });
    const tooBig = await upload(user.headers, 'big.mp4', 6000);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect(tooBig.json().message).toMatch(/10 GB of storage/);
    const tusHeaders = (length: number) => ({
      ...user.headers,
      'tus-resumable': '1.0.0',
      'upload-length': String(length),
      'upload-metadata': `filename ${Buffer.from('resumed.mp4').toString('base64')}`,
    });
    const declared = await t.app.inject({
      method: 'POST',
      url: '/api/upload/tus',
      headers: tusHeaders(6000),
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json().code).toBe('STORAGE_QUOTA_EXCEEDED');

    // Fits when it starts; another upload fills the room before its last byte arrives.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/upload/tus',
      headers: tusHeaders(3000),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await upload(user.headers, 'meanwhile.mp4', 3000)).statusCode).toBe(200);
    const finished = await t.app.inject({
      method: 'PATCH',
      url: created.headers.location as string,
      headers: {
        ...user.headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.alloc(3000, 1),
    });
    expect(finished.statusCode).toBe(413);
    expect(finished.json().code).toBe('STORAGE_QUOTA_EXCEEDED');
    // Only the upload that fitted is stored.
    expect((await storedKeys(t, user.userId)).filter((key) => key.endsWith('source.mp4'))).toEqual([
      expect.stringMatching(/^users\/.+\/uploads\/.+\/source\.mp4$/),
    ]);
    expect(await fs.readdir(path.join(t.dataDir, 'tus'))).toEqual([]);
  });
});
