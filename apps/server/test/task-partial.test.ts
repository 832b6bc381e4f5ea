// A task page opened while a long task transcribes loads everything heard so far (the
// pushes only carry what is added after it opened): the chunks done from the start, in order,
// on the whole video's clock, with the provisional moments; nothing of a chunk not yet done.
import type { Transcript } from '@moments/ai/asr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsrChunksRepository } from '../src/modules/tasks/asr-chunks.repository.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

/** A chunk's own transcript (times from the chunk's start): one word per `step` ms. */
function heard(text: string, step = 400): Transcript {
  const words = text.split(' ').map((word, i) => ({
    text: word,
    startMs: 200 + i * step,
    endMs: 200 + i * step + step - 50,
    confidence: 0.9,
  }));
  return {
    language: 'en',
    durationMs: 60_000,
    segments: [{ startMs: words[0]!.startMs, endMs: words.at(-1)!.endMs, text, words }],
  };
}

const CHUNKS = [
  'The first part explains why the bridge was built across the river in winter.',
  'Then the engineers found that the ice itself could carry the heaviest loads safely.',
  'The last part is still being heard and must not appear yet.',
];

describe.each(DATABASE_TARGETS)('the transcript so far on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open());
  });
  afterAll(async () => {
    await t?.close();
  });

  async function transcribingTask(userId: string, chunksDone: number[]) {
    const db = t.services.database.db;
    const task = await new TasksRepository(db).insert({
      userId,
      kind: 'viral',
      urlSource: 'upload',
      video: { url: 'upload://fixture', title: 'Bridge talk' },
      sourceLang: 'en',
      captionDisplay: 'source',
      status: 'IN_PROGRESS',
      stage: 'transcribing',
      progress: 50,
      durationMs: 180_000,
    });
    const chunks = new AsrChunksRepository(db);
    await chunks.replace(
      task.id,
      CHUNKS.map((_, idx) => ({
        idx,
        startMs: idx * 60_000,
        endMs: (idx + 1) * 60_000,
        audioKey: `users/${userId}/tasks/${task.id}/asr/chunk-${idx}.wav`,
        language: 'en',
      })),
    );
    for (const idx of chunksDone) {
      await chunks.claim(task.id, idx, `run-${idx}`, 'test-worker');
      await chunks.update(task.id, idx, `run-${idx}`, {
        status: 'DONE',
        result: heard(CHUNKS[idx]!),
      });
    }
    return task;
  }

  const partialOf = (headers: Record<string, string>, id: string) =>
    t.app.inject({ method: 'GET', url: `/api/highlight_moment/task/partial?id=${id}`, headers });

  it('answers the chunks done from the start, in order, on the video’s clock', async (ctx) => {
    if (skip) ctx.skip();
    const user = await signUp(t.app, 'late');
    // Chunks 0 and 1 are done; 2 is still being heard.
    const task = await transcribingTask(user.userId, [1, 0]);
    const response = await partialOf(user.headers, task.id);
    expect(response.statusCode).toBe(200);
    const partial = response.json().data;
    expect(partial).toMatchObject({ chunks_done: 2, chunk_count: 3, transcribed_ms: 120_000 });
    const text = partial.added.map((line: { text: string }) => line.text).join(' ');
    expect(text).toBe(`${CHUNKS[0]} ${CHUNKS[1]}`);
    expect(text).not.toContain('still being heard');
    // The second chunk's words sit a minute in, where they are in the video.
    expect(partial.added[1].start_ms).toBeGreaterThanOrEqual(60_000);
    expect(partial.added[1].start_ms).toBeLessThan(62_000);
    expect(Array.isArray(partial.moments)).toBe(true);
  });

  it('answers nothing while the first chunk is still heard, even when a later one is done', async (ctx) => {
    if (skip) ctx.skip();
    const user = await signUp(t.app, 'early');
    const task = await transcribingTask(user.userId, [1]);
    const response = await partialOf(user.headers, task.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toBeNull();
  });

  it('shows another user’s task to no one but its owner', async (ctx) => {
    if (skip) ctx.skip();
    const owner = await signUp(t.app, 'owner');
    const stranger = await signUp(t.app, 'stranger');
    const task = await transcribingTask(owner.userId, [0]);
    expect((await partialOf(stranger.headers, task.id)).statusCode).toBe(404);
    expect((await partialOf(owner.headers, 'not-an-id')).statusCode).toBe(404);
  });
});
