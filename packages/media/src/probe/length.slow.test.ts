/**
 * A file's length is read from its packets, not from the header that states it: a header edited
 * to claim 20 s of a 3-minute video (MP4 mvhd/tkhd/mdhd, WebM Segment Info Duration) is measured
 * at 3 minutes, and no more sound is extracted for transcription than the length measured.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../ffmpeg/index.js';
import {
  makeLongTestVideo,
  makeTestVideo,
  writeWithHeaderDuration,
} from '../../test/support/index.js';
import { extractAudioForAsr, measureMedia, probeMedia, validateUploadedVideo } from './index.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'moments-length-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Seconds of sound in a WAV (its header states its data size, which ffmpeg wrote itself). */
const wavSeconds = async (wav: string) => (await probeMedia(wav)).durationMs / 1000;

describe.each(['mp4', 'webm'])('a %s whose header understates its length', (extension) => {
  let honest: string;
  let lying: string;
  beforeAll(async () => {
    honest = await makeLongTestVideo(join(work, `honest.${extension}`), { durationSec: 180 });
    lying = join(work, `lying.${extension}`);
    const patched = await writeWithHeaderDuration(honest, lying, 20);
    expect(patched.length).toBeGreaterThan(0);
  });

  it('reads 20 s from its header, and 3 minutes from its packets', async () => {
    // The edit is what a player and ffprobe's format line believe.
    expect((await probeMedia(lying)).durationMs).toBe(20_000);
    const measured = await measureMedia(lying);
    expect(measured.headerDurationMs).toBe(20_000);
    expect(measured.durationMs).toBeGreaterThanOrEqual(180_000);
    expect(measured.durationMs).toBeLessThan(181_100);
    expect(measured.durationMs).toBe((await measureMedia(honest)).durationMs);
  });

  it('is accepted as an upload with its real length', async () => {
    const info = await validateUploadedVideo(lying, `talk.${extension}`);
    expect(info.durationMs).toBeGreaterThanOrEqual(180_000);
    expect(info.durationMs).toBeLessThan(181_100);
    expect(info.headerDurationMs).toBe(20_000);
  });
});

describe('measureMedia on honest files', () => {
  it('agrees with the header to within a frame', async () => {
    for (const name of ['clip.mp4', 'clip.webm']) {
      const file = await makeTestVideo(join(work, name), { durationSec: 3, fps: 10 });
      const { durationMs, headerDurationMs } = await measureMedia(file);
      expect(Math.abs(durationMs - headerDurationMs!), name).toBeLessThanOrEqual(100);
    }
  });
});

describe('extractAudioForAsr with a bound', () => {
  it('writes no more than the bound of a file that holds more', async () => {
    const file = await makeLongTestVideo(join(work, 'minute.mp4'), { durationSec: 60 });
    const wav = await extractAudioForAsr(file, join(work, 'bounded.wav'), {
      maxDurationMs: 20_000,
    });
    expect(await wavSeconds(wav)).toBeCloseTo(20, 1);
  });

  it('counts samples, not the timestamps a crafted file squeezes', async () => {
    // A minute of sound whose packets claim a quarter of their time: the packets say 15 s, the
    // decoder still plays 60 s of samples.
    const minute = await makeLongTestVideo(join(work, 'minute.mp4'), { durationSec: 60 });
    const squeezed = join(work, 'squeezed.mp4');
    await runFfmpeg([
      ...['-i', minute, '-map', '0:a', '-c', 'copy'],
      ...['-bsf:a', 'setts=pts=PTS/4:dts=DTS/4:duration=DURATION/4', squeezed],
    ]);
    const { durationMs } = await measureMedia(squeezed);
    expect(durationMs).toBeLessThan(16_000);
    const wav = await extractAudioForAsr(squeezed, join(work, 'squeezed.wav'), {
      maxDurationMs: durationMs,
    });
    expect(await wavSeconds(wav)).toBeLessThanOrEqual(durationMs / 1000 + 0.1);
  });
});
