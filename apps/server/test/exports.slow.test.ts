/**
 * Export jobs end to end on real renders: a finished task is stored directly (media, transcript,
 * moment), then exported through the API with the workers running; the MP4 is probed, its frames
 * OCR'd with tesseract and its loudness measured, so what is checked is what a viewer would get.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CaptionPreview, Job } from '@moments/contract';
import { runFfmpeg, runFfprobe } from '@moments/media/ffmpeg';
import { synthesizeSpeech } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entitlementOf } from './support/credits.js';
import { DATABASE_TARGETS } from './support/databases.js';
import { seedFinishedTask, waitForJob } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);
const VIDEO_MS = 6000;
/** Spoken words and their times in the source; the moment spans 1000-5000 ms. */
const WORDS = [
  { text: 'elephant', startMs: 1500, endMs: 2200 },
  { text: 'guitar', startMs: 2500, endMs: 3100 },
  { text: 'planet', startMs: 3400, endMs: 4000 },
  { text: 'window', startMs: 4300, endMs: 4900 },
];
const MOMENT = { startMs: 1000, endMs: 5000 };

let workDir: string;
let sourceVideo: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-exports-'));
  // Each word spoken at its time over a busy, face-less picture (testsrc2), quiet (about -31 LUFS)
  // so the export's loudness normalisation has work to do. The limiter gives the synthetic speech
  // the peak-to-loudness ratio of real recordings (about 11 dB, like jfk.flac); raw synthesized
  // speech is far peakier than anything -14 LUFS with a -1.5 dBTP ceiling can hold.
  const wavs: string[] = [];
  for (const word of WORDS) {
    wavs.push(await synthesizeSpeech(word.text, path.join(workDir, `${word.text}.wav`)));
  }
  const delays = WORDS.map(
    (word, index) => `[${index + 1}:a]adelay=${word.startMs}:all=1,aresample=48000[w${index}]`,
  );
  sourceVideo = path.join(workDir, 'source.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1280x720:rate=25:duration=${VIDEO_MS / 1000}`,
    ...wavs.flatMap((wav) => ['-i', wav]),
    '-filter_complex',
    `${delays.join(';')};${WORDS.map((_, i) => `[w${i}]`).join('')}amix=inputs=${WORDS.length}:normalize=0,` +
      `alimiter=limit=0.08:level=false:attack=1:release=30,apad,atrim=0:${VIDEO_MS / 1000}[a]`,
    '-map',
    '0:v',
    '-map',
    '[a]',
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

describe.each(DATABASE_TARGETS)('exports on $name', (target) => {
  let skip: string | null = null;
  let t: TestApp;

  beforeAll(async () => {
    skip = await target.unavailable();
    if (skip) return;
    t = await startTestApp(await target.open(), {}, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A DONE task with its media, transcript and one moment, as the task runner leaves it. */
  const finishedTask = (
    userId: string,
    options: { status?: string; mediaStored?: boolean; kind?: string } = {},
  ) =>
    seedFinishedTask(t, userId, {
      video: sourceVideo,
      title: 'Animal sounds',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { ...MOMENT, title: 'Four words' },
      ...options,
    });

  const post = (headers: Record<string, string>, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  async function download(job: Job, name: string): Promise<string> {
    const response = await t.app.inject({ method: 'GET', url: job.file_url! });
    expect(response.statusCode).toBe(200);
    const file = path.join(workDir, `${target.name}-${name}.mp4`);
    await fs.writeFile(file, response.rawPayload);
    return file;
  }

  async function exportUsage(userId: string): Promise<number> {
    return (await entitlementOf(t.services, userId, 'CANVAS_EXPORT')).usage;
  }

  it('exports a moment to 9:16 with captions at their words, normalised audio, blur fit', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'exporter');
    const { momentId } = await finishedTask(user.userId);
    const options = { aspect: '9:16', quality: '720p', template: 'one_word' };

    const started = await post(user.headers, '/api/job', {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: momentId,
      options,
    });
    expect(started.statusCode, started.body).toBe(200);
    const job = Job.parse(started.json().data);
    expect(job).toMatchObject({ status: 'IN_PROGRESS', moment_id: momentId, file_url: null });

    const done = await waitForJob(t.app, user.headers, job.job_id);
    expect(done.error_reason).toBeNull();
    expect(done).toMatchObject({ status: 'DONE', progress: 100, moment_id: momentId });
    expect(done.file_url).toBeTruthy();
    const video = await download(done, 'moment');

    // Size and length exact (within one frame at 25 fps).
    const info = await probe(video);
    expect(info).toMatchObject({ width: 720, height: 1280, videoCodec: 'h264', pixFmt: 'yuv420p' });
    expect(info.audio).toMatchObject({ codec: 'aac', sampleRate: 48000 });
    expect(Math.abs(info.videoDurationS - 4)).toBeLessThanOrEqual(0.04);

    // Captions: nothing before the first word (clip 0.2 s), each word at its own time.
    expect(await readCaptionsAt(video, 200, 1280)).not.toMatch(/ELEPHANT|GUITAR|PLANET|WINDOW/);
    for (const word of WORDS) {
      const middle = (word.startMs + word.endMs) / 2 - MOMENT.startMs;
      expect(await readCaptionsAt(video, middle, 1280)).toContain(word.text.toUpperCase());
    }

    // Loudness normalised to -14 LUFS integrated.
    expect(Math.abs((await integratedLoudness(video)) + 14)).toBeLessThanOrEqual(1.5);
    expect(await integratedLoudness(sourceVideo)).toBeLessThan(-24);

    // No face in the source: the whole frame sits sharp in the middle over a blurred fill.
    const sharpness = await bandSharpness(video, 200, 720, 1280);
    expect(sharpness.middle).toBeGreaterThan(sharpness.top * 4);
    expect(sharpness.middle).toBeGreaterThan(sharpness.bottom * 4);

    // The preview is the very document that was burnt in.
    const preview = await post(user.headers, '/api/captions/preview', {
      moment_id: momentId,
      options,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const previewed = CaptionPreview.parse(preview.json().data);
    expect(previewed).toMatchObject({ width: 720, height: 1280, ...toApiSpan(MOMENT) });
    const burnt = await fs.readFile(
      path.join(t.dataDir, 'files', 'users', user.userId, 'jobs', `${job.job_id}.ass`),
      'utf8',
    );
    expect(previewed.ass).toBe(burnt);
    expect(previewed.fonts.map((font) => font.family)).toContain('Noto Sans');
    const font = await t.app.inject({ method: 'GET', url: previewed.fonts[0]!.url });
    expect(font.statusCode).toBe(200);
    expect(font.headers['cache-control']).toContain('max-age=31536000');
    expect(font.rawPayload.length).toBeGreaterThan(10_000);

    // The moment is clipped; the user was told; one export was charged.
    const clipped = (
      await t.app.inject({
        method: 'GET',
        url: '/api/highlight_moment/clipped/list',
        headers: user.headers,
      })
    ).json().data as { id: string }[];
    expect(clipped.map((moment) => moment.id)).toContain(momentId);
    const notes = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notify/history?page_num=1&page_size=20',
        headers: user.headers,
      })
    ).json().data.content as { type: string; data: Record<string, unknown> }[];
    expect(notes).toContainEqual(
      expect.objectContaining({
        type: 'JOB_VIRAL_MOMENT_EXPORT',
        data: expect.objectContaining({
          job_status: 'DONE',
          job_id: job.job_id,
          job_title: 'Four words',
        }),
      }),
    );
    expect(await exportUsage(user.userId)).toBe(1);

    // Listed for its owner, invisible to anyone else.
    const list = (
      await t.app.inject({
        method: 'GET',
        url: '/api/job/list?page_num=1&page_size=10&type=VIRAL_MOMENT_EXPORT',
        headers: user.headers,
      })
    ).json().data as Job[];
    expect(list.map((item) => item.job_id)).toEqual([job.job_id]);
    const other = await signUp(t.app, 'stranger');
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: `/api/job/${job.job_id}`,
        headers: other.headers,
      });
      expect(response.statusCode, method).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
  });

  it('exports a whole caption task in its own shape with an edited transcript', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'captioner');
    const { taskId } = await finishedTask(user.userId, { kind: 'caption' });
    const started = await post(user.headers, '/api/job', {
      type: 'ANIMATED_CAPTION_EXPORT',
      task_id: taskId,
      options: {
        aspect: 'original',
        quality: '720p',
        template: 'one_word',
        transcript_text: 'elephant guitar trombone window',
      },
    });
    expect(started.statusCode, started.body).toBe(200);
    const done = await waitForJob(t.app, user.headers, Job.parse(started.json().data).job_id);
    expect(done.error_reason).toBeNull();
    expect(done).toMatchObject({ status: 'DONE', moment_id: null, task_id: taskId });
    const video = await download(done, 'caption');
    const info = await probe(video);
    expect(info).toMatchObject({ width: 1280, height: 720 });
    expect(Math.abs(info.videoDurationS - VIDEO_MS / 1000)).toBeLessThanOrEqual(0.04);
    // The corrected word is shown in the time of the word it replaced.
    const planet = WORDS[2]!;
    expect(await readCaptionsAt(video, (planet.startMs + planet.endMs) / 2, 720)).toContain(
      'TROMBONE',
    );

    const notes = (
      await t.app.inject({
        method: 'GET',
        url: '/api/notify/history?page_num=1&page_size=20',
        headers: user.headers,
      })
    ).json().data.content as { type: string; data: Record<string, unknown> }[];
    expect(notes.map((note) => [note.type, note.data.job_status])).toContainEqual([
      'JOB_ANIMATED_CAPTION_EXPORT',
      'DONE',
    ]);
  });

  it('answers bad input with a clear 4xx and refunds a failed export', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'careless');
    const { momentId, taskId } = await finishedTask(user.userId);
    const exportMoment = (options: object) =>
      post(user.headers, '/api/job', { type: 'VIRAL_MOMENT_EXPORT', moment_id: momentId, options });

    for (const [options, code] of [
      [{ start_ms: -500, end_ms: 2000 }, 'INVALID_RANGE'],
      [{ start_ms: 1000, end_ms: VIDEO_MS + 1000 }, 'INVALID_RANGE'],
      [{ start_ms: 3000, end_ms: 3000 }, 'INVALID_RANGE'],
      [{ start_ms: 3000, end_ms: 2000 }, 'INVALID_RANGE'],
      // One end alone outside the source (the other taken from the moment).
      [{ start_ms: VIDEO_MS + 5000 }, 'INVALID_RANGE'],
      [{ end_ms: VIDEO_MS + 1 }, 'INVALID_RANGE'],
      [{ template: 'sparkles' }, 'UNKNOWN_TEMPLATE'],
      [{ style: { font_family: 'Comic Sans MS' } }, 'UNKNOWN_FONT'],
    ] as const) {
      const response = await exportMoment(options);
      expect(response.statusCode, JSON.stringify(options)).toBe(422);
      expect(response.json().code).toBe(code);
      const preview = await post(user.headers, '/api/captions/preview', {
        moment_id: momentId,
        options,
      });
      expect(preview.statusCode).toBe(422);
      expect(preview.json().code).toBe(code);
    }
    // A colour that is not one is refused before anything is looked up.
    for (const style of [{ text_color: 'red' }, { box_color: '#GG0000' }, { outline_width: -1 }]) {
      const response = await exportMoment({ style });
      expect(response.statusCode, JSON.stringify(style)).toBe(400);
    }
    if (process.env.LLM_BASE_URL) {
      console.warn('LLM_BASE_URL is set: skipping the "translation unavailable" check');
    } else {
      const response = await exportMoment({ caption_display: 'translate', target_lang: 'de' });
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('TRANSLATION_UNAVAILABLE');
    }

    // Someone else's moment or task is not found, exactly like a missing one.
    const other = await signUp(t.app, 'nosy');
    for (const body of [
      { type: 'VIRAL_MOMENT_EXPORT', moment_id: momentId },
      { type: 'ANIMATED_CAPTION_EXPORT', task_id: taskId },
    ]) {
      const response = await post(other.headers, '/api/job', body);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    const running = await finishedTask(user.userId, { status: 'IN_PROGRESS' });
    const early = await post(user.headers, '/api/job', {
      type: 'ANIMATED_CAPTION_EXPORT',
      task_id: running.taskId,
    });
    expect(early.statusCode).toBe(409);
    expect(await exportUsage(user.userId)).toBe(0);

    // A source that vanished fails readably, and the export is given back.
    const lost = await finishedTask(user.userId, { mediaStored: false });
    const started = await post(user.headers, '/api/job', {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: lost.momentId,
      options: { quality: '720p' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const failed = await waitForJob(t.app, user.headers, started.json().data.job_id);
    expect(failed.status).toBe('ERROR');
    expect(failed.error_reason).toMatch(/no longer stored/);
    expect(failed.file_url).toBeNull();
    expect(await exportUsage(user.userId)).toBe(0);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/job/${failed.job_id}`,
      headers: user.headers,
    });
    expect(removed.statusCode).toBe(200);
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/job/${failed.job_id}`,
      headers: user.headers,
    });
    expect(gone.statusCode).toBe(404);

    // Fonts: only the caption font files, by name.
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'passwd', 'DejaVuSans.ttf']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/captions/fonts/${name}` });
      expect(response.statusCode, name).toBe(404);
    }
    const templates = (await t.app.inject({ method: 'GET', url: '/api/captions/templates' })).json()
      .data as { id: string }[];
    expect(templates.map((template) => template.id)).toEqual(
      expect.arrayContaining(['karaoke', 'one_word', 'classic']),
    );
  });
});

const toApiSpan = (span: { startMs: number; endMs: number }) => ({
  start_ms: span.startMs,
  end_ms: span.endMs,
});

async function probe(video: string) {
  const json = JSON.parse(
    await runFfprobe(['-v', 'error', '-show_streams', '-of', 'json', video]),
  ) as {
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      pix_fmt?: string;
      duration?: string;
      sample_rate?: string;
    }[];
  };
  const videoStream = json.streams.find((stream) => stream.codec_type === 'video')!;
  const audioStream = json.streams.find((stream) => stream.codec_type === 'audio');
  return {
    width: videoStream.width,
    height: videoStream.height,
    videoCodec: videoStream.codec_name,
    pixFmt: videoStream.pix_fmt,
    videoDurationS: Number(videoStream.duration),
    audio: audioStream && {
      codec: audioStream.codec_name,
      sampleRate: Number(audioStream.sample_rate),
    },
  };
}

let ocrCounter = 0;
const white = 'if(gte(val,215),255,0)';
/**
 * Text tesseract reads in the lower half of the frame at `atMs`. Captions are white: keeping only
 * pixels bright in all three channels (as black on white) drops the colourful picture behind them.
 */
async function readCaptionsAt(video: string, atMs: number, height: number): Promise<string> {
  const png = path.join(workDir, `ocr-${ocrCounter++}.png`);
  await runFfmpeg([
    '-i',
    video,
    '-ss',
    (atMs / 1000).toFixed(3),
    '-frames:v',
    '1',
    '-vf',
    `crop=iw:${Math.round(height * 0.5)}:0:${Math.round(height * 0.45)},format=rgb24,` +
      `lutrgb=r='${white}':g='${white}':b='${white}',format=gray,lut=y='if(gte(val,250),0,255)'`,
    png,
  ]);
  const { stdout } = await run('tesseract', [png, '-', '--psm', '6', '-l', 'eng']);
  return stdout.replace(/\s+/g, ' ').trim();
}

async function integratedLoudness(file: string): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostats',
    '-i',
    file,
    '-map',
    '0:a:0',
    '-af',
    'ebur128',
    '-f',
    'null',
    '-',
  ]);
  const match = /Integrated loudness:\s+I:\s+(-?[\d.]+) LUFS/.exec(stderr);
  if (!match) throw new Error(`no loudness in ffmpeg output: ${stderr.slice(-500)}`);
  return Number(match[1]);
}

/** Mean horizontal gradient of the top, middle and bottom thirds of the frame at `atMs`. */
async function bandSharpness(video: string, atMs: number, width: number, height: number) {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-ss',
      (atMs / 1000).toFixed(3),
      '-i',
      video,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  const pixels = stdout as Buffer;
  const band = (fromRow: number, toRow: number) => {
    let sum = 0;
    let count = 0;
    for (let y = fromRow; y < toRow; y++) {
      for (let x = 1; x < width; x++) {
        sum += Math.abs(pixels[y * width + x]! - pixels[y * width + x - 1]!);
        count++;
      }
    }
    return sum / count;
  };
  // A 16:9 picture fitted into 720x1280 is 405 rows high, centred: rows 437 to 842.
  const fittedTop = Math.round((height - (width * 9) / 16) / 2);
  return {
    top: band(20, fittedTop - 20),
    middle: band(fittedTop + 20, height - fittedTop - 20),
    bottom: band(height - fittedTop + 20, height - 20),
  };
}
