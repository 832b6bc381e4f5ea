import path from 'node:path';
import type { Moment } from '@moments/contract';
import { PLANTED_STORY, buildSyntheticTranscript } from '@moments/ai/moments/testing';
import { makeTestVideo } from '@moments/media/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moments } from '../src/db/schema.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, waitForTask, type TestApp } from './support/app.js';

// Retrying a DONE task re-runs the analysis; it must not wipe what the user did
// with the moments (favourites, ratings, clipped flags, share links).
describe.each(DATABASE_TARGETS)('retrying a DONE task on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let taskId: string;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { workers: true });
    owner = await signUp(t.app, 'owner');
    const synthetic = buildSyntheticTranscript({
      minutes: 12,
      seed: 7,
      plants: [{ id: 'story', sentences: PLANTED_STORY, at: 0.55 }],
    });
    // The video is as long as its talk: a run measures the media and stops a transcript that
    // runs past its end.
    const media = path.join(t.dataDir, 'talk.mp4');
    await makeTestVideo(media, {
      durationSec: Math.ceil(synthetic.transcript.durationMs / 1000) + 1,
      width: 64,
      height: 48,
      fps: 1,
    });
    const repo = new TasksRepository(t.services.database.db);
    const task = await repo.insert({
      userId: owner.userId,
      kind: 'viral',
      urlSource: 'upload',
      video: { url: 'upload://fixture', title: 'A talk' },
      sourceLang: 'en',
      status: 'DONE',
      stage: 'finishing',
      progress: 100,
      durationMs: synthetic.transcript.durationMs,
    });
    taskId = task.id;
    const mediaKey = `users/${owner.userId}/tasks/${task.id}/source.mp4`;
    await t.services.storage.putFile(mediaKey, media);
    await repo.update(task.id, { mediaKey });
    await repo.saveTranscript({
      taskId,
      language: 'en',
      durationMs: synthetic.transcript.durationMs,
      engine: 'fixture',
      segments: synthetic.transcript.segments,
    });
    await t.services.moments.analyse(
      (await repo.findById(taskId))!,
      synthetic.transcript,
      new AbortController().signal,
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers = owner.headers) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const listMoments = async () =>
    (await call('GET', `/api/highlight_moment/list?task_id=${taskId}`)).json().data as Moment[];

  it('keeps rated, favourited, clipped and shared moments, and marks only re-found ones as new', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const before = await listMoments();
    expect(before.length).toBeGreaterThanOrEqual(5);
    const [favourite, rated, shared, clipped, untouched] = before;

    await call('POST', `/api/highlight_moment/favorite?id=${favourite!.id}`);
    await call('POST', `/api/highlight_moment/feedback/${rated!.id}`, { action: 'THUMB_UP' });
    const share = await call('POST', `/api/highlight_moment/share?id=${shared!.id}`);
    expect(share.statusCode).toBe(200);
    const db = t.services.database.db;
    await db.update(moments).set({ clipped: true }).where(eq(moments.id, clipped!.id));
    // A favourite the new analysis will not find again (a span nobody would cut) stays too.
    const [handPicked] = await db
      .insert(moments)
      .values({
        taskId,
        userId: owner.userId,
        type: 'video_snippet',
        rank: 99,
        startMs: 1,
        endMs: 700,
        score: 10,
        title: 'My own pick',
        favorite: true,
      })
      .returning();
    // An untouched moment that is gone before the retry is found again, as a new moment.
    await db.delete(moments).where(eq(moments.id, untouched!.id));

    const retried = await call('POST', `/api/highlight_moment/task/retry?id=${taskId}`);
    expect(retried.statusCode, retried.body).toBe(200);
    const done = await waitForTask(t.app, owner.headers, taskId, 120_000);
    expect(done.status, done.error_reason).toBe('DONE');
    // The price the reply showed, the task shows once run, and the ledger holds are one number.
    const ledger = await t.services.billing.reads.netCharged({ taskId });
    expect(ledger).toBeGreaterThan(0);
    expect(retried.json().data.cost_credits).toBe(ledger);
    expect(done.cost_credits).toBe(ledger);

    const after = await listMoments();
    const byId = new Map(after.map((moment) => [moment.id, moment]));
    expect(byId.get(favourite!.id)?.favorite).toBe(true);
    expect(byId.get(rated!.id)?.feedback).toBe('THUMB_UP');
    expect(byId.get(shared!.id)?.share_id).toBe(share.json().data.share_id);
    expect(byId.get(handPicked!.id)?.favorite).toBe(true);
    const [clippedRow] = await db.select().from(moments).where(eq(moments.id, clipped!.id));
    expect(clippedRow?.clipped).toBe(true);
    // The shared link still works for anonymous visitors.
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment?id=${shared!.id}`,
    });
    expect(anonymous.statusCode).toBe(200);

    const refound = after.find((m) => m.start === untouched!.start && m.end === untouched!.end);
    expect(refound, 'the deleted moment is found again').toBeDefined();
    expect(refound!.id).not.toBe(untouched!.id);
    expect(refound!.is_new).toBe(true);
    for (const kept of [favourite, rated, shared, clipped, handPicked]) {
      expect(byId.get(kept!.id)?.is_new).toBe(false);
    }
  }, 180_000);
});
