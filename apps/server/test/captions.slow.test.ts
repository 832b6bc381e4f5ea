/**
 * Captions on the server: subtitle files of a caption task (parsed back with the `subtitle`
 * library, cue times checked against the words), honest translation (refused at start with no
 * charge when nothing can translate; timed to the source lines through a stand-in OpenAI-compatible
 * endpoint on 127.0.0.1), and the whole-video caption export charged by duration, refunded on failure.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runFfmpeg, runFfprobe } from '@moments/media/ffmpeg';
import { eq } from 'drizzle-orm';
import { parseSync, type NodeCue } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, jobs, tasks } from '../src/db/schema.js';
import { entitlementOf } from './support/credits.js';
import { TasksRepository } from '../src/modules/tasks/tasks.repository.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { waitForJob } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';
import { startWorkers } from '../src/services.js';

const VIDEO_MS = 9000;
/** Two transcript lines (two turns); "um" and the doubled "the" are fillers. */
const LINES = [
  {
    startMs: 400,
    endMs: 3900,
    words: [
      ['Welcome', 400, 900],
      ['um', 1000, 1300],
      ['to', 1400, 1600],
      ['the', 1700, 1900],
      ['the', 2000, 2200],
      ['harbour', 2300, 2900],
      ['tour.', 3000, 3900],
    ],
  },
  {
    startMs: 5200,
    endMs: 8600,
    words: [
      ['Boats', 5200, 5700],
      ['leave', 5800, 6200],
      ['every', 6300, 6700],
      ['hour', 6800, 7300],
      ['from', 7400, 7700],
      ['pier', 7800, 8200],
      ['nine.', 8300, 8600],
    ],
  },
] as const;
const WORDS = LINES.flatMap((line) =>
  line.words.map(([text, startMs, endMs]) => ({ text, startMs, endMs })),
);

let workDir: string;
let video: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-captions-'));
  video = path.join(workDir, 'source.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=640x360:rate=10:duration=${VIDEO_MS / 1000}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=300:duration=${VIDEO_MS / 1000}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    video,
  ]);
});

afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

/** A DONE caption task with its media and a two-line transcript. */
async function seedCaptionTask(t: TestApp, userId: string, mediaStored = true) {
  const repo = new TasksRepository(t.services.database.db);
  const task = await repo.insert({
    userId,
    kind: 'caption',
    urlSource: 'upload',
    video: { url: 'upload://fixture', title: 'Harbour tour' },
    sourceLang: 'en',
    captionDisplay: 'source',
    status: 'DONE',
    stage: 'finishing',
    progress: 100,
    detectedLang: 'en',
    durationMs: VIDEO_MS,
  });
  const mediaKey = `users/${userId}/tasks/${task.id}/source.mp4`;
  if (mediaStored) await t.services.storage.putFile(mediaKey, video);
  await repo.update(task.id, { mediaKey });
  await repo.saveTranscript({
    taskId: task.id,
    language: 'en',
    durationMs: VIDEO_MS,
    engine: 'fixture',
    segments: LINES.map((line) => ({
      startMs: line.startMs,
      endMs: line.endMs,
      text: line.words.map(([text]) => text).join(' '),
      words: line.words.map(([text, startMs, endMs]) => ({
        text,
        startMs,
        endMs,
        confidence: 0.9,
      })),
    })),
  });
  return task.id;
}

const cuesOf = (text: string) =>
  parseSync(text)
    .filter((node): node is NodeCue => node.type === 'cue')
    .map((node) => node.data);

describe.each(DATABASE_TARGETS)('caption files and charges on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    // This suite is about a default install: no LLM endpoint (the test config sets none).
    t = await startTestApp(await target.open(), {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (headers: Record<string, string>, url: string) =>
    t.app.inject({ method: 'GET', url, headers });

  it('downloads SRT and WebVTT whose cues parse and sit on the words, edited and without fillers', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'subtitler');
    const taskId = await seedCaptionTask(t, user.userId);

    for (const format of ['srt', 'vtt'] as const) {
      const response = await get(
        user.headers,
        `/api/captions/subtitles?task_id=${taskId}&format=${format}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toContain(`Harbour tour.en.${format}`);
      const cues = cuesOf(response.body);
      // Every word is in exactly one cue, in order; no cue crosses the turn between the lines.
      expect(cues.map((cue) => cue.text.replace(/\n/g, ' ')).join(' ')).toBe(
        WORDS.map((word) => word.text).join(' '),
      );
      let next = 0;
      for (const cue of cues) {
        const words = cue.text.split(/\s+/);
        const first = WORDS[next]!;
        const last = WORDS[next + words.length - 1]!;
        expect(Math.abs(cue.start - first.startMs)).toBeLessThanOrEqual(50);
        expect(Math.abs(cue.end - last.endMs)).toBeLessThanOrEqual(50);
        expect(cue.start < 5200 && cue.end > 5200).toBe(false);
        next += words.length;
      }
    }

    const edited = WORDS.map((word) => (word.text === 'pier' ? 'dock' : word.text)).join(' ');
    const cleaned = await get(
      user.headers,
      `/api/captions/subtitles?task_id=${taskId}&format=srt&remove_fillers=true&transcript_text=${encodeURIComponent(edited)}`,
    );
    const text = cuesOf(cleaned.body)
      .map((cue) => cue.text.replace(/\n/g, ' '))
      .join(' ');
    expect(text).toBe('Welcome to the harbour tour. Boats leave every hour from dock nine.');
    const dock = cuesOf(cleaned.body).find((cue) => cue.text.includes('dock'))!;
    expect(dock.end).toBeGreaterThanOrEqual(8200 - 50);

    const ass = await get(user.headers, `/api/captions/subtitles?task_id=${taskId}&format=ass`);
    expect(ass.statusCode).toBe(200);
    expect(ass.body).toMatch(/^\[Script Info\]/);
    expect(ass.body).toContain('PlayResX: 1920');

    // Someone else's task is not found; a translation nothing here can make is refused.
    const other = await signUp(t.app, 'peeker');
    expect((await get(other.headers, `/api/captions/subtitles?task_id=${taskId}`)).statusCode).toBe(
      404,
    );
    const translated = await get(
      user.headers,
      `/api/captions/subtitles?task_id=${taskId}&lang=target&target_lang=es`,
    );
    expect(translated.statusCode).toBe(422);
    expect(translated.json().code).toBe('TRANSLATION_UNAVAILABLE');
  });

  it('refuses target_lang at start with no charge, treats an empty one as none, and says why per pair', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'translator');
    const start = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/tool-task/v2/caption/start?url_source=upload&${query}`,
        headers: user.headers,
        payload: { url: 'upload://6f1c1a52-0000-4000-8000-000000000000' },
      });
    const refused = await start('target_lang=es');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('TRANSLATION_UNAVAILABLE');
    expect(refused.json().message).toMatch(/LLM_BASE_URL/);
    // Empty means "no translation": it gets past validation to the (missing) upload.
    const empty = await start('target_lang=');
    expect(empty.statusCode).toBe(404);
    expect(empty.json().code).toBe('NOT_FOUND');
    const stored = await t.services.database.db
      .select()
      .from(tasks)
      .where(eq(tasks.userId, user.userId));
    expect(stored).toHaveLength(0);

    const languages = (await get(user.headers, '/api/captions/languages')).json().data;
    expect(languages.engine).toBeNull();
    const spanish = languages.languages.find(
      (language: { code: string }) => language.code === 'es',
    );
    expect(spanish).toMatchObject({ available: false });
    expect(spanish.note).toMatch(/cannot translate them into Spanish yet/);
  });

  it('cuts filler words out of the exported picture and sound, keeping the rest in sync', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'trimmer');
    const taskId = await seedCaptionTask(t, user.userId);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: {
        type: 'ANIMATED_CAPTION_EXPORT',
        task_id: taskId,
        options: { aspect: 'original', quality: '720p', remove_fillers: true },
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const done = await waitForJob(t.app, user.headers, started.json().data.job_id);
    expect(done.error_reason).toBeNull();
    const file = path.join(workDir, `${target.name}-fillers.mp4`);
    await fs.writeFile(
      file,
      (await t.app.inject({ method: 'GET', url: done.file_url! })).rawPayload,
    );
    const streams = JSON.parse(
      await runFfprobe(['-v', 'error', '-show_streams', '-of', 'json', file]),
    ).streams as { codec_type: string; duration: string; width?: number; height?: number }[];
    // "um" (cut 950-1350 ms) and the first "the" (cut 1650-1950 ms) are gone: 700 ms shorter.
    const expectedS = (VIDEO_MS - 700) / 1000;
    const videoStream = streams.find((stream) => stream.codec_type === 'video')!;
    const audioStream = streams.find((stream) => stream.codec_type === 'audio')!;
    expect(videoStream).toMatchObject({ width: 1280, height: 720 });
    expect(Math.abs(Number(videoStream.duration) - expectedS)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(Number(audioStream.duration) - expectedS)).toBeLessThanOrEqual(0.1);
    expect(done.duration_ms).toBe(VIDEO_MS - 700);
  });

  it('charges a whole-video caption export by duration once and refunds it when it fails', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'payer');
    const usage = async (feature: string) => {
      return (await entitlementOf(t.services, user.userId, feature)).usage;
    };
    const creditsBefore = await usage('CREDIT');
    const lost = await seedCaptionTask(t, user.userId, false);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: { type: 'ANIMATED_CAPTION_EXPORT', task_id: lost, options: { quality: '720p' } },
    });
    expect(started.statusCode, started.body).toBe(200);
    // 9 s of video: one started minute, 10 units (1 credit), not one of the plan's canvas exports.
    expect(started.json().data.cost_credits).toBe(10);
    expect(await usage('CREDIT')).toBe(creditsBefore + 10);
    expect(await usage('CANVAS_EXPORT')).toBe(0);
    const failed = await waitForJob(t.app, user.headers, started.json().data.job_id);
    expect(failed.status).toBe('ERROR');
    expect(await usage('CREDIT')).toBe(creditsBefore);
  });
});

describe.each(DATABASE_TARGETS)('a caption export whose worker died, on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;
  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    // No workers yet: the job waits in the queue until the "dead worker" is staged.
    t = await startTestApp(await target.open(), { TASK_LEASE_MS: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is resumed by the lease reaper, finishes, and is charged once', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'resumer');
    const taskId = await seedCaptionTask(t, user.userId);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/job',
      headers: user.headers,
      payload: {
        type: 'ANIMATED_CAPTION_EXPORT',
        task_id: taskId,
        options: { aspect: 'original', quality: '720p' },
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const jobId = started.json().data.job_id as string;
    // A worker took it, got 40% in and was killed: its token is on the row, its heart-beat stale.
    const longAgo = new Date(Date.now() - 60_000);
    await t.services.database.db
      .update(jobs)
      .set({ runToken: 'dead-worker', startedAt: longAgo, heartbeatAt: longAgo, progress: 40 })
      .where(eq(jobs.id, jobId));
    await startWorkers(t.services);
    const done = await waitForJob(t.app, user.headers, jobId);
    expect(done.error_reason).toBeNull();
    expect(done.status).toBe('DONE');
    const ledger = await t.services.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, user.userId));
    const charges = ledger.filter((entry) => entry.operationKey === `job:${jobId}`);
    expect(charges.map((entry) => entry.amount)).toEqual([-10]);
  });
});

/** An OpenAI-compatible chat endpoint that "translates" by tagging each line, so timing is checkable. */
async function standInLlm(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const messages = JSON.parse(body).messages as { content: string }[];
      const user = messages[messages.length - 1]!.content;
      const { lines } = JSON.parse(user.slice(user.lastIndexOf('\n') + 1)) as { lines: string[] };
      const translations = lines.map((line) => `ES ${line.toUpperCase()}`);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ choices: [{ message: { content: JSON.stringify({ translations }) } }] }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('translated caption files with an LLM endpoint (PGlite)', () => {
  const target = DATABASE_TARGETS[0]!;
  let t: TestApp;
  let llm: Awaited<ReturnType<typeof standInLlm>>;

  beforeAll(async () => {
    llm = await standInLlm();
    t = await startTestApp(await target.open(), { LLM_BASE_URL: llm.url, LLM_MODEL: 'stand-in' });
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it('times each translated line to the span of the source line it translates', async () => {
    const user = await signUp(t.app, 'bilingual');
    const taskId = await seedCaptionTask(t, user.userId);
    const target = await t.app.inject({
      method: 'GET',
      url: `/api/captions/subtitles?task_id=${taskId}&format=vtt&lang=target&target_lang=es`,
      headers: user.headers,
    });
    expect(target.statusCode, target.body).toBe(200);
    const cues = cuesOf(target.body);
    expect(cues[0]).toMatchObject({ start: LINES[0].startMs, end: LINES[0].endMs });
    expect(cues[0]!.text.replace(/\n/g, ' ')).toBe('ES WELCOME UM TO THE THE HARBOUR TOUR.');
    expect(cues[cues.length - 1]!.end).toBe(LINES[1].endMs);
    expect(cues[cues.length - 1]!.text).toContain('NINE.');

    const both = await t.app.inject({
      method: 'GET',
      url: `/api/captions/subtitles?task_id=${taskId}&format=srt&lang=both&target_lang=es`,
      headers: user.headers,
    });
    const pairs = cuesOf(both.body);
    expect(pairs).toHaveLength(2);
    expect(pairs[1]).toMatchObject({
      start: LINES[1].startMs,
      end: LINES[1].endMs,
      text: 'Boats leave every hour from pier nine.\nES BOATS LEAVE EVERY HOUR FROM PIER NINE.',
    });
    const languages = (await t.app.inject({ method: 'GET', url: '/api/captions/languages' })).json()
      .data;
    expect(languages.engine).toBe('llm:stand-in');
    expect(
      languages.languages.every((language: { available: boolean }) => language.available),
    ).toBe(true);
  });
});
