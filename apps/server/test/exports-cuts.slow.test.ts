/**
 * Cut exports on real renders: words deleted by text and long pauses shortened. The exported MP4
 * is probed (its length), its audio scanned with silencedetect (no long pause left) and its
 * frames OCR'd with tesseract (the deleted word never shown, each kept word's caption where the
 * cut timeline puts it, and where the speech engine, transcribing the export again, hears it);
 * bad cut requests are refused with their codes, nothing stored.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fasterWhisperAvailability, FasterWhisperEngine } from '@moments/ai/asr';
import { CaptionPreview, Job } from '@moments/contract';
import { cutTimeOf, keptOf } from '@moments/domain/cuts';
import { runFfmpeg, runFfprobe } from '@moments/media/ffmpeg';
import { synthesizeSpeech } from '@moments/media/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TARGETS } from './support/databases.js';
import { seedFinishedTask, waitForJob } from './support/fixtures.js';
import { signUp, startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);
const asr = fasterWhisperAvailability();
const VIDEO_MS = 8000;
/** Words with long pauses between some of them; the moment is the whole video. */
const WORDS = [
  { text: 'elephant', startMs: 500, endMs: 1200 },
  { text: 'guitar', startMs: 1500, endMs: 2100 },
  { text: 'planet', startMs: 3500, endMs: 4100 },
  { text: 'window', startMs: 4400, endMs: 5000 },
  { text: 'rocket', startMs: 6600, endMs: 7200 },
];
const MOMENT = { startMs: 0, endMs: VIDEO_MS };

let workDir: string;
let sourceVideo: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-cuts-'));
  const wavs: string[] = [];
  for (const word of WORDS) {
    wavs.push(await synthesizeSpeech(word.text, path.join(workDir, `${word.text}.wav`)));
  }
  // Each word trimmed to its slot, so the silence between words is the silence planned.
  const parts = WORDS.map(
    (word, index) =>
      `[${index + 1}:a]aresample=48000,atrim=0:${(word.endMs - word.startMs) / 1000},` +
      `adelay=${word.startMs}:all=1[w${index}]`,
  );
  sourceVideo = path.join(workDir, 'source.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1280x720:rate=25:duration=${VIDEO_MS / 1000}`,
    ...wavs.flatMap((wav) => ['-i', wav]),
    '-filter_complex',
    `${parts.join(';')};${WORDS.map((_, i) => `[w${i}]`).join('')}amix=inputs=${WORDS.length}:normalize=0,` +
      `apad,atrim=0:${VIDEO_MS / 1000}[a]`,
    ...['-map', '0:v', '-map', '[a]', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-t', String(VIDEO_MS / 1000), sourceVideo],
  ]);
});

afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

// One database is enough here: what is checked is the render, not the storage.
describe.each(DATABASE_TARGETS.slice(0, 1))('cut exports on $name', (target) => {
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

  const post = (headers: Record<string, string>, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  async function exportAndDownload(
    headers: Record<string, string>,
    momentId: string,
    options: object,
    name: string,
  ) {
    const preview = await post(headers, '/api/captions/preview', { moment_id: momentId, options });
    expect(preview.statusCode, preview.body).toBe(200);
    const started = await post(headers, '/api/job', {
      type: 'VIRAL_MOMENT_EXPORT',
      moment_id: momentId,
      options,
    });
    expect(started.statusCode, started.body).toBe(200);
    const done = await waitForJob(t.app, headers, Job.parse(started.json().data).job_id);
    expect(done.error_reason).toBeNull();
    const response = await t.app.inject({ method: 'GET', url: done.file_url! });
    const file = path.join(workDir, `${name}.mp4`);
    await fs.writeFile(file, response.rawPayload);
    return { file, preview: CaptionPreview.parse(preview.json().data) };
  }

  // The source's own shape: no face analysis, the cut is what is timed here.
  it('cuts a deleted word out of the picture, the sound and the captions', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'cutter');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video: sourceVideo,
      title: 'Cut words',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { ...MOMENT, title: 'Five words' },
    });
    // Delete "guitar" (the cut is moved to the pauses around it).
    const options = {
      aspect: 'original',
      quality: '720p',
      template: 'one_word',
      cuts: [{ start_ms: 1500, end_ms: 2100 }],
    };
    const { file, preview } = await exportAndDownload(user.headers, momentId, options, 'cut');
    expect(preview.removed).toEqual([{ start_ms: 1350, end_ms: 2800 }]);
    expect(preview.duration_ms).toBe(VIDEO_MS - 1450);
    expect(preview.words.map((word) => word.text)).not.toContain('guitar');

    const durationMs = await mediaDurationMs(file);
    expect(Math.abs(durationMs - (VIDEO_MS - 1450))).toBeLessThanOrEqual(100);
    const kept = keptOf(
      preview.removed.map((span) => ({ startMs: span.start_ms, endMs: span.end_ms })),
      MOMENT,
    );
    const seen: string[] = [];
    // Where "guitar" was: the second around the join (the cut starts at 1350 ms).
    for (let atMs = 600; atMs <= 2400; atMs += 300) {
      seen.push((await readCaptionsAt(file, atMs, 720)).toLowerCase());
    }
    expect(seen.join(' ')).not.toContain('guitar');
    // Every kept word is captioned where the cut timeline puts it.
    for (const word of WORDS.filter((w) => w.text !== 'guitar')) {
      const at = cutTimeOf(kept, (word.startMs + word.endMs) / 2);
      expect((await readCaptionsAt(file, at, 720)).toLowerCase()).toContain(word.text);
    }
    // Nor is it in the sound: transcribed again, the export says the four other words only.
    if (!asr.available) return ctx.skip(`the speech engine (${asr.reason})`);
    const heard = (await heardWords(file)).map((word) => word.text);
    expect(heard).not.toContain('guitar');
    expect(
      heard.filter((text) => WORDS.some((w) => w.text === text)).length,
    ).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('shortens long pauses to min_ms, measured on the audio, captions in step', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'pauser');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video: sourceVideo,
      title: 'Pauses',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { ...MOMENT, title: 'Five words' },
    });
    const options = {
      aspect: 'original',
      quality: '720p',
      template: 'one_word',
      remove_silences: { min_ms: 300 },
    };
    const { file, preview } = await exportAndDownload(user.headers, momentId, options, 'pauses');
    expect(preview.removed.length).toBeGreaterThanOrEqual(3);
    const durationMs = await mediaDurationMs(file);
    expect(Math.abs(durationMs - preview.duration_ms)).toBeLessThanOrEqual(100);
    expect(durationMs).toBeLessThan(VIDEO_MS - 2500);
    const pauses = await silencesOver(file, 0.45);
    expect(pauses, JSON.stringify(pauses)).toEqual([]);
    const kept = keptOf(
      preview.removed.map((span) => ({ startMs: span.start_ms, endMs: span.end_ms })),
      MOMENT,
    );
    for (const word of WORDS) {
      const at = cutTimeOf(kept, (word.startMs + word.endMs) / 2);
      expect((await readCaptionsAt(file, at, 720)).toLowerCase()).toContain(word.text);
    }
    // In step with the sound itself, not only with the plan: the export is transcribed again by
    // the speech engine the product uses, and at the middle of each word it hears there, the
    // burnt-in caption shows that word.
    if (!asr.available) return ctx.skip(`the speech engine (${asr.reason})`);
    const heard = await heardWords(file);
    const ours = heard.filter((word) => WORDS.some((w) => w.text === word.text));
    // Whisper may mishear one synthetic word out of the five; four are enough to judge timing.
    expect(ours.length, JSON.stringify(heard)).toBeGreaterThanOrEqual(WORDS.length - 1);
    for (const word of ours) {
      const at = Math.round((word.startMs + word.endMs) / 2);
      const caption = (await readCaptionsAt(file, at, 720)).toLowerCase();
      expect(caption, `"${word.text}" heard at ${at} ms`).toContain(word.text);
    }
  }, 240_000);

  it('refuses unknown options and bad cuts with their codes', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const user = await signUp(t.app, 'badcuts');
    const { momentId } = await seedFinishedTask(t, user.userId, {
      video: sourceVideo,
      title: 'Bad cuts',
      durationMs: VIDEO_MS,
      words: WORDS,
      moment: { ...MOMENT, title: 'Five words' },
    });
    const refused = async (options: object) => {
      const job = await post(user.headers, '/api/job', {
        type: 'VIRAL_MOMENT_EXPORT',
        moment_id: momentId,
        options,
      });
      const preview = await post(user.headers, '/api/captions/preview', {
        moment_id: momentId,
        options,
      });
      expect(preview.json().code).toBe(job.json().code);
      return { status: job.statusCode, ...(job.json() as { code: string; message: string }) };
    };
    const unknown = await refused({ aspect: 'original', cutz: [] });
    expect(unknown).toMatchObject({ status: 400, code: 'UNKNOWN_OPTION' });
    expect(unknown.message).toContain('cutz');
    expect(
      await refused({
        cuts: [
          { start_ms: 1000, end_ms: 2000 },
          { start_ms: 1500, end_ms: 2500 },
        ],
      }),
    ).toMatchObject({ status: 422, code: 'CUTS_OVERLAP' });
    expect(await refused({ cuts: [{ start_ms: 7000, end_ms: 9000 }] })).toMatchObject({
      status: 422,
      code: 'CUT_OUT_OF_RANGE',
    });
    expect(await refused({ cuts: [{ start_ms: 0, end_ms: 8000 }] })).toMatchObject({
      status: 422,
      code: 'CUTS_REMOVE_EVERYTHING',
    });
    for (const minMs of [0, -300]) {
      expect(await refused({ remove_silences: { min_ms: minMs } })).toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/job/list', headers: user.headers });
    expect(list.json().data).toEqual([]);
  });
});

/** The words the speech engine hears in the file (lower case, no punctuation), timed in it. */
async function heardWords(file: string) {
  const engine = new FasterWhisperEngine();
  try {
    const transcript = await engine.transcribe(file, { language: 'en' });
    return transcript.segments
      .flatMap((segment) => segment.words)
      .map((word) => ({
        text: word.text.toLowerCase().replace(/[^\p{L}]+/gu, ''),
        startMs: word.startMs,
        endMs: word.endMs,
      }));
  } finally {
    engine.close();
  }
}

async function mediaDurationMs(file: string): Promise<number> {
  const out = await runFfprobe([
    ...['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
  ]);
  return Math.round(Number(out.trim()) * 1000);
}

/** Silences in the file's audio longer than `minSec` (silencedetect at -35 dB). */
async function silencesOver(file: string, minSec: number): Promise<string[]> {
  const { stderr } = await run('ffmpeg', [
    ...['-hide_banner', '-nostats', '-i', file, '-map', '0:a:0'],
    ...['-af', `silencedetect=noise=-35dB:d=${minSec}`, '-f', 'null', '-'],
  ]);
  return [
    ...stderr.matchAll(/silence_start: [-\d.]+|silence_end: [\d.]+ \| silence_duration: [\d.]+/g),
  ].map((match) => match[0]);
}

let ocrCounter = 0;
const white = 'if(gte(val,215),255,0)';
/** Text tesseract reads in the lower half of the frame at `atMs` (white captions only). */
async function readCaptionsAt(video: string, atMs: number, height: number): Promise<string> {
  const png = path.join(workDir, `ocr-${ocrCounter++}.png`);
  await runFfmpeg([
    ...['-i', video, '-ss', (atMs / 1000).toFixed(3), '-frames:v', '1', '-vf'],
    `crop=iw:${Math.round(height * 0.5)}:0:${Math.round(height * 0.45)},format=rgb24,` +
      `lutrgb=r='${white}':g='${white}':b='${white}',format=gray,lut=y='if(gte(val,250),0,255)'`,
    png,
  ]);
  const { stdout } = await run('tesseract', [png, '-', '--psm', '6', '-l', 'eng']);
  return stdout.replace(/\s+/g, ' ').trim();
}
