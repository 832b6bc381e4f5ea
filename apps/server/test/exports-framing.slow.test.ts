/**
 * The clip editor's framing preview (POST /api/captions/framing) against the real exporter: a
 * face-less source answers the blurred fit; a face walking left to right (a real photo panned
 * with ffmpeg) answers a crop path that follows it; the export of the same options renders that
 * very plan, checked on the pixels of the exported MP4 against the source cropped where the plan
 * says. Face analysis is the same on either database, so this runs on PGlite only.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ClipFraming, Job } from '@moments/contract';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './support/databases.js';
import { jobs } from '../src/db/schema.js';
import type { JobOptions } from '../src/modules/exports/export-renderer.js';
import { seedFinishedTask, waitForJob } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);

/** A real face photo shipped by Debian's opencv-doc; the face tests skip without it. */
const PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';
const hasPhoto = existsSync(PHOTO);
if (!hasPhoto) console.warn(`framing face tests skipped: ${PHOTO} is missing (opencv-doc)`);

const VIDEO_MS = 5000;
/** Starts on a frame (25 fps): exported frame times are then source frame times minus the start. */
const MOMENT = { startMs: 480, endMs: 4480 };
const WORDS = [
  { text: 'left', startMs: 600, endMs: 1200 },
  { text: 'middle', startMs: 2000, endMs: 2600 },
  { text: 'right', startMs: 3600, endMs: 4400 },
];
/** The head (260x300 after scaling) crosses a 1280x720 canvas at 205 px/s; its face sits here. */
const HEAD = 'crop=130:150:180:45,scale=260:300';
const FACE_IN_HEAD = { x: 96, w: 102 };
const headX = (sourceMs: number) => 60 + (205 * sourceMs) / 1000;
const OPTIONS = { aspect: '9:16', quality: '720p', caption_display: 'none' } as const;
const OUTPUT = { width: 720, height: 1280 };

let workDir: string;
let facelessVideo: string;
let faceVideo: string;
let t: TestApp;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-framing-'));
  facelessVideo = path.join(workDir, 'pattern.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1280x720:rate=25:duration=${VIDEO_MS / 1000}`,
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', facelessVideo],
  ]);
  if (hasPhoto) {
    faceVideo = path.join(workDir, 'walk.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      `color=c=0x406080:s=1280x720:r=25:d=${VIDEO_MS / 1000}`,
      '-loop',
      '1',
      '-i',
      PHOTO,
      '-filter_complex',
      `[1:v]${HEAD}[h];[0:v][h]overlay=x='60+205*t':y=200:shortest=1,format=yuv420p`,
      '-t',
      String(VIDEO_MS / 1000),
      ...['-c:v', 'libx264', '-preset', 'ultrafast', faceVideo],
    ]);
  }
  t = await startTestApp(await openPglite(), {}, { workers: true });
});

afterAll(async () => {
  await t?.close();
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

/** A DONE task whose media is `video`, with a transcript and one moment, as the runner leaves it. */
const finishedTask = (userId: string, video: string) =>
  seedFinishedTask(t, userId, {
    video,
    title: 'A walk',
    durationMs: VIDEO_MS,
    words: WORDS,
    moment: { ...MOMENT, title: 'A walk' },
  });

const post = (headers: Record<string, string>, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers, payload });

async function framingOf(headers: Record<string, string>, body: object): Promise<ClipFraming> {
  const response = await post(headers, '/api/captions/framing', body);
  expect(response.statusCode, response.body).toBe(200);
  return ClipFraming.parse(response.json().data);
}

async function storedJobOptions(jobId: string): Promise<JobOptions> {
  const [row] = await t.services.database.db.select().from(jobs).where(eq(jobs.id, jobId));
  return row!.options as JobOptions;
}

/** The crop window at `tMs` (clip time): linear between keyframes, equal times jump, last holds. */
function cropAt(keyframes: ClipFraming['keyframes'], tMs: number) {
  let current = keyframes[0]!;
  for (let i = 0; i < keyframes.length; i++) {
    const a = keyframes[i]!;
    const b = keyframes[i + 1];
    if (tMs < a.t_ms) break;
    if (!b || tMs >= b.t_ms) {
      current = b && tMs >= b.t_ms ? b : a;
      continue;
    }
    const k = (tMs - a.t_ms) / (b.t_ms - a.t_ms);
    return { ...a, x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k };
  }
  return current;
}

/** One frame as grey pixels at the output size; `filter` frames the source first when given. */
async function greyFrame(video: string, atMs: number, filter?: string): Promise<Buffer> {
  const scale = `scale=${OUTPUT.width}:${OUTPUT.height}:flags=bicubic`;
  const { stdout } = await run(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-ss', (atMs / 1000).toFixed(3), '-i', video],
      ...['-frames:v', '1', '-vf', filter ? `${filter},${scale}` : scale],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout as Buffer;
}

const meanDifference = (a: Buffer, b: Buffer) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
};

describe('framing preview', () => {
  it('answers the blurred fit for a source without a face, like the export', async () => {
    const user = await signUp(t.app, 'framer');
    const { momentId } = await finishedTask(user.userId, facelessVideo);
    const framing = await framingOf(user.headers, { moment_id: momentId, options: OPTIONS });
    expect(framing).toMatchObject({
      layout: 'blur_fit',
      source: { width: 1280, height: 720 },
      output: OUTPUT,
      start_ms: MOMENT.startMs,
      end_ms: MOMENT.endMs,
      keyframes: [],
      switches_per_minute: 0,
    });
    // One segment: the whole frame, fitted across the output's width, over the blurred fill.
    expect(framing.segments).toEqual([
      {
        start_ms: 0,
        end_ms: MOMENT.endMs - MOMENT.startMs,
        layout: 'fit',
        backdrop: true,
        panes: [
          {
            x: 0,
            y: 436,
            w: 720,
            h: 406,
            keyframes: [{ t_ms: 0, x: 0, y: 0, w: 1280, h: 720 }],
          },
        ],
      },
    ]);
  });

  it('answers bad input like the preview, and hides other users’ moments', async () => {
    const user = await signUp(t.app, 'owner');
    const { momentId, taskId } = await finishedTask(user.userId, facelessVideo);
    for (const [options, code] of [
      [{ start_ms: -500, end_ms: 2000 }, 'INVALID_RANGE'],
      [{ start_ms: 3000, end_ms: 3000 }, 'INVALID_RANGE'],
      [{ start_ms: 1000, end_ms: VIDEO_MS + 1000 }, 'INVALID_RANGE'],
      [{ template: 'sparkles' }, 'UNKNOWN_TEMPLATE'],
    ] as const) {
      const response = await post(user.headers, '/api/captions/framing', {
        moment_id: momentId,
        options,
      });
      expect(response.statusCode, JSON.stringify(options)).toBe(422);
      expect(response.json().code).toBe(code);
    }
    const other = await signUp(t.app, 'peeker');
    for (const body of [{ moment_id: momentId }, { task_id: taskId }]) {
      const response = await post(other.headers, '/api/captions/framing', {
        ...body,
        options: OPTIONS,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/captions/framing',
      payload: { moment_id: momentId },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it.skipIf(!hasPhoto)(
    'follows a walking face, and the export renders exactly the previewed crop path',
    async () => {
      const user = await signUp(t.app, 'walker');
      const { momentId } = await finishedTask(user.userId, faceVideo);
      const framing = await framingOf(user.headers, { moment_id: momentId, options: OPTIONS });
      expect(framing).toMatchObject({
        layout: 'crop',
        source: { width: 1280, height: 720 },
        output: OUTPUT,
        start_ms: MOMENT.startMs,
        end_ms: MOMENT.endMs,
      });
      const keyframes = framing.keyframes;
      expect(keyframes[0]!.t_ms).toBe(0);
      expect(keyframes[0]).toMatchObject({ w: 406, h: 720 });
      // The window moves right with the face, never back, and keeps the face in.
      const times = Array.from({ length: 40 }, (_, i) => i * 100);
      const xs = times.map((tMs) => cropAt(keyframes, tMs).x);
      expect(xs.at(-1)! - xs[0]!).toBeGreaterThan(400);
      expect(xs.every((x, i) => i === 0 || x >= xs[i - 1]!)).toBe(true);
      const faceInside = times.filter((tMs) => {
        const faceLeft = headX(MOMENT.startMs + tMs) + FACE_IN_HEAD.x;
        const x = cropAt(keyframes, tMs).x;
        return faceLeft >= x && faceLeft + FACE_IN_HEAD.w <= x + 406;
      });
      expect(faceInside.length / times.length).toBeGreaterThanOrEqual(0.95);

      // Asking again is answered from the kept plan, unchanged.
      expect(await framingOf(user.headers, { moment_id: momentId, options: OPTIONS })).toEqual(
        framing,
      );

      // The export takes the previewed plan with it when it starts, and renders with it.
      const started = await post(user.headers, '/api/job', {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options: OPTIONS,
      });
      expect(started.statusCode, started.body).toBe(200);
      const jobId = Job.parse(started.json().data).job_id;
      const attached = (await storedJobOptions(jobId)).framing;
      expect(attached?.layout).toBe('crop');
      const planKeyframes = () =>
        attached?.layout === 'crop' ? attached.plan.segments[0]!.panes[0]!.keyframes : [];
      expect(planKeyframes().map(({ tMs, ...rest }) => ({ t_ms: tMs, ...rest }))).toEqual(
        keyframes,
      );
      const done = await waitForJob(t.app, user.headers, jobId);
      expect(done.error_reason).toBeNull();
      expect(done.status).toBe('DONE');
      expect((await storedJobOptions(jobId)).framing).toEqual(attached);

      // Frame for frame: the exported picture is the source cropped where the preview crops it,
      // and not what a centred crop (the old approximation) would show.
      const response = await t.app.inject({ method: 'GET', url: done.file_url! });
      const exported = path.join(workDir, 'walk-export.mp4');
      await fs.writeFile(exported, response.rawPayload);
      for (const clipMs of [400, 2000, 3600]) {
        const window = cropAt(keyframes, clipMs);
        const sourceMs = MOMENT.startMs + clipMs;
        const crop = (x: number) => `crop=${window.w}:${window.h}:${Math.round(x)}:${window.y}`;
        const rendered = await greyFrame(exported, clipMs);
        const previewed = await greyFrame(faceVideo, sourceMs, crop(window.x));
        const centred = await greyFrame(faceVideo, sourceMs, crop((1280 - window.w) / 2));
        const previewError = meanDifference(rendered, previewed);
        // Measured: about 0.3 grey levels (encoding noise) against about 9 for the centred crop.
        expect(previewError, `at ${clipMs} ms`).toBeLessThan(1.5);
        expect(meanDifference(rendered, centred), `at ${clipMs} ms`).toBeGreaterThan(
          previewError * 5,
        );
      }
    },
    180_000,
  );
});
