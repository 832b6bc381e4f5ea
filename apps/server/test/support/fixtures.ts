import fs from 'node:fs/promises';
import path from 'node:path';
import { Job } from '@moments/contract';
import { moments, uploads } from '../../src/db/schema.js';
import type { App } from '../../src/http/types.js';
import { TasksRepository } from '../../src/modules/tasks/tasks.repository.js';
import type { TestApp } from './app.js';

export interface FinishedTaskFixture {
  /** Local video file stored as the task's media. */
  video: string;
  title: string;
  durationMs: number;
  words: ReadonlyArray<{ text: string; startMs: number; endMs: number }>;
  moment: { startMs: number; endMs: number; title: string };
  kind?: string;
  status?: string;
  /** false: the media key is set but no file is stored (a lost source). */
  mediaStored?: boolean;
}

/**
 * A task as the runner leaves it when DONE: stored media, a one-segment transcript of `words`,
 * and one moment. Much faster than running the pipeline, for tests about what comes after.
 */
export async function seedFinishedTask(t: TestApp, userId: string, fixture: FinishedTaskFixture) {
  const repo = new TasksRepository(t.services.database.db);
  const text = fixture.words.map((word) => word.text).join(' ');
  const task = await repo.insert({
    userId,
    kind: fixture.kind ?? 'viral',
    urlSource: 'upload',
    video: { url: 'upload://fixture', title: fixture.title },
    sourceLang: 'en',
    captionDisplay: 'source',
    status: fixture.status ?? 'DONE',
    stage: 'finishing',
    progress: 100,
    detectedLang: 'en',
    durationMs: fixture.durationMs,
  });
  const mediaKey = `users/${userId}/tasks/${task.id}/source.mp4`;
  if (fixture.mediaStored !== false) await t.services.storage.putFile(mediaKey, fixture.video);
  await repo.update(task.id, { mediaKey });
  await repo.saveTranscript({
    taskId: task.id,
    language: 'en',
    durationMs: fixture.durationMs,
    engine: 'fixture',
    segments: [
      {
        startMs: fixture.words[0]!.startMs,
        endMs: fixture.words[fixture.words.length - 1]!.endMs,
        text,
        words: fixture.words.map((word) => ({ ...word, confidence: 0.9 })),
      },
    ],
  });
  const [moment] = await t.services.database.db
    .insert(moments)
    .values({
      taskId: task.id,
      userId,
      type: 'video_snippet',
      rank: 0,
      startMs: fixture.moment.startMs,
      endMs: fixture.moment.endMs,
      score: 80,
      title: fixture.moment.title,
      transcript: text,
    })
    .returning();
  return { taskId: task.id, momentId: moment!.id };
}

/** Polls an export until it leaves IN_PROGRESS (tests only; the product pushes progress). */
export async function waitForJob(
  app: App,
  headers: Record<string, string>,
  id: string,
  timeoutMs = 180_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = Job.parse(
      (await app.inject({ method: 'GET', url: `/api/job/${id}`, headers })).json().data,
    );
    if (job.status !== 'IN_PROGRESS') return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still running at ${job.progress}%`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A DONE task of `userId` titled `title` with a transcript of `segments` and no media: what the
 * search and the summaries read, stored as a task stored before the search index would be.
 */
export async function seedTranscribedTask(
  db: TestApp['services']['database']['db'],
  userId: string,
  title: string,
  segments: { text: string; startMs: number; endMs: number; words: unknown[] }[],
) {
  const tasks = new TasksRepository(db);
  const task = await tasks.insert({
    userId,
    kind: 'viral',
    urlSource: 'direct',
    video: { url: `https://example.com/${encodeURIComponent(title)}.mp4`, title },
    status: 'DONE',
    stage: 'finishing',
    progress: 100,
  });
  await tasks.saveTranscript({
    taskId: task.id,
    language: 'en',
    durationMs: (segments.at(-1)?.endMs ?? 0) + 1000,
    engine: 'fixture',
    segments,
  });
  return task;
}

/**
 * A finished upload of `durationMs` as the upload route leaves it (its length known, so a start
 * charges at once); returns the video meta a start takes. No file is stored.
 */
export async function seedUpload(t: TestApp, userId: string, durationMs = 150_000) {
  const [row] = await t.services.database.db
    .insert(uploads)
    .values({
      userId,
      storageKey: `users/${userId}/uploads/fake.mp4`,
      originalName: 'talk.mp4',
      sizeBytes: 1000,
      durationMs,
    })
    .returning();
  return { url: `upload://${row!.id}`, title: 'A talk' };
}

/** Every file stored under the user's folder in local storage, as keys. */
export async function storedKeys(t: TestApp, userId: string): Promise<string[]> {
  const root = path.join(t.dataDir, 'files');
  const folder = path.join(root, 'users', userId);
  const names = await fs.readdir(folder, { recursive: true }).catch(() => [] as string[]);
  const keys: string[] = [];
  for (const name of names) {
    const full = path.join(folder, name);
    if ((await fs.stat(full)).isFile()) keys.push(path.relative(root, full));
  }
  return keys.sort();
}
