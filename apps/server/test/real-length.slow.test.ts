/**
 * The price and the plan's longest video follow a file's real length, the end of its packets,
 * not the duration its header states: an MP4 whose mvhd, tkhd and mdhd were edited, and a WebM
 * whose Segment Info Duration was, are refused on the free plan when they are longer than its 60
 * minutes, just as the honest files are, and are charged by their real length when they fit.
 * Uploads and links alike. No more sound is heard than the length charged for, and a transcript
 * that runs past the measured end stops the task, refunded.
 *
 * Transcription is a local stand-in for a remote endpoint (ASR_BASE_URL) that hears the same words
 * spread over 140 s in any audio, cut to the audio's own length: what is said does not matter
 * here, only how far the words reach.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Task, VideoMeta } from '@moments/contract';
import { taskCost } from '@moments/domain';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { hasYtDlp } from '@moments/media/ingest';
import {
  makeLongTestVideo,
  serveFiles,
  writeWithHeaderDuration,
  type ServedFiles,
} from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { mediaAnalyses, uploads } from '../src/db/schema.js';
import { multipartFile, signUp, startTestApp, waitForTask, type TestApp } from './support/app.js';
import { entitlementOf, userInfo } from './support/billing.js';
import { startTranscriptionStandIn, type TranscriptionStandIn } from './support/stand-ins.js';

type User = Awaited<ReturnType<typeof signUp>>;

const TALK = 'we measured the video by its packets and charged it by what it really holds';
/** Past the free plan's 60 minutes by one. */
const LONG_SEC = 61 * 60;
/** What the edited headers claim. */
const CLAIMED_SEC = 20;
/** Within the plan: two and a half minutes, charged as 3 started minutes. */
const SHORT_SEC = 150;

let dir: string;
let served: ServedFiles;
let transcriber: TranscriptionStandIn;
let t: TestApp;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-real-length-'));
  for (const extension of ['mp4', 'webm']) {
    const long = await makeLongTestVideo(path.join(dir, `long.${extension}`), {
      durationSec: LONG_SEC,
    });
    await writeWithHeaderDuration(
      long,
      path.join(dir, `long-claims-20s.${extension}`),
      CLAIMED_SEC,
    );
    await makeLongTestVideo(path.join(dir, `short-claims-20s.${extension}`), {
      durationSec: SHORT_SEC,
      headerSec: CLAIMED_SEC,
    });
  }
  const minute = await makeLongTestVideo(path.join(dir, 'minute.mp4'), { durationSec: 60 });
  const squeeze = 'setts=pts=PTS/4:dts=DTS/4:duration=DURATION/4';
  await runFfmpeg([
    '-i',
    minute,
    '-c',
    'copy',
    '-bsf:v',
    squeeze,
    '-bsf:a',
    squeeze,
    path.join(dir, 'squeezed.mp4'),
  ]);
  served = await serveFiles(dir);
  transcriber = await startTranscriptionStandIn(TALK, 140_000);
  t = await startTestApp(
    await openDatabase({}),
    { MEDIA_FETCH_ALLOW_HOSTS: '127.0.0.1', ASR_BASE_URL: transcriber.baseUrl },
    { workers: true },
  );
}, 180_000);

afterAll(async () => {
  await t?.close();
  await served?.close();
  await transcriber?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const START = '/api/highlight_moment/task/start?source_lang=auto&caption_display=source';

async function upload(user: User, name: string): Promise<VideoMeta> {
  const body = multipartFile(name, await fs.readFile(path.join(dir, name)));
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/upload',
    payload: body.payload,
    headers: { ...user.headers, ...body.headers },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  return VideoMeta.parse(uploaded.json().data);
}

const start = (user: User, meta: Partial<VideoMeta>, urlSource: string) =>
  t.app.inject({
    method: 'POST',
    url: `${START}&url_source=${urlSource}`,
    headers: user.headers,
    payload: meta,
  });

async function startLink(user: User, name: string): Promise<Task> {
  const started = await start(user, { url: `${served.url}/${name}` }, 'direct');
  expect(started.statusCode, started.body).toBe(200);
  return Task.parse(started.json().data);
}

const credit = async (user: User) => entitlementOf(await userInfo(t.app, user), 'CREDIT');

const finished = async (user: User, taskId: string) =>
  Task.parse(await waitForTask(t.app, user.headers, taskId, 180_000));

/** A length in ms is the real one: the file's packets end just after it. */
const expectRealLength = (ms: number | null | undefined, seconds: number) => {
  expect(ms).toBeGreaterThanOrEqual(seconds * 1000);
  expect(ms).toBeLessThan(seconds * 1000 + 1500);
};

describe.each(['mp4', 'webm'])('an uploaded %s whose header understates its length', (ext) => {
  it('is refused on the free plan when it runs past 60 minutes, as the honest file is', async () => {
    const user = await signUp(t.app, `long-upload-${ext}`);
    const honest = await start(user, await upload(user, `long.${ext}`), 'upload');
    expect(honest.statusCode, honest.body).toBe(402);
    expect(honest.json().code).toBe('VIDEO_TOO_LONG');

    const claimed = await upload(user, `long-claims-20s.${ext}`);
    expectRealLength(claimed.duration! * 1000, LONG_SEC);
    const lying = await start(user, claimed, 'upload');
    expect(lying.statusCode, lying.body).toBe(402);
    expect(lying.json()).toMatchObject({ code: 'VIDEO_TOO_LONG', message: honest.json().message });
    expect(await credit(user)).toMatchObject({ usage: 0 });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/highlight_moment/task/list',
      headers: user.headers,
    });
    expect(list.json().data).toEqual([]);
  });

  it('is charged by its real length when it fits the plan, and processed as long as it is', async () => {
    const user = await signUp(t.app, `short-upload-${ext}`);
    const meta = await upload(user, `short-claims-20s.${ext}`);
    expectRealLength(meta.duration! * 1000, SHORT_SEC);
    // Its picture is taken over the real length, not the 20 s claimed, and shows.
    const picture = await t.app.inject({ method: 'GET', url: meta.thumbnail! });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    const started = await start(user, meta, 'upload');
    expect(started.statusCode, started.body).toBe(200);
    const task = Task.parse(started.json().data);
    const price = taskCost('viral', SHORT_SEC * 1000);
    expect(price).toBeGreaterThan(taskCost('viral', CLAIMED_SEC * 1000));
    expect(task.cost_credits).toBe(price);
    expect(await credit(user)).toMatchObject({ usage: price });

    const done = await finished(user, task.id);
    expect(done.error_reason).toBeNull();
    expect(done).toMatchObject({ status: 'DONE', cost_credits: price });
    expectRealLength(done.duration_ms, SHORT_SEC);
    expect(await credit(user)).toMatchObject({ usage: price });
  });
});

describe.skipIf(!hasYtDlp()).each(['mp4', 'webm'])(
  'a linked %s whose header understates its length',
  (ext) => {
    it('fails on the free plan when it runs past 60 minutes, as the honest link does, charged nothing', async () => {
      const user = await signUp(t.app, `long-link-${ext}`);
      const honest = await startLink(user, `long.${ext}`);
      const lying = await startLink(user, `long-claims-20s.${ext}`);
      const [honestEnd, lyingEnd] = await Promise.all([
        finished(user, honest.id),
        finished(user, lying.id),
      ]);
      expect(honestEnd.status).toBe('ERROR');
      expect(honestEnd.error_reason).toMatch(/longer than your plan's limit of 60 minutes/);
      expect(lyingEnd).toMatchObject({
        status: 'ERROR',
        error_reason: honestEnd.error_reason,
        cost_credits: 0,
      });
      expectRealLength(lyingEnd.duration_ms, LONG_SEC);
      expect(await credit(user)).toMatchObject({ usage: 0 });
    });

    it('is charged by its real length when it fits the plan, and processed as long as it is', async () => {
      const user = await signUp(t.app, `short-link-${ext}`);
      const task = await startLink(user, `short-claims-20s.${ext}`);
      const done = await finished(user, task.id);
      expect(done.error_reason).toBeNull();
      const price = taskCost('viral', done.duration_ms!);
      expect(price).toBe(taskCost('viral', SHORT_SEC * 1000));
      expect(done).toMatchObject({ status: 'DONE', cost_credits: price });
      expectRealLength(done.duration_ms, SHORT_SEC);
      expectRealLength(done.video.duration! * 1000, SHORT_SEC);
      expect(await credit(user)).toMatchObject({ usage: price });
    });
  },
);

describe('an upload stored with the length its header claimed', () => {
  it('fails refunded when the run measures it longer than charged, and a Retry charges the real length', async () => {
    const user = await signUp(t.app, 'stored-before');
    const meta = await upload(user, 'short-claims-20s.mp4');
    // As an upload stored before lengths were measured holds it: the header's 20 s, and no
    // measured facts kept for its task to read.
    const uploadId = meta.url.slice('upload://'.length);
    const [row] = await t.services.database.db
      .update(uploads)
      .set({ durationMs: CLAIMED_SEC * 1000 })
      .where(eq(uploads.id, uploadId))
      .returning();
    await t.services.database.db
      .delete(mediaAnalyses)
      .where(eq(mediaAnalyses.mediaKey, row!.storageKey));
    const started = await start(user, { ...meta, duration: CLAIMED_SEC }, 'upload');
    expect(started.statusCode, started.body).toBe(200);
    const task = Task.parse(started.json().data);
    expect(task.cost_credits).toBe(taskCost('viral', CLAIMED_SEC * 1000));

    const failed = await finished(user, task.id);
    expect(failed.status).toBe('ERROR');
    expect(failed.error_reason).toMatch(/longer than the 0:20 it was charged for/);
    expect(failed.cost_credits).toBe(0);
    expectRealLength(failed.duration_ms, SHORT_SEC);
    expect(await credit(user)).toMatchObject({ usage: 0 });

    const retried = await t.app.inject({
      method: 'POST',
      url: `/api/highlight_moment/task/retry?id=${task.id}`,
      headers: user.headers,
    });
    expect(retried.statusCode, retried.body).toBe(200);
    const price = taskCost('viral', SHORT_SEC * 1000);
    const done = await finished(user, task.id);
    expect(done.error_reason).toBeNull();
    expect(done).toMatchObject({ status: 'DONE', cost_credits: price });
    expect(await credit(user)).toMatchObject({ usage: price });
  });
});

describe('a file whose sound outlasts the timestamps of its packets', () => {
  // Every packet's times squeezed to a quarter: the packets end at 15 s, yet the decoder plays
  // all 60 s of the sound they hold.
  const MEASURED_MS = 15_000;

  const startSqueezed = async (user: User) => {
    const meta = await upload(user, 'squeezed.mp4');
    expect(meta.duration! * 1000).toBe(MEASURED_MS);
    const started = await start(user, meta, 'upload');
    expect(started.statusCode, started.body).toBe(200);
    expect(await credit(user)).toMatchObject({ usage: taskCost('viral', MEASURED_MS) });
    return Task.parse(started.json().data);
  };

  it('is heard only for the length it was charged for', async () => {
    const user = await signUp(t.app, 'squeezed');
    const done = await finished(user, (await startSqueezed(user)).id);
    expect(done.error_reason).toBeNull();
    expect(done).toMatchObject({ status: 'DONE', duration_ms: MEASURED_MS });
    const transcript = await t.app.inject({
      method: 'GET',
      url: `/api/highlight_moment/task/transcript?id=${done.id}`,
      headers: user.headers,
    });
    expect(transcript.json().data.duration_ms).toBeLessThanOrEqual(MEASURED_MS);
    const words = transcript.json().data.segments.flatMap((s: { words: object[] }) => s.words);
    expect(words.length).toBeGreaterThan(0);
    for (const word of words) expect(word.end).toBeLessThanOrEqual(MEASURED_MS);
  });

  it('stops the task, refunded, when its transcript proves it longer than measured', async () => {
    // Were the audio ever extracted past the bound, the transcript is the last check: words the
    // engine heard after the measured end.
    const media = t.services.media;
    const bounded = media.extractAudio;
    media.extractAudio = (source, outWav, options) =>
      bounded.call(media, source, outWav, { ...options, maxDurationMs: undefined });
    try {
      const user = await signUp(t.app, 'heard-past-the-end');
      const ended = await finished(user, (await startSqueezed(user)).id);
      expect(ended.status).toBe('ERROR');
      expect(ended.error_reason).toMatch(/past the end of this video at 0:15/);
      expect(ended.cost_credits).toBe(0);
      expect(await credit(user)).toMatchObject({ usage: 0 });
    } finally {
      media.extractAudio = bounded;
    }
  });
});
