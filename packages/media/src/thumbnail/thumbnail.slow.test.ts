import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../errors/index.js';
import { runFfmpeg } from '../ffmpeg/index.js';
import { probeMedia } from '../probe/index.js';
import { makeTestVideo, pictureLooks } from '../../test/support/index.js';
import {
  candidateTimes,
  imageToThumbnail,
  pickThumbnail,
  scoreGreyFrame,
  thumbnailScore,
} from './index.js';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'moments-thumbnail-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('pickThumbnail', () => {
  it('skips a black opening and takes a frame with something to see', async () => {
    // Three seconds of black (a fade-in, a black first frame), then the test pattern.
    const video = await makeTestVideo(join(work, 'black-intro.mp4'), {
      durationSec: 8,
      blackIntroSec: 3,
      width: 640,
      height: 360,
    });
    const out = join(work, 'video.jpg');
    const picked = await pickThumbnail(video, out, { durationMs: 8000 });
    expect(picked.atMs).toBeGreaterThanOrEqual(3000);
    const looks = await pictureLooks(out);
    expect(looks.brightness).toBeGreaterThan(40);
    expect(looks.contrast).toBeGreaterThan(20);
    const info = await probeMedia(out);
    expect(info.width).toBe(640);
  });

  it("takes a moment's frame from inside the moment", async () => {
    const video = await makeTestVideo(join(work, 'moment.mp4'), {
      durationSec: 8,
      blackIntroSec: 5,
    });
    const inBlack = join(work, 'in-black.jpg');
    const picked = await pickThumbnail(video, inBlack, {
      startMs: 500,
      endMs: 4500,
      durationMs: 8000,
    });
    expect(picked.atMs).toBeGreaterThanOrEqual(500);
    expect(picked.atMs).toBeLessThanOrEqual(4500);
    // Only black to choose from inside this span: a black frame, honestly.
    expect((await pictureLooks(inBlack)).brightness).toBeLessThan(20);
  });

  it('refuses a file with no picture', async () => {
    const wav = join(work, 'tone.wav');
    await runFfmpeg(['-f', 'lavfi', '-i', 'sine=duration=1', wav]);
    const error = await pickThumbnail(wav, join(work, 'none.jpg'), { durationMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).code).toBe('NOT_A_VIDEO');
  });

  it('scores black and flat frames below a picture', () => {
    const black = scoreGreyFrame(new Uint8Array(100).fill(2));
    const flatGrey = scoreGreyFrame(new Uint8Array(100).fill(128));
    const stripes = scoreGreyFrame(Uint8Array.from({ length: 100 }, (_, i) => (i % 2 ? 200 : 60)));
    expect(thumbnailScore(stripes)).toBeGreaterThan(thumbnailScore(black));
    expect(thumbnailScore(stripes)).toBeGreaterThan(thumbnailScore(flatGrey));
    expect(candidateTimes(0, 10_000)).toEqual([1000, 2600, 4200, 5800, 7400, 9000]);
    expect(candidateTimes(2000, 2200)).toEqual([2000]);
  });
});

describe('imageToThumbnail', () => {
  it('re-encodes a PNG as a JPEG no wider than the thumbnail', async () => {
    const png = join(work, 'preview.png');
    await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=1280x720', '-frames:v', '1', png]);
    const out = join(work, 'from-png.jpg');
    await imageToThumbnail(png, out);
    const info = await probeMedia(out);
    expect(info.videoCodec).toBe('mjpeg');
    expect(info.width).toBe(640);
    expect(info.height).toBe(360);
  });

  it('refuses what is not an image (a page, a script, a video)', async () => {
    const html = join(work, 'page.jpg');
    await writeFile(html, '<html><script>alert(1)</script></html>');
    const video = await makeTestVideo(join(work, 'clip.mp4'), { durationSec: 1 });
    for (const file of [html, video]) {
      const error = await imageToThumbnail(file, join(work, 'x.jpg')).catch((e: unknown) => e);
      expect((error as MediaError).code, file).toBe('NOT_AN_IMAGE');
    }
  });
});
