import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg, runFfprobe } from '../ffmpeg/index';
import {
  analyzeSubjects,
  outputSize,
  planReframe,
  reframeFilter,
  reframeVideo,
  type CropKeyframe,
  type ReframePlan,
} from './index';

/** A plan that is one speaker close-up all along, and its one window's path. */
type CropPlan = ReframePlan & { keyframes: CropKeyframe[] };

// A real face photo shipped by Debian's opencv-doc (see /work/shared brief); the test skips without it.
const PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';
const hasPhoto = existsSync(PHOTO);
if (!hasPhoto)
  console.warn(`reframe tests skipped: ${PHOTO} is missing (apt-get install opencv-doc)`);

/** The head cut from the photo (260x300 after scaling) and where the face sits inside it. */
const HEAD = 'crop=130:150:180:45,scale=260:300';
const FACE_IN_HEAD = { x: 96, y: 88, w: 102, h: 102 };
const CANVAS = { width: 1280, height: 720 };
const FPS = 25;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reframe-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A head moving over a plain background; `headX(t)` is an ffmpeg expression of t. */
async function makeHeadVideo(
  name: string,
  headX: string,
  durationSec: number,
  extraHeads = '',
): Promise<string> {
  const out = join(dir, name);
  const background = `color=c=0x406080:s=${CANVAS.width}x${CANVAS.height}:r=${FPS}:d=${durationSec}`;
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    background,
    '-loop',
    '1',
    '-i',
    PHOTO,
    '-filter_complex',
    `[1:v]${HEAD}${extraHeads ? ',split=3[h][h2][h3]' : '[h]'};[0:v][h]overlay=x='${headX}':y=200:shortest=1${extraHeads}` +
      `,format=yuv420p`,
    '-t',
    String(durationSec),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    out,
  ]);
  return out;
}

/** The crop window's x at time t (ms), following the plan's piecewise-linear keyframes. */
function cropXAt(keyframes: CropKeyframe[], tMs: number): number {
  let x = keyframes[0]!.x;
  for (let i = 0; i < keyframes.length; i++) {
    const a = keyframes[i]!;
    const b = keyframes[i + 1];
    if (tMs < a.tMs) break;
    if (!b || b.tMs === a.tMs) {
      x = a.x;
      continue;
    }
    x = tMs >= b.tMs ? b.x : a.x + ((b.x - a.x) * (tMs - a.tMs)) / (b.tMs - a.tMs);
  }
  return x;
}

function cropPlan(plan: ReframePlan): CropPlan {
  expect(plan.layout).toBe('crop');
  expect(plan.segments).toHaveLength(1);
  return { ...plan, keyframes: plan.segments[0]!.panes[0]!.keyframes };
}

async function probeSize(file: string) {
  const json = JSON.parse(
    await runFfprobe([
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height:format=duration',
      '-of',
      'json',
      '-i',
      file,
    ]),
  ) as { streams: { width: number; height: number }[]; format: { duration: string } };
  return {
    width: json.streams[0]!.width,
    height: json.streams[0]!.height,
    durationSec: Number(json.format.duration),
  };
}

describe('output sizes', () => {
  it('names the short side: 9:16 1080p is 1080x1920, 16:9 720p is 1280x720', () => {
    expect(outputSize('9:16', '1080p')).toEqual({ width: 1080, height: 1920 });
    expect(outputSize('9:16', '720p')).toEqual({ width: 720, height: 1280 });
    expect(outputSize('16:9', '1080p')).toEqual({ width: 1920, height: 1080 });
    expect(outputSize('1:1', '720p')).toEqual({ width: 720, height: 720 });
    expect(outputSize('4:5', '1080p')).toEqual({ width: 1080, height: 1350 });
  });
});

describe.skipIf(!hasPhoto)('reframing a real face', () => {
  // The head crosses the canvas left to right in 4 s (205 px/s, a brisk walk across the frame).
  const headX = (tSec: number) => 100 + 205 * tSec;
  let panning: string;
  let panPlan: CropPlan;

  beforeAll(async () => {
    panning = await makeHeadVideo('pan.mp4', '100+205*t', 4);
    const analysis = await analyzeSubjects(panning, { sampleFps: 4 });
    expect(analysis.source).toEqual(CANVAS);
    expect(analysis.shotCutsMs).toEqual([]); // a pan is not a cut
    panPlan = cropPlan(planReframe(analysis, { aspect: '9:16', quality: '720p' }));
  });

  it('keeps the moving face inside the 9:16 crop in at least 95% of frames', () => {
    const frameTimes = Array.from({ length: 4 * FPS }, (_, i) => (i * 1000) / FPS);
    const inside = frameTimes.filter((tMs) => {
      const x = cropXAt(panPlan.keyframes, tMs);
      const faceLeft = headX(tMs / 1000) + FACE_IN_HEAD.x;
      return faceLeft >= x && faceLeft + FACE_IN_HEAD.w <= x + panPlan.keyframes[0]!.w;
    });
    expect(inside.length / frameTimes.length).toBeGreaterThanOrEqual(0.95);
  });

  it('pans without jitter: no direction reversal, mean |second difference| < 1 px/frame²', () => {
    const xs = Array.from({ length: 4 * FPS }, (_, i) =>
      cropXAt(panPlan.keyframes, (i * 1000) / FPS),
    );
    const steps = xs.slice(1).map((x, i) => x - xs[i]!);
    expect(steps.every((step) => step >= 0)).toBe(true); // the face only moves right
    const accel = steps.slice(1).map((step, i) => Math.abs(step - steps[i]!));
    expect(accel.reduce((a, b) => a + b, 0) / accel.length).toBeLessThan(1);
    expect(panPlan.keyframes.length).toBeLessThan(30); // small filter expression
  });

  it('renders exactly the requested size and the source duration, with the face in the picture', async () => {
    const out = join(dir, 'pan-9x16.mp4');
    await reframeVideo(panning, out, panPlan);
    const rendered = await probeSize(out);
    expect({ width: rendered.width, height: rendered.height }).toEqual({
      width: 720,
      height: 1280,
    });
    expect(rendered.durationSec).toBeCloseTo(4, 1);
    // The exported video itself shows the face on (nearly) every sampled frame.
    const check = await analyzeSubjects(out, { sampleFps: 4 });
    const withFace = check.frames.filter((frame) => frame.faces.length > 0).length;
    expect(withFace / check.frames.length).toBeGreaterThanOrEqual(0.9);
  });

  it('holds a crop that does not move at all for a still face', async () => {
    const still = await makeHeadVideo('still.mp4', '700', 3);
    const plan = cropPlan(
      planReframe(await analyzeSubjects(still), { aspect: '9:16', quality: '720p' }),
    );
    expect(plan.keyframes).toHaveLength(1);
    const x = plan.keyframes[0]!.x;
    expect(700 + FACE_IN_HEAD.x).toBeGreaterThanOrEqual(x);
    expect(700 + FACE_IN_HEAD.x + FACE_IN_HEAD.w).toBeLessThanOrEqual(x + plan.keyframes[0]!.w);
    expect(reframeFilter(plan)).toBe(
      `crop=w=406:h=720:x=${x}:y=0,scale=720:1280:flags=bicubic,setsar=1`,
    );
  });

  it('with the speaker layout, stays on one face through a short burst and switches once when another dominates', async () => {
    // Two silent faces apart would be split (nobody can be told to speak): the user asked for
    // the close-up, so the most prominent face is followed, with hysteresis.
    // Speaker A (left) stays; B (right, mirrored) is small, big for 0.8 s at 1 s, then big from 2.5 s.
    const bigB = 'between(t,1,1.8)+gte(t,2.5)';
    const twoFaces = await makeHeadVideo(
      'two.mp4',
      '40',
      5,
      `[ab];[h2]hflip,scale=156:180[bs];[h3]hflip,scale=416:480[bb];` +
        `[ab][bs]overlay=x=1000:y=260:enable='not(${bigB})'[ab2];` +
        `[ab2][bb]overlay=x=820:y=120:enable='${bigB}'`,
    );
    const plan = cropPlan(
      planReframe(await analyzeSubjects(twoFaces), {
        aspect: '9:16',
        quality: '720p',
        layout: 'speaker',
      }),
    );
    const w = plan.keyframes[0]!.w;
    const faceA = { left: 40 + FACE_IN_HEAD.x, right: 40 + FACE_IN_HEAD.x + FACE_IN_HEAD.w };
    const showsA = (tMs: number) => {
      const x = cropXAt(plan.keyframes, tMs);
      return faceA.left >= x && faceA.right <= x + w;
    };
    const times = Array.from({ length: 5 * FPS }, (_, i) => (i * 1000) / FPS);
    expect(times.filter((t) => t < 2400).every(showsA)).toBe(true);
    expect(times.filter((t) => t >= 2800).some(showsA)).toBe(false);
    // Exactly one jump: the switch.
    const jumps = plan.keyframes.filter((k, i) => i > 0 && k.tMs === plan.keyframes[i - 1]!.tMs);
    expect(jumps).toHaveLength(1);
  });
});

describe('long crop paths', () => {
  it('still parse in ffmpeg with 200 moving keyframes (a flat sum of >60 terms does not)', async () => {
    const keyframes = Array.from({ length: 200 }, (_, i) => ({
      tMs: i * 250,
      x: 200 + 150 * Math.sin(i / 5) + (i % 3),
      y: 0,
      w: 180,
      h: 320,
    }));
    const output = outputSize('9:16', '720p');
    const plan: ReframePlan = {
      layout: 'crop',
      aspect: '9:16',
      quality: '720p',
      source: { width: 640, height: 360 },
      output,
      startMs: 0,
      endMs: 50_000,
      segments: [
        {
          startMs: 0,
          endMs: 50_000,
          layout: 'speaker',
          backdrop: false,
          panes: [{ x: 0, y: 0, w: output.width, h: output.height, keyframes }],
        },
      ],
      captionBackground: { bottom: 'plain', middle: 'plain', top: 'plain' },
      switchesPerMinute: 0,
    };
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=25:duration=0.2',
      '-vf',
      reframeFilter(plan),
      '-f',
      'null',
      '-',
    ]);
  });
});

describe('no subject', () => {
  it('falls back to a blurred-background fit and renders 4:5 at 720x900', async () => {
    const pattern = join(dir, 'pattern.mp4');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=25:duration=2',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      pattern,
    ]);
    const plan = planReframe(await analyzeSubjects(pattern), { aspect: '4:5', quality: '720p' });
    expect(plan.layout).toBe('blur_fit');
    const out = join(dir, 'pattern-4x5.mp4');
    await reframeVideo(pattern, out, plan);
    const rendered = await probeSize(out);
    expect({ width: rendered.width, height: rendered.height }).toEqual({ width: 720, height: 900 });
    expect(rendered.durationSec).toBeCloseTo(2, 1);
  });
});
