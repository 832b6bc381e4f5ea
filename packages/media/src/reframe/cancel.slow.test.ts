/**
 * A face analysis cancelled while the detector is busy must fail its caller, never the
 * process. ffmpeg exits on the abort while the frame loop still awaits the detector, so the
 * stream's `done` promise rejects before anyone awaits it; unhandled, that rejection killed the
 * whole server (one export deleted mid-analysis). The race is forced here: the detector aborts
 * the analysis on its first frame and answers only after ffmpeg is surely gone (past the kill
 * grace period of the process runner).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { makeTestVideo } from '../../test/support/index.js';
import type * as detect from './detect';
import type { FaceDetector } from './detect';
import { analyzeSubjects } from './index';

const controller = { current: new AbortController() };
const detectorCalls = { count: 0 };
/** Longer than the runner's SIGTERM-to-SIGKILL grace (2 s): ffmpeg has exited by then. */
const DETECTOR_STALL_MS = 2_500;

vi.mock('./detect', async (importOriginal) => {
  const actual = await importOriginal<typeof detect>();
  const stalling: FaceDetector = {
    async detectFaces() {
      detectorCalls.count++;
      controller.current.abort(new Error('export deleted'));
      await new Promise((resolve) => setTimeout(resolve, DETECTOR_STALL_MS));
      return [];
    },
    measureMouths: (_rgb, _width, _height, faces) => Promise.resolve(faces.map(() => null)),
  };
  return { ...actual, loadFaceDetector: () => Promise.resolve(stalling) };
});

let dir: string;
let video: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reframe-cancel-'));
  video = await makeTestVideo(join(dir, 'source.mp4'), {
    durationSec: 6,
    width: 640,
    height: 360,
  });
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  controller.current = new AbortController();
  detectorCalls.count = 0;
});

it('an analysis cancelled while the detector works rejects its caller and nothing else', async () => {
  const signal = controller.current.signal;
  const analysis = analyzeSubjects(video, { signal, workDir: dir });
  await expect(analysis).rejects.toMatchObject({ code: 'ABORTED' });
  expect(detectorCalls.count).toBe(1);
  // Whatever settled without a handler is reported on the next turns of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(unhandled).toEqual([]);
}, 30_000);
