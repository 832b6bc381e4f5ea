import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runFfmpeg } from '@moments/media/ffmpeg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FramingPlanner } from './clip-framing.js';
import type { FramingRequest } from '../media/clip-render.js';
import { ToolsMediaRepository } from '../media/tools-media.repository.js';

/** Real ffmpeg and the real face detector behind the planner. */
const media = new ToolsMediaRepository();

let workDir: string;
let video: string;

beforeAll(async () => {
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'moments-planner-'));
  video = path.join(workDir, 'pattern.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=3'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', video],
  ]);
});
afterAll(async () => {
  if (workDir) await fs.rm(workDir, { recursive: true, force: true });
});

const request = (startMs: number): FramingRequest => ({
  aspect: '9:16',
  quality: '720p',
  layout: 'auto',
  startMs,
  endMs: startMs + 2000,
  source: { width: 640, height: 360 },
  output: { width: 720, height: 1280 },
});

/** Lends the test video like storage does, counting the analyses started and how they ended. */
function lender() {
  const outcomes: Promise<'done' | 'stopped'>[] = [];
  const withSource = <T>(work: (file: string) => Promise<T>): Promise<T> => {
    const running = work(video);
    outcomes.push(
      running.then(
        () => 'done' as const,
        () => 'stopped' as const,
      ),
    );
    return running;
  };
  return { withSource, outcomes };
}

describe('framing planner', () => {
  it('makes one analysis for callers asking at once, and keeps the plan', async () => {
    const planner = new FramingPlanner(media);
    const { withSource, outcomes } = lender();
    const [a, b] = await Promise.all([
      planner.plan('media', request(0), withSource),
      planner.plan('media', request(0), withSource),
    ]);
    expect(a).toBe(b);
    expect(a.layout).toBe('blur_fit');
    expect(outcomes).toHaveLength(1);
    expect(planner.cached('media', request(0))).toBe(a);
    expect(await planner.plan('media', request(0), withSource)).toBe(a);
    expect(outcomes).toHaveLength(1);
    // Another span, or another media, is another plan.
    expect(planner.cached('media', request(500))).toBeUndefined();
    expect(planner.cached('other', request(0))).toBeUndefined();
  });

  it('reuses the face detections of one span for an overlapping span of the same media', async () => {
    const { withSource } = lender();
    const shared = new FramingPlanner(media);
    const first = await shared.plan('media', request(0), withSource);
    const afterFirst = shared.framesDecoded;
    const second = await shared.plan('media', request(500), withSource);
    const alone = new FramingPlanner(media);
    const unshared = await alone.plan('media', request(500), withSource);

    // 0-2000 ms was analysed for the first span: the second decodes only 2000-2500 ms.
    expect(afterFirst).toBeGreaterThanOrEqual(8);
    expect(shared.framesDecoded - afterFirst).toBeLessThanOrEqual(afterFirst / 2);
    expect(shared.framesDecoded).toBeLessThan(afterFirst + alone.framesDecoded);
    expect(second).toEqual(unshared);
    expect(first.layout).toBe('blur_fit');
    // Another media shares nothing.
    await shared.plan('other', request(500), withSource);
    expect(shared.framesDecoded - afterFirst).toBeGreaterThan(alone.framesDecoded);
  });

  it('stops the analysis only when every caller has given up', async () => {
    const planner = new FramingPlanner(media);
    const { withSource, outcomes } = lender();
    const impatient = new AbortController();
    const patient = planner.plan('media', request(0), withSource);
    const gaveUp = planner.plan('media', request(0), withSource, { signal: impatient.signal });
    impatient.abort(new Error('trim changed'));
    await expect(gaveUp).rejects.toThrow('trim changed');
    expect((await patient).layout).toBe('blur_fit');
    expect(await outcomes[0]).toBe('done');

    const alone = new AbortController();
    const dropped = planner.plan('media', request(500), withSource, { signal: alone.signal });
    alone.abort(new Error('editor closed'));
    await expect(dropped).rejects.toThrow('editor closed');
    expect(await outcomes[1]).toBe('stopped');
    expect(planner.cached('media', request(500))).toBeUndefined();
    // Asked again, it is made afresh.
    expect((await planner.plan('media', request(500), withSource)).layout).toBe('blur_fit');
    expect(outcomes).toHaveLength(3);
  });
});
