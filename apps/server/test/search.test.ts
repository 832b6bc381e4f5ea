import { SearchVideosReply, type SearchHit } from '@moments/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { tasks as tasksTable } from '../src/db/schema.js';
import { MomentsRepository } from '../src/modules/moments/moments.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { seedTranscribedTask } from './support/fixtures.js';

type User = Awaited<ReturnType<typeof signUp>>;

/** Transcript segments with word timings: one segment per sentence, 400 ms per word. */
function segmentsOf(sentences: string[], startMs = 0) {
  let at = startMs;
  return sentences.map((text) => {
    const words = text.split(' ').map((word) => {
      const word_ = { text: word, startMs: at, endMs: at + 350, confidence: 1 };
      at += 400;
      return word_;
    });
    return { text, startMs: words[0]!.startMs, endMs: words.at(-1)!.endMs, words };
  });
}

const LONG_SENTENCE =
  'Before we get to the point I want to thank everyone who travelled here today from far away, ' +
  'because without all of you and your patience this morning would not have happened at all, ' +
  'and then of course the glaciers melting in the Alps tell us the climate is changing faster than any model said.';

describe.each(DATABASE_TARGETS)('home search on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let owner: User;
  let stranger: User;
  const ids = {
    ownTitleTask: '',
    ownTextTask: '',
    strangerTask: '',
    sharedTitleMoment: '',
    sharedTextMoment: '',
    privateMoment: '',
  };

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
    owner = await signUp(t.app, 'owner');
    stranger = await signUp(t.app, 'stranger');
    const moments = new MomentsRepository(t.services.database.db);

    const addTask = (user: User, title: string, sentences: string[]) =>
      seedTranscribedTask(t.services.database.db, user.userId, title, segmentsOf(sentences, 1000));

    const titleTask = await addTask(owner, 'Climate summit keynote', [
      'Good morning and welcome.',
      'Today we talk about budgets.',
    ]);
    ids.ownTitleTask = titleTask.id;
    const textTask = await addTask(owner, 'Cooking pasta at home', [
      'Boil the water first.',
      'Salt it well.',
      LONG_SENTENCE,
      'Then drain the pasta.',
    ]);
    ids.ownTextTask = textTask.id;
    const strangerTask = await addTask(stranger, 'Climate secrets of my diary', [
      'Nobody else should read about the zeppelin in my garden.',
    ]);
    ids.strangerTask = strangerTask.id;

    const moment = (rank: number, title: string, transcript: string, score: number) => ({
      taskId: strangerTask.id,
      userId: stranger.userId,
      type: 'video_snippet',
      rank,
      startMs: 1000 + rank * 10_000,
      endMs: 9000 + rank * 10_000,
      score,
      reasons: [],
      title,
      description: 'A moment from the diary.',
      hashtags: ['#diary'],
      transcript,
    });
    await moments.syncForTask(strangerTask.id, 'video_snippet', [
      moment(0, 'Why the climate matters', 'We should all care. It is our only home.', 40),
      moment(1, 'Rivers in spring', 'Snow melts early now. The climate is warming up fast.', 95),
      moment(2, 'Private climate rant about the zeppelin', 'I will keep this one to myself.', 99),
    ]);
    const stored = await moments.forTask(strangerTask.id);
    ids.sharedTitleMoment = stored.find((m) => m.rank === 0)!.id;
    ids.sharedTextMoment = stored.find((m) => m.rank === 1)!.id;
    ids.privateMoment = stored.find((m) => m.rank === 2)!.id;
    for (const id of [ids.sharedTitleMoment, ids.sharedTextMoment]) {
      const shared = await t.app.inject({
        method: 'POST',
        url: `/api/highlight_moment/share?id=${id}`,
        headers: stranger.headers,
        // Anonymous search lists published moments only (an unlisted share is not found).
        payload: { publish: true },
      });
      expect(shared.statusCode).toBe(200);
    }
    // The rows were stored directly, as before the search index existed: the job indexes them.
    await t.services.searchIndexer.backfill();
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = (body: Record<string, unknown>, user?: User) =>
    t.app.inject({
      method: 'POST',
      url: '/api/p/v1/searchVideos',
      headers: user?.headers,
      payload: body,
    });
  const searchOk = async (body: Record<string, unknown>, user?: User) => {
    const response = await search(body, user);
    expect(response.statusCode, response.body).toBe(200);
    return SearchVideosReply.parse(response.json().data);
  };
  const idOf = (hit: SearchHit) => hit.moment_id ?? hit.task_id;

  it('shows anonymous visitors shared moments only, one row per video, title matches first', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const reply = await searchOk({ query: 'climate' });
    // Both shared moments are of one video: one row, the title match leading, the other under it.
    expect(reply.items.map(idOf)).toEqual([ids.sharedTitleMoment]);
    const [row] = reply.items;
    expect(row).toMatchObject({
      kind: 'moment',
      task_id: ids.strangerTask,
      title: 'Why the climate matters',
      video: { title: 'Climate secrets of my diary' },
      score: 40,
    });
    expect(row!.moments).toEqual([
      {
        moment_id: ids.sharedTextMoment,
        title: 'Rivers in spring',
        // The snippet is the sentence that matched, not the whole transcript.
        snippet: 'The climate is warming up fast.',
        start_ms: 11_000,
        score: 95,
      },
    ]);
    expect(reply.has_more).toBe(false);
  });

  it('never repeats a video run as several tasks, nor the same moment kept by two of them', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const db = t.services.database.db;
    const moments = new MomentsRepository(db);
    const video = { url: 'https://example.com/orchard.mp4', title: 'Orchard tour' };
    const sentences = ['The apple orchard blooms in April.', 'Pruning keeps the orchard healthy.'];
    // One link, run three times: a moment task, a question task and a caption task.
    const runs = [];
    for (const kind of ['viral', 'search', 'caption']) {
      const task = await seedTranscribedTask(db, owner.userId, video.title, segmentsOf(sentences));
      await db.update(tasksTable).set({ kind, video }).where(eq(tasksTable.id, task.id));
      runs.push(task);
    }
    // The moment task and the question task both keep the first sentence; the moment task
    // also keeps the second.
    const keep = (taskId: string, type: string, spans: [string, number, number][]) =>
      moments.syncForTask(
        taskId,
        type,
        spans.map(([title, startMs, endMs], rank) => ({
          taskId,
          userId: owner.userId,
          type,
          rank,
          startMs,
          endMs,
          score: 70 - rank * 10,
          reasons: [],
          title,
          description: '',
          hashtags: [],
          transcript: sentences[rank]!,
        })),
      );
    await keep(runs[0]!.id, 'video_snippet', [
      ['The orchard in bloom', 0, 2700],
      ['Pruning the orchard', 2800, 4800],
    ]);
    // The question task trims it otherwise (later start, later end): still the same moment.
    await keep(runs[1]!.id, 'search_snippet', [['The orchard in bloom', 300, 3300]]);
    await t.services.searchIndexer.backfill();

    const reply = await searchOk({ query: 'orchard' }, owner);
    expect(reply.items).toHaveLength(1);
    const [row] = reply.items;
    const shown = [row!.moment_id, ...row!.moments.map((m) => m.moment_id)].filter(Boolean);
    expect(new Set(shown).size).toBe(shown.length);
    const titles = [
      ...(row!.kind === 'moment' ? [row!.title] : []),
      ...row!.moments.map((m) => m.title),
    ];
    expect(titles.filter((title) => title === 'The orchard in bloom')).toHaveLength(1);
    expect(titles).toContain('Pruning the orchard');
  });

  it("finds a signed-in user's own videos by title and transcript, and nobody else's private rows", async (ctx) => {
    if (skip) return ctx.skip(skip);
    const reply = await searchOk({ query: 'climate' }, owner);
    const found = reply.items.map(idOf);
    // The stranger's two shared moments are one video: one row.
    expect(new Set(found)).toEqual(
      new Set([ids.ownTitleTask, ids.sharedTitleMoment, ids.ownTextTask]),
    );
    // Title hits (the keynote, the shared title moment) come before transcript hits.
    expect(new Set(found.slice(0, 2))).toEqual(new Set([ids.ownTitleTask, ids.sharedTitleMoment]));

    const textTask = reply.items.find((hit) => hit.task_id === ids.ownTextTask)!;
    expect(textTask).toMatchObject({ kind: 'task', moment_id: null, score: null });
    expect(textTask.title).toBe('Cooking pasta at home');
    expect(textTask.snippet.length).toBeLessThanOrEqual(200);
    expect(textTask.snippet).toMatch(/climate is changing/);
    expect(textTask.snippet.startsWith('…')).toBe(true);
    // The long sentence is the third segment: it starts after 4 + 3 words of 400 ms.
    expect(textTask.start_ms).toBe(1000 + 7 * 400);

    // A word that only the stranger's private task and private moment contain.
    expect((await searchOk({ query: 'zeppelin' }, owner)).items).toEqual([]);
    expect((await searchOk({ query: 'zeppelin' })).items).toEqual([]);
    const own = await searchOk({ query: 'zeppelin' }, stranger);
    // The stranger's video and its moment: one row.
    expect(own.items).toHaveLength(1);
    const [row] = own.items;
    expect(row!.task_id).toBe(ids.strangerTask);
    expect([row!.moment_id, ...row!.moments.map((m) => m.moment_id)]).toContain(ids.privateMoment);

    const strangers = (await searchOk({ query: 'climate' }, stranger)).items.map(idOf);
    expect(strangers).not.toContain(ids.ownTitleTask);
    expect(strangers).not.toContain(ids.ownTextTask);
  });

  it('matches partial words and phrases, and treats LIKE wildcards literally', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // "glacier" is a stem of "glaciers"; the moment about snow melting early follows by meaning.
    const partial = await searchOk({ query: 'glacier' }, owner);
    expect(partial.items.map(idOf)).toEqual([ids.ownTextTask, ids.sharedTextMoment]);
    const prefix = await searchOk({ query: 'Keyno' }, owner);
    expect(prefix.items.map(idOf)).toEqual([ids.ownTitleTask]);
    const phrase = await searchOk({ query: '"drain the pasta"' }, owner);
    expect(phrase.items.map(idOf)).toEqual([ids.ownTextTask]);
    for (const query of ['%', '_', '%_%', '\\']) {
      expect((await searchOk({ query }, owner)).items, query).toEqual([]);
    }
  });

  it('pages with search_id in the same order as one big page', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const all = (await searchOk({ query: 'climate' }, owner)).items.map(idOf);
    const paged: string[] = [];
    let searchId: string | undefined;
    for (let page = 0; page < 10; page++) {
      const reply = await searchOk({ query: 'climate', num: 1, search_id: searchId }, owner);
      paged.push(...reply.items.map(idOf));
      searchId = reply.search_id;
      if (!reply.has_more) break;
    }
    expect(paged).toEqual(all);
    // Same query, spaced and cased differently, keeps its cursor.
    const first = await searchOk({ query: 'climate', num: 2 }, owner);
    const second = await searchOk(
      { query: '  Climate ', num: 2, search_id: first.search_id },
      owner,
    );
    expect(second.items.map(idOf)).toEqual(all.slice(2, 4));
  });

  it('refuses a forged or borrowed search_id', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const anonymous = await searchOk({ query: 'climate', num: 1 });
    const ownerPage = await searchOk({ query: 'climate', num: 1 }, owner);
    const [payload, signature] = ownerPage.search_id.split('.');
    const state = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    const tampered = Buffer.from(JSON.stringify({ ...state, offset: 0 })).toString('base64url');
    const strangerState = Buffer.from(JSON.stringify({ ...state, user: stranger.userId })).toString(
      'base64url',
    );
    const cases: [string, string, User | undefined][] = [
      ['garbage', 'not-a-cursor', owner],
      ['tampered offset', `${tampered}.${signature}`, owner],
      ['other user, old signature', `${strangerState}.${signature}`, stranger],
      ["an anonymous visitor's cursor", anonymous.search_id, owner],
      ["the owner's cursor used by the stranger", ownerPage.search_id, stranger],
      ["the owner's cursor used anonymously", ownerPage.search_id, undefined],
    ];
    for (const [label, searchId, user] of cases) {
      const response = await search({ query: 'climate', search_id: searchId }, user);
      expect(response.statusCode, label).toBe(422);
      expect(response.json().code, label).toBe('INVALID_INPUT');
    }
    const otherQuery = await search({ query: 'pasta', search_id: ownerPage.search_id }, owner);
    expect(otherQuery.statusCode).toBe(422);
  });

  it('rejects an empty or oversized query', async (ctx) => {
    if (skip) return ctx.skip(skip);
    for (const body of [
      {},
      { query: '' },
      { query: '   ' },
      { query: 'x'.repeat(501) },
      { query: 'climate', num: 0 },
      { query: 'climate', num: 101 },
    ]) {
      const response = await search(body, owner);
      expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_FAILED');
    }
    const max = await searchOk({ query: 'climate', num: 100 });
    expect(max.items.length).toBe(1);
  });
});
