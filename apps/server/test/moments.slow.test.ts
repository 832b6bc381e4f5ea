import path from 'node:path';
import { Moment, MomentView } from '@moments/contract';
import {
  PLANTED_STORY,
  buildSyntheticTranscript,
  rankOfPlanted,
} from '@moments/ai/moments/testing';
import { makeTestVideo } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

describe.each(DATABASE_TARGETS)('moments on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let taskId: string;
  let storyStart: number;
  let storyEnd: number;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
    owner = await signUp(t.app, 'owner');
    stranger = await signUp(t.app, 'stranger');

    // A DONE task whose transcript is 12 minutes of ordinary talk with a story planted in it;
    // the real analysing stage finds and stores its moments.
    const synthetic = buildSyntheticTranscript({
      minutes: 12,
      seed: 7,
      plants: [{ id: 'story', sentences: PLANTED_STORY, at: 0.55 }],
    });
    const planted = synthetic.planted.get('story')!;
    storyStart = planted.startMs;
    storyEnd = planted.endMs;
    const media = path.join(t.dataDir, 'clip.mp4');
    await makeTestVideo(media, { durationSec: 2 });
    const mediaKey = `users/${owner.userId}/tasks/fixture/source.mp4`;
    await t.services.storage.putFile(mediaKey, media);
    const repo = new TasksRepository(t.services.database.db);
    const task = await repo.insert({
      userId: owner.userId,
      kind: 'viral',
      urlSource: 'direct',
      video: { url: 'https://example.com/talk.mp4', title: 'A long talk' },
      status: 'DONE',
      stage: 'finishing',
      progress: 100,
      mediaKey,
      durationMs: synthetic.transcript.durationMs,
    });
    taskId = task.id;
    await repo.saveTranscript({
      taskId,
      language: 'en',
      durationMs: synthetic.transcript.durationMs,
      engine: 'fixture',
      segments: synthetic.transcript.segments,
    });
    const warnings = await t.services.moments.analyse(
      task,
      synthetic.transcript,
      new AbortController().signal,
    );
    expect(warnings.filter((w) => !/LLM/.test(w))).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers?: Record<string, string>,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it("lists the task's moments ranked, with the planted story near the top", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const response = await call(
      'GET',
      `/api/highlight_moment/list?task_id=${taskId}`,
      owner.headers,
    );
    expect(response.statusCode).toBe(200);
    const moments = Moment.array().parse(response.json().data);
    expect(moments.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < moments.length; i++)
      expect(moments[i - 1]!.score).toBeGreaterThanOrEqual(moments[i]!.score);
    const sorted = [...moments].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]!.start).toBeGreaterThanOrEqual(sorted[i - 1]!.end);
    for (const moment of moments) {
      expect(moment.type).toBe('video_snippet');
      expect(moment.title.length).toBeGreaterThan(0);
      expect(moment.reasons.length).toBeGreaterThan(0);
      // The card's number is the sum of the points listed under it, each reason once.
      expect(moment.reasons.reduce((sum, reason) => sum + reason.weight, 0)).toBe(moment.score);
      expect(new Set(moment.reasons.map((r) => `${r.kind}${Math.sign(r.weight)}`)).size).toBe(
        moment.reasons.length,
      );
    }
    const rank = rankOfPlanted(
      moments.map((m) => ({ startMs: m.start, endMs: m.end })),
      { startMs: storyStart, endMs: storyEnd },
    );
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(3);

    const strangers = await call(
      'GET',
      `/api/highlight_moment/list?task_id=${taskId}`,
      stranger.headers,
    );
    expect(strangers.statusCode).toBe(404);
  });

  it('rates, favourites and refreshes a moment, only for its owner', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const [first] = (
      await call('GET', `/api/highlight_moment/list?task_id=${taskId}`, owner.headers)
    ).json().data as Moment[];
    const id = first!.id;

    const noReason = await call('POST', `/api/highlight_moment/feedback/${id}`, owner.headers, {
      action: 'THUMB_DOWN',
      content: 'meh',
    });
    expect(noReason.statusCode).toBe(400);
    const down = await call('POST', `/api/highlight_moment/feedback/${id}`, owner.headers, {
      action: 'THUMB_DOWN',
      content: 'cuts too early',
      reason: 'bad_boundaries',
    });
    expect(down.json().data.feedback).toBe('THUMB_DOWN');
    const undo = await call('DELETE', `/api/highlight_moment/feedback/${id}`, owner.headers);
    expect(undo.json().data.feedback).toBeNull();
    const up = await call('POST', `/api/highlight_moment/feedback/${id}`, owner.headers, {
      action: 'THUMB_UP',
    });
    expect(up.json().data.feedback).toBe('THUMB_UP');

    await call('POST', `/api/highlight_moment/favorite?id=${id}`, owner.headers);
    let favorites = (await call('GET', '/api/highlight_moment/favorite/list', owner.headers)).json()
      .data as Moment[];
    expect(favorites.map((m) => m.id)).toEqual([id]);
    await call('POST', `/api/highlight_moment/unfavorite?id=${id}`, owner.headers);
    favorites = (await call('GET', '/api/highlight_moment/favorite/list', owner.headers)).json()
      .data;
    expect(favorites).toEqual([]);

    const refreshed = await call('PUT', `/api/highlight_moment/refresh?id=${id}`, owner.headers);
    expect(refreshed.statusCode).toBe(200);
    const moment = Moment.parse(refreshed.json().data);
    expect(moment.start).toBe(first!.start);
    expect(moment.end).toBe(first!.end);
    expect(moment.score).toBeGreaterThan(0);

    for (const [method, url, body] of [
      ['POST', `/api/highlight_moment/feedback/${id}`, { action: 'THUMB_UP' }],
      ['DELETE', `/api/highlight_moment/feedback/${id}`, undefined],
      ['POST', `/api/highlight_moment/favorite?id=${id}`, undefined],
      ['POST', `/api/highlight_moment/share?id=${id}`, undefined],
      ['PUT', `/api/highlight_moment/refresh?id=${id}`, undefined],
      ['POST', `/api/highlight_moment/clipped/delete?id=${id}`, undefined],
      ['POST', `/api/highlight_moment/layout?id=${id}`, { layout: 'split' }],
      ['POST', '/api/highlight_moment/favorite?id=not-a-uuid', undefined],
    ] as const) {
      const response = await call(method, url, stranger.headers, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call('POST', `/api/highlight_moment/favorite?id=${id}`)).statusCode).toBe(401);
  });

  it('keeps the framing layout chosen for a clip, and refuses an unknown one', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const moments = (
      await call('GET', `/api/highlight_moment/list?task_id=${taskId}`, owner.headers)
    ).json().data as Moment[];
    const id = moments[2]!.id;
    expect(moments[2]!.layout).toBeNull();
    const kept = await call('POST', `/api/highlight_moment/layout?id=${id}`, owner.headers, {
      layout: 'slide_speaker',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(Moment.parse(kept.json().data).layout).toBe('slide_speaker');
    const view = MomentView.parse(
      (await call('GET', `/api/highlight_moment?id=${id}`, owner.headers)).json().data,
    );
    expect(view.layout).toBe('slide_speaker');
    const unknown = await call('POST', `/api/highlight_moment/layout?id=${id}`, owner.headers, {
      layout: 'picture_in_picture',
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('shows a moment to anonymous visitors only once it is shared', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const moments = (
      await call('GET', `/api/highlight_moment/list?task_id=${taskId}`, owner.headers)
    ).json().data as Moment[];
    const id = moments[1]!.id;
    expect((await call('GET', `/api/highlight_moment?id=${id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/highlight_moment?id=${id}`, stranger.headers)).statusCode).toBe(
      404,
    );
    const ownReply = await call('GET', `/api/highlight_moment?id=${id}`, owner.headers);
    expect(ownReply.statusCode, ownReply.body).toBe(200);
    const own = MomentView.parse(
      (await call('GET', `/api/highlight_moment?id=${id}`, owner.headers)).json().data,
    );
    expect(own.owned).toBe(true);

    const shared = await call('POST', `/api/highlight_moment/share?id=${id}`, owner.headers, {
      publish: true,
    });
    expect(shared.json().data.path).toBe(`/home/moment/${id}`);
    const again = await call('POST', `/api/highlight_moment/share?id=${id}`, owner.headers, {
      publish: true,
    });
    expect(again.json().data.share_id).toBe(shared.json().data.share_id);

    const publicView = MomentView.parse(
      (await call('GET', `/api/highlight_moment?id=${id}`)).json().data,
    );
    expect(publicView).toMatchObject({ id, owned: false, video: { title: 'A long talk' } });
    // Others get only the span, never a signed link to the whole upload (shares.test plays it).
    expect(publicView.media_url).toMatch(/^\/api\/highlight_moment\/shared_media\//);
    expect(publicView.media_start).toBe(publicView.start);

    // An owner can trade any of their file links, expired or not, for a fresh one; others cannot.
    const refreshed = await call('POST', '/api/external_file/refresh_url', owner.headers, {
      url: own.media_url,
    });
    expect(refreshed.statusCode).toBe(200);
    expect((await call('GET', refreshed.json().data.url, { range: 'bytes=0-9' })).statusCode).toBe(
      206,
    );
    // An encoded traversal answered 500; it is a 404 like any unknown file.
    for (const url of [
      own.media_url,
      '/files/../../etc/passwd',
      '/files/%2e%2e/%2e%2e/etc/passwd',
      `/files/users/%2E%2E%2F%2E%2E%2Fsecret`,
      'https://example.com/x.mp4',
    ]) {
      const denied = await call('POST', '/api/external_file/refresh_url', stranger.headers, {
        url,
      });
      expect([403, 404, 422], url!).toContain(denied.statusCode);
    }

    const featured = (await call('GET', '/highlight_moment/list/default?type=video_snippet')).json()
      .data as MomentView[];
    expect(featured.map((m) => m.id)).toContain(id);
    const searchList = (
      await call('GET', '/highlight_moment/list/default?type=search_snippet')
    ).json().data;
    expect(searchList).toEqual([]);
  });
});
