/**
 * A task is DONE once its moments are ranked: the moments' pictures and the search's embeddings
 * follow (the `task-follow-up` job) and reach open pages over the realtime channel. In between,
 * nothing breaks: the moments are listed (without their pictures), and the search finds the task
 * by its words. A server that stops after DONE and before the follow-up leaves it queued, and
 * the next start makes it. On PGlite and PostgreSQL, with the fake media tools.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SpeechEngine, Transcript } from '@moments/ai/asr';
import type { LlmClient, LlmMessage } from '@moments/ai/llm';
import { Moment, SearchVideosReply } from '@moments/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { moments } from '../src/db/schema.js';
import { LocalStorage } from '../src/storage/index.js';
import { DATABASE_TARGETS, createScratchPostgres, openPglite } from './support/databases.js';
import {
  signUp,
  startTestApp,
  uploadAndStartTask,
  waitForTask,
  type TestApp,
} from './support/app.js';
import { FakeMediaRepository } from './support/fake-media.repository.js';
import { seedFinishedTask } from './support/fixtures.js';
import { waitFor } from './support/stomp.js';

const SENTENCES = [
  'The lighthouse keeper climbed the stairs every evening before the storm arrived.',
  'Nobody in the harbour believed the lamp could be lit without electricity.',
  'She trimmed the wicks by hand and polished the brass until it shone.',
  'One winter a fishing boat found the harbour only because of that light.',
  'The captain walked up the hill the next morning to thank her in person.',
  'They stayed friends for forty years and he never missed her birthday.',
  'When the lamp was finally automated she kept the old wick in a drawer.',
  'Visitors still ask to see it and she tells the story of the storm again.',
];

function heardTranscript(): Transcript {
  const segments = SENTENCES.map((text, i) => {
    const startMs = i * 6000;
    const words = text.split(' ');
    const step = Math.floor(5800 / words.length);
    return {
      startMs,
      endMs: startMs + words.length * step,
      text,
      words: words.map((word, w) => ({
        text: word,
        startMs: startMs + w * step,
        endMs: startMs + (w + 1) * step,
        confidence: 0.95,
      })),
    };
  });
  return { language: 'en', durationMs: SENTENCES.length * 6000, segments };
}

class ScriptedSpeech implements SpeechEngine {
  readonly name = 'scripted';
  async transcribe(): Promise<Transcript> {
    return heardTranscript();
  }
}

/** Picks the first two candidates, so the task has moments to make pictures of. */
class EditorLlm implements LlmClient {
  async complete(messages: LlmMessage[]): Promise<string> {
    const asked = messages.at(-1)?.content ?? '';
    if (!asked.includes('candidate clips')) throw new Error('this stand-in only judges moments');
    return JSON.stringify({
      moments: [
        { id: 0, score: 95, title: 'The lamp in the storm' },
        { id: 1, score: 90, title: 'Forty years of friendship' },
      ],
    });
  }
}

type Pushed = { type: string; data: Record<string, unknown> };

/** Records what the realtime bus carries for one task, with what the moments held at DONE. */
function watch(t: TestApp) {
  const seen: Pushed[] = [];
  let picturesAtDone: Promise<(string | null)[]> | undefined;
  let taskId = '';
  const listen = t.services.bus.subscribe((_user, message) => {
    const pushed = message as Pushed;
    if (pushed.type !== 'TASK_STATUS_UPDATE') return;
    seen.push(pushed);
    // Read the moment rows as DONE is published: the follow-up cannot have run yet.
    if (pushed.data.task_status === 'DONE' && !pushed.data.followed_up && !picturesAtDone) {
      taskId = String(pushed.data.task_id);
      picturesAtDone = t.services.database.db
        .select({ key: moments.thumbnailKey })
        .from(moments)
        .where(eq(moments.taskId, taskId))
        .then((rows) => rows.map((row) => row.key));
    }
  });
  return {
    seen,
    listen,
    picturesAtDone: () => picturesAtDone,
    followedUp: (id: string) => seen.some((m) => m.data.task_id === id && m.data.followed_up),
  };
}

describe.each(DATABASE_TARGETS)('moments ready when ranked on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  let filesDir: string;
  const media = new FakeMediaRepository();
  media.info = { ...media.info, durationMs: SENTENCES.length * 6000 };

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    filesDir = await fs.mkdtemp(path.join(process.env.TMPDIR ?? '/tmp', 'moments-follow-up-'));
    t = await startTestApp(
      await target.open(),
      // No background framing (the fake tools analyse no faces); no poll takes the follow-up
      // before the run wakes it.
      { FRAMING_PREPARE_MOMENTS: '0', JOB_POLL_SECONDS: '30' },
      { workers: true, media, speech: new ScriptedSpeech(), llm: new EditorLlm() },
    );
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (filesDir) await fs.rm(filesDir, { recursive: true, force: true });
  });

  it('is DONE before its pictures and embeddings, which then arrive over the realtime channel', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const watcher = watch(t);
    const stop = await watcher.listen;
    try {
      const user = await signUp(t.app, 'keeper');
      const taskId = await uploadAndStartTask(t.app, user.headers, {
        name: 'lighthouse.mp4',
        content: Buffer.from('stand-in media: the fake tools never read it'),
      });
      const task = await waitForTask(t.app, user.headers, taskId, 60_000);
      expect(task.status).toBe('DONE');
      await waitFor(() => watcher.followedUp(taskId), 'the follow-up push', 30_000);

      // DONE came first, with the moments stored and none of their pictures made yet.
      const pushes = watcher.seen.filter((m) => m.data.task_id === taskId);
      const doneAt = pushes.findIndex((m) => m.data.task_status === 'DONE');
      const followedAt = pushes.findIndex((m) => m.data.followed_up);
      expect(doneAt).toBeGreaterThanOrEqual(0);
      expect(followedAt).toBeGreaterThan(doneAt);
      const atDone = await watcher.picturesAtDone();
      expect(atDone?.length).toBeGreaterThan(0);
      expect(atDone?.every((key) => key === null)).toBe(true);

      // Then every moment has its picture, served to its owner.
      const listed = await t.app.inject({
        method: 'GET',
        url: `/api/highlight_moment/list?task_id=${taskId}`,
        headers: user.headers,
      });
      const list = Moment.array().parse(listed.json().data);
      expect(list.length).toBe(atDone!.length);
      for (const moment of list) {
        expect(moment.thumbnail).toBeTruthy();
        const picture = await t.app.inject({
          method: 'GET',
          url: moment.thumbnail!,
          headers: user.headers,
        });
        expect(picture.statusCode).toBe(200);
      }
      // The search finds the task by its words, at a passage of it.
      const found = await t.app.inject({
        method: 'POST',
        url: '/api/p/v1/searchVideos',
        headers: user.headers,
        payload: { query: 'lighthouse keeper storm' },
      });
      const items = SearchVideosReply.parse(found.json().data).items;
      expect(items.some((item) => item.task_id === taskId && item.start_ms !== null)).toBe(true);
      // The task's notification (stored once) is the DONE one, not the follow-up.
      const history = await t.app.inject({
        method: 'GET',
        url: '/api/notify/history?page_num=1&page_size=20',
        headers: user.headers,
      });
      expect(history.statusCode, history.body).toBe(200);
      const stored = (history.json().data.content as { data: { task_id?: string } }[]).filter(
        (n) => n.data.task_id === taskId,
      );
      expect(stored).toHaveLength(1);
    } finally {
      await stop();
    }
  }, 90_000);

  it('the search finds a task by its words the moment it is DONE', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'searcher');
    const taskId = await uploadAndStartTask(t.app, user.headers, {
      name: 'harbour.mp4',
      content: Buffer.from('stand-in media'),
    });
    await waitForTask(t.app, user.headers, taskId, 60_000);
    // Asked at once, before the follow-up's embeddings: found by its words.
    const found = await t.app.inject({
      method: 'POST',
      url: '/api/p/v1/searchVideos',
      headers: user.headers,
      payload: { query: 'polished the brass' },
    });
    const items = SearchVideosReply.parse(found.json().data).items;
    expect(items.some((item) => item.task_id === taskId && item.start_ms !== null)).toBe(true);
  }, 90_000);
});

/** A database that outlives the server using it (as in webhooks-restart.test.ts). */
async function keptDatabase(kind: 'pglite' | 'postgres') {
  if (kind === 'pglite') {
    let files: Blob | File | undefined;
    return {
      async open(): Promise<Database> {
        const database = files ? await openDatabase({ loadDataDir: files }) : await openPglite();
        return {
          ...database,
          async close() {
            files = await database.pglite!.dumpDataDir('none');
            await database.close();
          },
        };
      },
      drop: async () => undefined,
    };
  }
  const scratch = await createScratchPostgres();
  return { open: () => openDatabase({ url: scratch.url }), drop: () => scratch.drop() };
}

describe.each(DATABASE_TARGETS)('a follow-up across a restart on $name', (target) => {
  let skip: string | null = null;
  beforeAll(async () => {
    skip = await target.unavailable();
  });

  it('is made by the next start when the server stopped after DONE', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const database = await keptDatabase(target.name);
    const filesDir = await fs.mkdtemp(path.join(process.env.TMPDIR ?? '/tmp', 'moments-kept-'));
    const env = { FRAMING_PREPARE_MOMENTS: '0' };
    const media = new FakeMediaRepository();
    // The stored files outlive the first server too.
    const storage = new LocalStorage(filesDir);
    try {
      // The first server is where the run ended: DONE saved, the follow-up queued, then it stopped.
      const first = await startTestApp(await database.open(), env, {
        workers: false,
        media,
        storage,
      });
      const user = await signUp(first.app, 'restarted');
      const video = path.join(first.dataDir, 'source.mp4');
      await fs.writeFile(video, 'stand-in media: the fake tools never read it');
      const { taskId, momentId } = await seedFinishedTask(first, user.userId, {
        video,
        title: 'Kept',
        durationMs: 6000,
        words: [
          { text: 'kept', startMs: 0, endMs: 500 },
          { text: 'safe', startMs: 600, endMs: 1000 },
        ],
        moment: { startMs: 0, endMs: 4000, title: 'Kept safe' },
      });
      await first.services.queue.send('task-follow-up', { taskId }, { wake: false });
      await first.close();

      const second = await startTestApp(await database.open(), env, {
        workers: true,
        media,
        storage,
      });
      const watcher = watch(second);
      const stop = await watcher.listen;
      try {
        await waitFor(() => watcher.followedUp(taskId), 'the follow-up after the restart', 30_000);
        const [row] = await second.services.database.db
          .select({ key: moments.thumbnailKey })
          .from(moments)
          .where(eq(moments.id, momentId));
        expect(row?.key).toBeTruthy();
        expect(await storage.stat(row!.key!)).not.toBeNull();
      } finally {
        await stop();
        await second.close();
      }
    } finally {
      await database.drop();
      await fs.rm(filesDir, { recursive: true, force: true });
    }
  }, 90_000);
});
