/**
 * Deleting an unfinished video whose transcript a follow-up question already used keeps the
 * transcription paid: only what it did not make (its summary) goes back. A root nobody built on is
 * refunded whole, as before. On PGlite and PostgreSQL.
 */
import { taskQuote } from '@moments/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { seedUpload } from './support/fixtures.js';

describe.each(DATABASE_TARGETS)('refunds of a deleted root on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    // No workers: the root stays unfinished while its follow-up starts.
    t = await startTestApp(await target.open());
  });
  afterAll(async () => {
    await t?.close();
  });

  const START = '/api/highlight_moment/task/start?url_source=upload&source_lang=en';
  const net = (taskId: string) => t.services.billing.reads.netCharged({ taskId });

  /** A root task started on an upload, transcribed but not finished. */
  async function transcribedRoot(user: Awaited<ReturnType<typeof signUp>>) {
    const video = await seedUpload(t, user.userId, 150_000);
    const started = await t.app.inject({
      method: 'POST',
      url: START,
      headers: user.headers,
      payload: video,
    });
    expect(started.statusCode, started.body).toBe(200);
    const rootId = started.json().data.id as string;
    const repo = new TasksRepository(t.services.database.db);
    await repo.update(rootId, {
      status: 'IN_PROGRESS',
      stage: 'summary',
      mediaKey: `users/${user.userId}/tasks/${rootId}/source.mp4`,
    });
    await repo.saveTranscript({
      taskId: rootId,
      language: 'en',
      durationMs: 150_000,
      engine: 'fixture',
      segments: [{ startMs: 0, endMs: 900, text: 'hello there', words: [] }],
    });
    return { rootId, video };
  }

  it('keeps the run of a root whose transcript a question used, and refunds its summary', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'root-reused');
    const { rootId, video } = await transcribedRoot(user);
    const quote = taskQuote('viral', 150_000);
    expect(await net(rootId)).toBe(quote.total);

    const question = await t.app.inject({
      method: 'POST',
      url: `${START}&query=pricing&root_task_id=${rootId}`,
      headers: user.headers,
      payload: video,
    });
    expect(question.statusCode, question.body).toBe(200);
    expect(question.json().data.reuses_transcript).toBe(true);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/highlight_moment/task?id=${rootId}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(200);
    await expect.poll(() => net(rootId)).toBe(quote.run);
  });

  it('refunds a root nobody built on whole', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'root-alone');
    const { rootId } = await transcribedRoot(user);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/highlight_moment/task?id=${rootId}`,
      headers: user.headers,
    });
    await expect.poll(() => net(rootId)).toBe(0);
  });
});
