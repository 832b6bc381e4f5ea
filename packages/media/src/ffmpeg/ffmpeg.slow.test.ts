import { mkdtemp, rm, stat, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMediaError } from '../errors/index.js';
import { makeTestVideo } from '../../test/support/index.js';
import { FFmpegError, readRawFrames, runFfmpeg, runFfprobe, spawnFfmpegStream } from './index.js';
import { configureMediaTools } from '../tools/index.js';

let work: string;
let source: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'moments-ffmpeg-'));
  source = await makeTestVideo(join(work, 'source.mp4'), {
    durationSec: 2,
    width: 160,
    height: 120,
  });
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('runFfmpeg', () => {
  it('encodes a file and reports rising progress ending at 1', async () => {
    const fractions: number[] = [];
    const out = join(work, 'scaled.mp4');
    await runFfmpeg(
      ['-i', source, '-vf', 'scale=80:60', '-c:v', 'libx264', '-preset', 'ultrafast', out],
      { onProgress: (fraction) => fractions.push(fraction) },
    );
    expect((await stat(out)).size).toBeGreaterThan(1000);
    const probed = JSON.parse(
      await runFfprobe(['-v', 'error', '-show_streams', '-of', 'json', out]),
    ) as { streams: { codec_type: string; width?: number }[] };
    expect(probed.streams.find((s) => s.codec_type === 'video')?.width).toBe(80);
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('reports progress part way through a run, from the given duration', async () => {
    const fractions: number[] = [];
    // -re paces the input in real time, so ffmpeg reports progress while it runs.
    await runFfmpeg(
      ['-re', '-f', 'lavfi', '-i', 'color=size=16x16:rate=10:duration=1.6', '-f', 'null', '-'],
      { durationMs: 1600, onProgress: (fraction) => fractions.push(fraction) },
    );
    expect(fractions.some((fraction) => fraction > 0.1 && fraction < 0.95)).toBe(true);
    expect(fractions.at(-1)).toBe(1);
  });

  it('runs in the given working folder', async () => {
    const folder = await mkdtemp(join(work, 'cwd-'));
    await runFfmpeg(['-i', source, '-frames:v', '1', 'frame.png'], { cwd: folder });
    expect(await readdir(folder)).toEqual(['frame.png']);
  });

  it('fails with the exit code and the reason from stderr', async () => {
    const error = await runFfmpeg(['-i', join(work, 'missing.mp4'), join(work, 'x.mp4')]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FFmpegError);
    const ffmpegError = error as FFmpegError;
    expect(ffmpegError.code).toBe('FFMPEG_FAILED');
    expect(ffmpegError.exitCode).not.toBe(0);
    expect(ffmpegError.message).toContain('No such file or directory');
    expect(ffmpegError.stderrTail).toContain('missing.mp4');
  });

  it('stops a run that exceeds its timeout', async () => {
    const started = Date.now();
    const error = await runFfmpeg(
      ['-re', '-f', 'lavfi', '-i', 'color=size=16x16:rate=5', '-f', 'null', '-'],
      { timeoutMs: 500 },
    ).catch((e: unknown) => e);
    expect(isMediaError(error, 'TIMEOUT')).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const error = await runFfmpeg(
      ['-re', '-f', 'lavfi', '-i', 'color=size=16x16:rate=5', '-f', 'null', '-'],
      { signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(isMediaError(error, 'ABORTED')).toBe(true);
  });

  it('reads input from stdin', async () => {
    const { readFile } = await import('node:fs/promises');
    const out = join(work, 'from-stdin.mp4');
    await runFfmpeg(['-f', 'mp4', '-i', 'pipe:0', '-c', 'copy', out], {
      stdin: await readFile(source),
    });
    expect((await stat(out)).size).toBeGreaterThan(1000);
  });

  it('reports a missing binary as TOOL_MISSING', async () => {
    configureMediaTools({ ffmpegPath: join(work, 'no-such-ffmpeg') });
    try {
      const error = await runFfmpeg(['-version'], { niceness: 0 }).catch((e: unknown) => e);
      expect(isMediaError(error, 'TOOL_MISSING')).toBe(true);
    } finally {
      configureMediaTools();
    }
  });
});

describe('spawnFfmpegStream', () => {
  it('streams whole rgb24 frames of the right colour', async () => {
    const stream = spawnFfmpegStream([
      '-f',
      'lavfi',
      '-i',
      'color=c=red:size=8x4:rate=10:duration=1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ]);
    const frames: Buffer[] = [];
    for await (const frame of readRawFrames(stream.stdout, 8 * 4 * 3))
      frames.push(Buffer.from(frame));
    await stream.done;
    expect(frames).toHaveLength(10);
    const [r, g, b] = frames[0]!;
    expect(r).toBeGreaterThan(240);
    expect(g).toBeLessThan(15);
    expect(b).toBeLessThan(15);
  });

  it('can be stopped early without an error', async () => {
    const stream = spawnFfmpegStream([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=64x48:rate=25',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ]);
    let count = 0;
    for await (const _frame of readRawFrames(stream.stdout, 64 * 48 * 3)) {
      if (++count === 5) break;
    }
    stream.stop();
    await expect(stream.done).resolves.toBeUndefined();
    expect(count).toBe(5);
  });

  it('a stream cancelled before its caller awaits `done` is no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      const stream = spawnFfmpegStream(
        ['-f', 'lavfi', '-i', 'testsrc2=size=64x48:rate=25', '-f', 'rawvideo', 'pipe:1'],
        { signal: controller.signal },
      );
      stream.stdout.resume();
      controller.abort();
      // The caller is busy elsewhere (a frame in the face detector) while ffmpeg exits.
      await new Promise((resolve) => stream.stdout.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
      await expect(stream.done).rejects.toMatchObject({ code: 'ABORTED' });
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
