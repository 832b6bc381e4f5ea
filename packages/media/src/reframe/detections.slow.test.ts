import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../ffmpeg/index';
import { MemoryDetectionStore, analyzeSubjects, planReframe, uncoveredRanges } from './index';

// A real face photo shipped by Debian's opencv-doc; the face tests skip without it.
const PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';
const hasPhoto = existsSync(PHOTO);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reframe-detections-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('uncovered ranges', () => {
  it('leaves out what the stretches cover, in any order and overlapping', () => {
    const range = { startMs: 1000, endMs: 9000 };
    expect(uncoveredRanges(range, [])).toEqual([range]);
    expect(
      uncoveredRanges(range, [
        { startMs: 4000, endMs: 6000 },
        { startMs: 0, endMs: 2000 },
        { startMs: 5000, endMs: 7000 },
      ]),
    ).toEqual([
      { startMs: 2000, endMs: 4000 },
      { startMs: 7000, endMs: 9000 },
    ]);
    expect(uncoveredRanges(range, [{ startMs: 0, endMs: 10_000 }])).toEqual([]);
  });
});

describe.skipIf(!hasPhoto)('face detections shared across spans of one source', () => {
  let video: string;
  beforeAll(async () => {
    // A head walking across a 720p frame for 6 s.
    video = join(dir, 'walk.mp4');
    await runFfmpeg([
      ...['-f', 'lavfi', '-i', 'color=c=0x406080:s=1280x720:r=25:d=6'],
      ...['-loop', '1', '-i', PHOTO],
      '-filter_complex',
      "[1:v]crop=130:150:180:45,scale=260:300[h];[0:v][h]overlay=x='100+150*t':y=200:shortest=1,format=yuv420p",
      ...['-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', video],
    ]);
  });

  it('analyses only the part of an overlapping span not seen before, and plans it the same', async () => {
    const detections = new MemoryDetectionStore();
    const first = await analyzeSubjects(video, { startMs: 0, endMs: 4000, detections });
    const second = await analyzeSubjects(video, { startMs: 2000, endMs: 6000, detections });
    const alone = await analyzeSubjects(video, { startMs: 2000, endMs: 6000 });

    expect(first.decodedFrames).toBeGreaterThanOrEqual(16);
    // Only 4000-6000 was new: about half of what the span alone decodes.
    expect(second.decodedFrames).toBeLessThanOrEqual(Math.ceil(alone.decodedFrames / 2));
    expect(first.decodedFrames + second.decodedFrames).toBeLessThan(
      first.decodedFrames + alone.decodedFrames,
    );
    expect(second.frames.map((f) => f.tMs)).toEqual(alone.frames.map((f) => f.tMs));
    const options = { aspect: '9:16', quality: '720p' } as const;
    const plan = planReframe(second, options);
    expect(plan.layout).toBe('crop');
    expect(plan).toEqual(planReframe(alone, options));

    // A span inside what is known decodes nothing.
    const inside = await analyzeSubjects(video, { startMs: 1000, endMs: 5000, detections });
    expect(inside.decodedFrames).toBe(0);
    expect(inside.detectorRuns).toBe(0);
    expect(inside.frames.length).toBeGreaterThanOrEqual(16);
  });
});

describe('adaptive sampling', () => {
  it('samples more densely around a hard cut than in a still shot', async () => {
    // Two still pictures, two seconds each: colour bars, then a plain colour.
    const video = join(dir, 'cut.mp4');
    await runFfmpeg([
      ...['-f', 'lavfi', '-i', 'smptebars=size=640x360:rate=25:duration=2'],
      ...['-f', 'lavfi', '-i', 'color=c=0x802020:size=640x360:rate=25:duration=2'],
      ...['-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0,format=yuv420p'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', video],
    ]);
    const analysis = await analyzeSubjects(video, { sampleFps: 4 });
    expect(analysis.shotCutsMs).toHaveLength(1);
    const cutMs = analysis.shotCutsMs[0]!;
    expect(cutMs).toBeGreaterThan(1900);
    expect(cutMs).toBeLessThan(2100);
    const samplesIn = (fromMs: number, toMs: number) =>
      analysis.frames.filter((frame) => frame.tMs >= fromMs && frame.tMs < toMs).length;
    expect(samplesIn(0, 1000)).toBe(4); // the base rate
    expect(samplesIn(cutMs - 500, cutMs + 500)).toBeGreaterThan(samplesIn(0, 1000));
    // Still pictures: the detector looks about once a second, not at every sample.
    expect(analysis.detectorRuns).toBeLessThan(analysis.frames.length / 2);
  });
});

describe.skipIf(!hasPhoto)('faces between detections', () => {
  // A head sliding across a plain background at a known speed, on the photo's real face.
  const HEAD = 'crop=130:150:180:45,scale=260:300';
  const FACE_IN_HEAD = { x: 96, y: 88, w: 102 };
  const headX = (tSec: number) => 100 + 120 * tSec;

  async function slidingHead(name: string, overlayOptions = ''): Promise<string> {
    const video = join(dir, name);
    await runFfmpeg([
      ...['-f', 'lavfi', '-i', 'color=c=0x406080:s=1280x720:r=25:d=6'],
      ...['-loop', '1', '-i', PHOTO],
      '-filter_complex',
      `[1:v]${HEAD}[h];[0:v][h]overlay=x='100+120*t':y=200:shortest=1${overlayOptions},format=yuv420p`,
      ...['-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', video],
    ]);
    return video;
  }

  it('follows a smoothly moving face with the detector on about every other sample', async () => {
    const analysis = await analyzeSubjects(await slidingHead('sliding.mp4'), { sampleFps: 4 });
    expect(analysis.frames).toHaveLength(24);
    expect(analysis.detectorRuns).toBeLessThanOrEqual(Math.ceil(analysis.frames.length * 0.6));
    for (const frame of analysis.frames) {
      // Every sample, detected or not, has the one face where the video put it.
      expect(frame.faces, `faces at ${frame.tMs} ms`).toHaveLength(1);
      const face = frame.faces[0]!;
      const expectedCentre = headX(frame.tMs / 1000) + FACE_IN_HEAD.x + FACE_IN_HEAD.w / 2;
      expect(Math.abs(face.x + face.w / 2 - expectedCentre), `at ${frame.tMs} ms`).toBeLessThan(
        FACE_IN_HEAD.w * 0.25,
      );
    }
  });

  it('never interpolates a face away: one that shows up between two samples is found at once', async () => {
    // The head is there only from 2.1 s to 2.4 s: no sample around it sees it, one sample does.
    const analysis = await analyzeSubjects(
      await slidingHead('blink.mp4', ":enable='between(t,2.1,2.4)'"),
      { sampleFps: 4 },
    );
    const withFace = analysis.frames.filter((frame) => frame.faces.length > 0);
    expect(withFace.map((frame) => frame.tMs)).toEqual([2250]);
  });
});
