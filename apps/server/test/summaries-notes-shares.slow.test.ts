import path from 'node:path';
import { Note, SharedPage, SummaryView } from '@moments/contract';
import { makeTestVideo } from '@moments/media/testing';
import { probeMedia } from '@moments/media/probe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { spendAll } from './support/credits.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { seedFinishedTask } from './support/fixtures.js';

// Two topics of talk, with word timings, as a transcript a summary can be made from.
const TALK = [
  'Honey bees live in a hive with one queen.',
  'Worker bees collect nectar and pollen from flowers.',
  'The bees turn nectar into honey inside wax cells.',
  'Beekeepers use smoke to calm the bees in the hive.',
  'A volcano erupts when magma rises from deep underground.',
  'Lava and ash pour from the crater of the volcano.',
  'Scientists watch small earthquakes near the volcano.',
  'People living near the mountain are warned before an eruption.',
];
function talkWords() {
  const words: { text: string; startMs: number; endMs: number }[] = [];
  let t = 500;
  for (const sentence of TALK) {
    for (const text of sentence.split(' ')) {
      words.push({ text, startMs: t, endMs: t + 600 });
      t += 700;
    }
    t += 1200;
  }
  return words;
}

describe.each(DATABASE_TARGETS)('summaries, notes and shares on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let stranger: Awaited<ReturnType<typeof signUp>>;
  let taskId: string;
  let momentId: string;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
    owner = await signUp(t.app, 'owner');
    stranger = await signUp(t.app, 'stranger');
    const video = path.join(t.dataDir, 'talk.mp4');
    await makeTestVideo(video, { durationSec: 12 });
    const seeded = await seedFinishedTask(t, owner.userId, {
      video,
      title: 'Bees and volcanoes',
      durationMs: 60_000,
      words: talkWords(),
      moment: { startMs: 4000, endMs: 8000, title: 'How bees make honey' },
    });
    taskId = seeded.taskId;
    momentId = seeded.momentId;
    // The task's summary stage, as the runner calls it after analysing.
    const repo = new TasksRepository(t.services.database.db);
    const task = (await repo.findById(taskId))!;
    const transcript = (await repo.findTranscript(taskId))!;
    const { warnings } = await t.services.summaries.summariseTask(
      task,
      {
        language: 'en',
        durationMs: transcript.durationMs,
        segments: transcript.segments as never,
      },
      new AbortController().signal,
    );
    expect(warnings).toEqual([]);
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

  it('serves the summary to its owner only', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const reply = await call('GET', `/api/summary?task_id=${taskId}`, owner.headers);
    expect(reply.statusCode, reply.body).toBe(200);
    const summary = SummaryView.parse(reply.json().data);
    expect(summary.method).toBe('extractive');
    expect(summary.overview).toMatch(/bee|volcano/i);
    expect(summary.chapters.length).toBeGreaterThanOrEqual(1);
    expect(summary.key_points.length).toBeGreaterThan(0);
    expect(summary.transcript.length).toBeGreaterThan(0);
    expect((await call('GET', `/api/summary?task_id=${taskId}`, stranger.headers)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/api/summary?task_id=${taskId}`)).statusCode).toBe(401);
  });

  it('charges every summary refresh under its own key: refused without credits, a failed one refunded and the next charged again', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const db = t.services.database.db;
    const movements = async (userId: string) =>
      (
        (await db.execute(
          sql`SELECT amount, kind, operation_key FROM credit_ledger WHERE user_id = ${userId} AND operation_key LIKE ${'%refresh%'} ORDER BY created_at, id`,
        )) as unknown as { rows: { amount: number; kind: string; operation_key: string }[] }
      ).rows;
    const broke = await signUp(t.app, 'broke');
    const seeded = await seedFinishedTask(t, broke.userId, {
      video: path.join(t.dataDir, 'talk.mp4'),
      title: 'No credits left',
      durationMs: 60_000,
      words: talkWords(),
      moment: { startMs: 4000, endMs: 8000, title: 'Bees' },
    });
    await spendAll(t.services, broke.userId);
    const refused = await call(
      'POST',
      `/api/summary/refresh?task_id=${seeded.taskId}`,
      broke.headers,
    );
    expect(refused.statusCode).toBe(402);
    expect(refused.json().code).toBe('BALANCE_NOT_ENOUGH');
    expect(await movements(broke.userId)).toEqual([]);

    // A refresh that fails after its charge (the stored transcript is unreadable) is refunded.
    const good = await db.execute(sql`SELECT segments FROM transcripts WHERE task_id = ${taskId}`);
    await db.execute(
      sql`UPDATE transcripts SET segments = '{"not": "segments"}'::jsonb WHERE task_id = ${taskId}`,
    );
    const failed = await call('POST', `/api/summary/refresh?task_id=${taskId}`, owner.headers);
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    const segments = (good as unknown as { rows: { segments: unknown }[] }).rows[0]!.segments;
    await db.execute(
      sql`UPDATE transcripts SET segments = ${JSON.stringify(segments)}::jsonb WHERE task_id = ${taskId}`,
    );
    // The next refresh is charged again (the failed one's key is not reused), and succeeds.
    const next = await call('POST', `/api/summary/refresh?task_id=${taskId}`, owner.headers);
    expect(next.statusCode, next.body).toBe(200);
    const rows = await movements(owner.userId);
    expect(rows.map((row) => [row.kind, row.amount])).toEqual([
      ['charge', -10],
      ['refund', 10],
      ['charge', -10],
    ]);
    expect(new Set(rows.map((row) => row.operation_key.replace(/^refund:/, ''))).size).toBe(2);
  });

  it('keeps notes to their owner, with timestamp links, search, autosave and delete', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const created = await call('POST', '/api/note', owner.headers, { from: 'summary', id: taskId });
    expect(created.statusCode, created.body).toBe(200);
    const note = Note.parse(created.json().data);
    expect(note.content_html).toMatch(new RegExp(`href="/video/${taskId}/summary\\?t=\\d+"`));
    const fromMoment = Note.parse(
      (await call('POST', '/api/note', owner.headers, { from: 'moment', id: momentId })).json()
        .data,
    );
    expect(fromMoment.content_html).toContain(`/video/${taskId}/summary?t=4000`);
    // A stranger can neither read, change, delete, share nor seed from the owner's things.
    for (const [method, url, body] of [
      ['GET', `/api/note?id=${note.id}`, undefined],
      ['PUT', `/api/note?id=${note.id}`, { title: 'mine now' }],
      ['DELETE', `/api/note?id=${note.id}`, undefined],
      ['POST', `/api/note/share?id=${note.id}`, undefined],
      ['POST', '/api/note', { from: 'summary', id: taskId }],
      ['POST', '/api/note', { from: 'moment', id: momentId }],
      ['POST', `/api/summary/share?task_id=${taskId}`, undefined],
      ['POST', `/api/highlight_moment/share?id=${momentId}`, undefined],
    ] as const) {
      expect((await call(method, url, stranger.headers, body)).statusCode, `${method} ${url}`).toBe(
        404,
      );
    }
    expect(
      ((await call('GET', '/api/note/list', stranger.headers)).json().data as Note[]).length,
    ).toBe(0);

    // Autosave keeps safe rich text and drops scripts.
    const saved = await call('PUT', `/api/note?id=${note.id}`, owner.headers, {
      title: 'Pollination',
      content_html:
        '<p>Seen at <a href="/video/x/summary?t=5000">0:05</a> <script>alert(1)</script><img src=x onerror=alert(1)></p>',
    });
    expect(saved.statusCode).toBe(200);
    expect(Note.parse(saved.json().data).content_html).toBe(
      '<p>Seen at <a href="/video/x/summary?t=5000">0:05</a> </p>',
    );
    const found = (await call('GET', '/api/note/list?q=pollin', owner.headers)).json()
      .data as Note[];
    expect(found.map((n) => n.id)).toEqual([note.id]);
    expect((await call('DELETE', `/api/note?id=${fromMoment.id}`, owner.headers)).statusCode).toBe(
      200,
    );
    expect((await call('GET', `/api/note?id=${fromMoment.id}`, owner.headers)).statusCode).toBe(
      404,
    );
  });

  it('shares a summary and a note as unlisted pages readable logged out, until unshared', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const summaryShare = (
      await call('POST', `/api/summary/share?task_id=${taskId}`, owner.headers)
    ).json().data;
    expect(summaryShare.path).toBe(`/s/${summaryShare.share_id}`);
    const page = SharedPage.parse(
      (await call('GET', `/api/share/${summaryShare.share_id}`)).json().data,
    );
    expect(page).toMatchObject({ kind: 'summary', title: 'Bees and volcanoes' });

    const note = Note.parse(
      (
        await call('POST', '/api/note', owner.headers, { from: 'blank', title: 'Open letter' })
      ).json().data,
    );
    const noteShare = (await call('POST', `/api/note/share?id=${note.id}`, owner.headers)).json()
      .data;
    expect(noteShare.path).toBe(`/s/${noteShare.share_id}?note=1`);
    expect(
      SharedPage.parse((await call('GET', `/api/share/${noteShare.share_id}?note=1`)).json().data),
    ).toMatchObject({
      kind: 'note',
      title: 'Open letter',
    });
    // A note's link does not open a summary and the other way round; guesses find nothing.
    expect((await call('GET', `/api/share/${noteShare.share_id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/share/${summaryShare.share_id}?note=1`)).statusCode).toBe(404);
    expect((await call('GET', '/api/share/AAAAAAAAAAAAAAAA')).statusCode).toBe(404);

    await call('DELETE', `/api/summary/share?task_id=${taskId}`, owner.headers);
    await call('DELETE', `/api/note/share?id=${note.id}`, owner.headers);
    expect((await call('GET', `/api/share/${summaryShare.share_id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/share/${noteShare.share_id}?note=1`)).statusCode).toBe(404);
  });

  it('shares a moment as an unlisted span: not on the home shelf or in search unless published, revocable', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const shared = (
      await call('POST', `/api/highlight_moment/share?id=${momentId}`, owner.headers)
    ).json().data;
    expect(shared.published).toBe(false);
    const shelf = async () =>
      (
        (await call('GET', '/highlight_moment/list/default?type=video_snippet')).json().data as {
          id: string;
        }[]
      ).map((m) => m.id);
    const anonymousSearch = async () =>
      (
        await call('POST', '/api/p/v1/searchVideos', undefined, { query: 'honey bees', num: 24 })
      ).json().data.items as { moment_id?: string; moment?: { id: string } }[];
    expect(await shelf()).not.toContain(momentId);
    expect(JSON.stringify(await anonymousSearch())).not.toContain(momentId);

    // The anonymous viewer gets only the span: a short video, not the 12 s upload.
    const view = (await call('GET', `/api/highlight_moment?id=${momentId}`)).json().data;
    expect(view.media_url).toBe(`/api/highlight_moment/shared_media/${shared.share_id}`);
    const span = await call('GET', view.media_url);
    expect(span.statusCode).toBe(200);
    const spanFile = path.join(t.dataDir, 'span.mp4');
    await (await import('node:fs/promises')).writeFile(spanFile, span.rawPayload);
    const info = await probeMedia(spanFile);
    expect(info.durationMs).toBeGreaterThan(3000);
    expect(info.durationMs).toBeLessThan(5000);
    expect((await call('GET', view.media_url, { range: 'bytes=0-99' })).statusCode).toBe(206);

    // Publishing is a separate choice; then it is listed.
    await call('POST', `/api/highlight_moment/share?id=${momentId}`, owner.headers, {
      publish: true,
    });
    expect(await shelf()).toContain(momentId);
    expect(JSON.stringify(await anonymousSearch())).toContain(momentId);

    // Unsharing revokes all of it.
    expect(
      (await call('DELETE', `/api/highlight_moment/share?id=${momentId}`, owner.headers))
        .statusCode,
    ).toBe(200);
    expect((await call('GET', `/api/highlight_moment?id=${momentId}`)).statusCode).toBe(404);
    expect((await call('GET', view.media_url)).statusCode).toBe(404);
    expect(await shelf()).not.toContain(momentId);
    expect(JSON.stringify(await anonymousSearch())).not.toContain(momentId);
  });
});
