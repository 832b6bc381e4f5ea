/**
 * Export all on real renders: a finished 30 s talk with five short moments is exported as one
 * batch through the API with the workers running; the ZIP is downloaded over a real socket at a
 * reader's pace while the server's memory is sampled, unpacked with unzip and each MP4 probed
 * with ffprobe. One batch per database; the checks share it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ExportBatch, ExportBatchCreated, PublishKit } from '@moments/contract';
import { PUBLISH_LIMITS, textLength } from '@moments/domain/publish';
import { runFfmpeg, runFfprobe } from '@moments/media/ffmpeg';
import { synthesizeSpeech } from '@moments/media/testing';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditOperations, moments, users } from '../src/db/schema.js';
import { entitlementOf } from './support/credits.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { seedFinishedTask } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);
const VIDEO_MS = 30_000;
/** A word every 600 ms: what the captions show (the audio is one synthesized sentence, looped). */
const WORDS = Array.from({ length: 48 }, (_, i) => ({
  text: ['focus', 'builds', 'every', 'habit'][i % 4]!,
  startMs: 600 + i * 600,
  endMs: 1000 + i * 600,
}));
/** Five moments of 3 to 5 s, best first. */
const MOMENTS = [
  { startMs: 1000, endMs: 4500, title: 'Focus builds habits', hashtags: ['focus', 'habits'] },
  { startMs: 6000, endMs: 9000, title: 'Every habit counts', hashtags: ['productivity'] },
  { startMs: 11000, endMs: 15000, title: 'Why habits stick', hashtags: [] },
  { startMs: 17000, endMs: 21000, title: 'The focus loop', hashtags: ['mindset'] },
  { startMs: 23000, endMs: 27500, title: 'Small steps', hashtags: ['growth'] },
];
const OPTIONS = {
  aspect: '9:16',
  quality: '720p',
  template: 'one_word',
  layout: 'fit',
  platform: 'youtube_shorts',
  hook_title: { text: 'Five habits that stick' },
};

let workDir: string;
let sourceVideo: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-batches-'));
  const speech = await synthesizeSpeech(
    'Focus builds every habit, and every habit builds focus.',
    path.join(workDir, 'speech.wav'),
  );
  sourceVideo = path.join(workDir, 'talk.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1280x720:rate=25:duration=${VIDEO_MS / 1000}`,
    '-stream_loop',
    '-1',
    '-i',
    speech,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-t',
    String(VIDEO_MS / 1000),
    sourceVideo,
  ]);
});

afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

/** GET over the real socket, read slowly; the process's RSS sampled all along. */
async function downloadSlowly(url: string, headers: Record<string, string>, file: string) {
  const out = await fs.open(file, 'w');
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const { status, type, bytes } = await new Promise<{
      status: number;
      type: string;
      bytes: number;
    }>((resolve, reject) => {
      http
        .get(url, { headers }, (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            // A reader slower than the server: a ZIP built in memory would pile up meanwhile.
            response.pause();
            void out.write(chunk).then(() => setTimeout(() => response.resume(), 2));
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              type: String(response.headers['content-type']),
              bytes,
            }),
          );
          response.on('error', reject);
        })
        .on('error', reject);
    });
    return { status, type, bytes, rssIncrease: peak - before };
  } finally {
    clearInterval(sampler);
    await out.close();
  }
}

// Five real renders make this file's time: they run once, on PostgreSQL where it runs (as a
// deployment that outgrows one machine does), else on the embedded PGlite.
describe('export all', () => {
  let skip: string | null = null;
  let t: TestApp;
  let target: (typeof DATABASE_TARGETS)[number] | undefined;

  beforeAll(async () => {
    const postgres = DATABASE_TARGETS.find((target) => target.name === 'postgres');
    const pglite = DATABASE_TARGETS.find((target) => target.name === 'pglite');
    target = postgres && !(await postgres.unavailable()) ? postgres : pglite;
    skip = target ? await target.unavailable() : 'no database selected (TEST_DATABASES)';
    if (skip || !target) return;
    t = await startTestApp(await target.open(), {}, { workers: true, listen: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The talk with its five moments, of `userId`. */
  async function talk(userId: string) {
    const { taskId, momentId } = await seedFinishedTask(t, userId, {
      video: sourceVideo,
      title: 'Habits talk',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: MOMENTS[0]!,
    });
    const db = t.services.database.db;
    await db
      .update(moments)
      .set({ hashtags: MOMENTS[0]!.hashtags, description: 'How focus turns into habits.' })
      .where(eq(moments.id, momentId));
    const rest = await db
      .insert(moments)
      .values(
        MOMENTS.slice(1).map((moment, i) => ({
          taskId,
          userId,
          type: 'video_snippet',
          rank: i + 1,
          startMs: moment.startMs,
          endMs: moment.endMs,
          score: 70 - i,
          title: moment.title,
          hashtags: moment.hashtags,
          transcript: 'focus builds every habit',
        })),
      )
      .returning();
    return { taskId, momentIds: [momentId, ...rest.map((row) => row.id)] };
  }

  async function onPlan(userId: string, plan: string) {
    const db = t.services.database.db;
    await db.update(users).set({ currentPlan: plan }).where(eq(users.id, userId));
    await t.services.billing.ledger.grant(userId, {
      source: 'plan',
      plan,
      action: null,
      key: `test:${plan}:${userId}`,
    });
  }

  const post = (headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/job/batch', headers, payload });
  const get = (headers: Record<string, string>, url: string) =>
    t.app.inject({ method: 'GET', url, headers });

  it('renders five clips as one batch: one charge each, one notification, a streamed ZIP with covers and publish.json', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const owner = await signUp(t.app, 'batcher');
    await onPlan(owner.userId, 'vip_month');
    const { taskId, momentIds } = await talk(owner.userId);
    const db = t.services.database.db;

    // Another user: neither the owner's task nor its moments (under a task of their own).
    const other = await signUp(t.app, 'intruder');
    const theirs = await talk(other.userId);
    expect((await post(other.headers, { task_id: taskId, top_n: 5 })).statusCode).toBe(404);
    const mixed = await post(other.headers, {
      task_id: theirs.taskId,
      moment_ids: [theirs.momentIds[0], momentIds[1]],
    });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().code).toBe('NOT_FOUND');
    // A free plan has three exports: a batch of five is refused whole, before anything is kept.
    const refused = await post(other.headers, { task_id: theirs.taskId, top_n: 5 });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().code).toBe('EXPORT_LIMIT_REACHED');
    expect((await entitlementOf(t.services, other.userId, 'CANVAS_EXPORT')).usage).toBe(0);
    const jobsOfOther = await get(other.headers, '/api/job/list');
    expect(jobsOfOther.json().data).toEqual([]);
    // Neither or both of top_n and moment_ids: a bad request.
    const both = await post(owner.headers, { task_id: taskId, top_n: 2, moment_ids: momentIds });
    expect(both.statusCode).toBe(400);

    // The same request twice with one Idempotency-Key: one batch, five charges.
    const keyed = { ...owner.headers, 'idempotency-key': `batch-${target!.name}` };
    const body = { task_id: taskId, top_n: 5, options: OPTIONS };
    const first = await post(keyed, body);
    expect(first.statusCode, first.body).toBe(200);
    const created = ExportBatchCreated.parse(first.json().data);
    expect(created.job_ids).toHaveLength(5);
    const again = await post(keyed, body);
    expect(ExportBatchCreated.parse(again.json().data)).toEqual(created);
    const charges = await db
      .select()
      .from(creditOperations)
      .where(
        and(eq(creditOperations.kind, 'charge'), inArray(creditOperations.jobId, created.job_ids)),
      );
    expect(charges).toHaveLength(5);
    expect(new Set(charges.map((row) => row.jobId)).size).toBe(5);
    expect((await entitlementOf(t.services, owner.userId, 'CANVAS_EXPORT')).usage).toBe(5);

    // Per-clip progress over the realtime channel while it renders.
    const progress: Record<string, unknown>[] = [];
    const unsubscribe = await t.services.bus.subscribe((userId, message) => {
      if (userId === owner.userId)
        progress.push({ type: message.type, ...(message.data as Record<string, unknown>) });
    });
    const started = Date.now();
    const deadline = Date.now() + 240_000;
    let batch: ExportBatch;
    for (;;) {
      batch = ExportBatch.parse(
        (await get(owner.headers, `/api/job/batch/${created.batch_id}`)).json().data,
      );
      if (batch.status !== 'IN_PROGRESS' && batch.finished_at) break;
      if (Date.now() > deadline) {
        throw new Error(`batch still at ${batch.progress}%: ${JSON.stringify(batch.clips)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    await unsubscribe();
    console.log(`[export all ${target!.name}] 5 clips rendered in ${Date.now() - started} ms`);
    expect(batch.status).toBe('DONE');
    expect(batch.clips.map((clip) => clip.status)).toEqual(Array(5).fill('DONE'));
    expect(batch.clips.map((clip) => clip.moment_id)).toEqual(momentIds);
    const clipUpdates = progress.filter(
      (message) => message.batch_id === created.batch_id && message.type !== 'JOB_BATCH_EXPORT',
    );
    expect(new Set(clipUpdates.map((message) => message.job_id)).size).toBe(5);
    expect(clipUpdates.some((message) => message.job_status === 'IN_PROGRESS')).toBe(true);

    // One notification for the batch, none per clip.
    const listed = await get(owner.headers, '/api/notify/history?page_num=1&page_size=50');
    const stored = (
      listed.json().data.content as { type: string; data: Record<string, unknown> }[]
    ).map((note) => ({ type: note.type, data: note.data }));
    expect(stored.filter((note) => note.type === 'JOB_BATCH_EXPORT')).toHaveLength(1);
    expect(stored.filter((note) => note.type === 'JOB_VIRAL_MOMENT_EXPORT')).toHaveLength(0);
    expect(stored.find((note) => note.type === 'JOB_BATCH_EXPORT')!.data).toMatchObject({
      batch_id: created.batch_id,
      job_status: 'DONE',
      done_count: 5,
    });

    // The publish kit of a clip: fitted texts per platform, the chosen platform first.
    const kitReply = await get(owner.headers, `/api/job/${created.job_ids[0]}/publish_kit`);
    expect(kitReply.statusCode, kitReply.body).toBe(200);
    const kit = PublishKit.parse(kitReply.json().data);
    expect(kit.platforms.map((texts) => texts.platform)).toEqual([
      'youtube_shorts',
      'tiktok',
      'instagram_reels',
    ]);
    expect(kit.platforms[0]!.hashtags).toEqual(['#Shorts', '#focus', '#habits']);
    expect(kit.platforms[1]!.caption).toBe(
      'Focus builds habits\n\nHow focus turns into habits.\n\n#focus #habits',
    );
    // Another user's clip is not found.
    expect(
      (await get(other.headers, `/api/job/${created.job_ids[0]}/publish_kit`)).statusCode,
    ).toBe(404);

    // The ZIP, over the socket, slowly; the server's memory stays flat while it streams.
    const zipFile = path.join(workDir, `${target!.name}.zip`);
    const zip = await downloadSlowly(
      `${t.url}/api/job/batch/${created.batch_id}/zip`,
      owner.headers,
      zipFile,
    );
    expect(zip.status).toBe(200);
    expect(zip.type).toBe('application/zip');
    console.log(
      `[export all ${target!.name}] ZIP ${(zip.bytes / 1e6).toFixed(2)} MB, server RSS +${(zip.rssIncrease / 1e6).toFixed(2)} MB while streaming`,
    );
    expect(zip.rssIncrease).toBeLessThan(zip.bytes);

    const unpacked = path.join(workDir, `${target!.name}-unzipped`);
    await run('unzip', ['-q', zipFile, '-d', unpacked]);
    const names = (await fs.readdir(unpacked)).sort();
    const mp4s = names.filter((name) => name.endsWith('.mp4'));
    expect(mp4s).toEqual([
      '01-Focus builds habits.mp4',
      '02-Every habit counts.mp4',
      '03-Why habits stick.mp4',
      '04-The focus loop.mp4',
      '05-Small steps.mp4',
    ]);
    expect(names.filter((name) => /^cover-\d\.jpg$/.test(name))).toHaveLength(5);
    expect(names).toContain('publish.json');
    for (const [i, name] of mp4s.entries()) {
      const probe = JSON.parse(
        await runFfprobe([
          '-v',
          'error',
          '-show_entries',
          'stream=codec_type,width,height:format=duration',
          '-of',
          'json',
          path.join(unpacked, name),
        ]),
      ) as {
        streams: { codec_type: string; width?: number; height?: number }[];
        format: { duration: string };
      };
      const video = probe.streams.find((stream) => stream.codec_type === 'video')!;
      expect([video.width, video.height]).toEqual([720, 1280]);
      expect(probe.streams.some((stream) => stream.codec_type === 'audio')).toBe(true);
      const spanS = (MOMENTS[i]!.endMs - MOMENTS[i]!.startMs) / 1000;
      expect(Math.abs(Number(probe.format.duration) - spanS)).toBeLessThan(0.8);
    }
    const cover = JSON.parse(
      await runFfprobe([
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,width,height',
        '-of',
        'json',
        path.join(unpacked, 'cover-1.jpg'),
      ]),
    ) as { streams: { codec_name: string; width: number; height: number }[] };
    expect(cover.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 720, height: 1280 });

    const publish = JSON.parse(await fs.readFile(path.join(unpacked, 'publish.json'), 'utf8')) as {
      clips: {
        file_name: string;
        cover: string;
        platforms: {
          platform: keyof typeof PUBLISH_LIMITS;
          title: string;
          caption: string;
          hashtags: string[];
        }[];
      }[];
    };
    expect(publish.clips.map((clip) => clip.file_name)).toEqual(mp4s);
    expect(publish.clips.map((clip) => clip.cover)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `cover-${n}.jpg`),
    );
    for (const clip of publish.clips) {
      for (const texts of clip.platforms) {
        const limits = PUBLISH_LIMITS[texts.platform];
        expect(textLength(texts.title)).toBeLessThanOrEqual(limits.titleMax);
        expect(textLength(texts.caption)).toBeLessThanOrEqual(limits.captionMax);
        expect(texts.hashtags.length).toBeLessThanOrEqual(limits.hashtagsMax);
      }
    }
    // Someone else's batch: not found, its ZIP neither.
    expect((await get(other.headers, `/api/job/batch/${created.batch_id}`)).statusCode).toBe(404);
    expect((await get(other.headers, `/api/job/batch/${created.batch_id}/zip`)).statusCode).toBe(
      404,
    );
  }, 300_000);
});
