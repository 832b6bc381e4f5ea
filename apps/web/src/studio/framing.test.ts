import type { ClipFraming } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { cropAt, cropAtVideoTime, cropStyle } from './framing';

const SOURCE = { width: 1280, height: 720 };
const at = (t_ms: number, x: number) => ({ t_ms, x, y: 0, w: 406, h: 720 });

describe('crop window at a time', () => {
  // Holds at 100 until 1 s, pans to 500 by 3 s, cuts to 800 at 3 s, holds there.
  const keyframes = [at(0, 100), at(1000, 100), at(3000, 500), at(3000, 800)];

  it('holds, pans linearly, and jumps where two keyframes share a time', () => {
    expect(cropAt(keyframes, 0)?.x).toBe(100);
    expect(cropAt(keyframes, 999)?.x).toBe(100);
    expect(cropAt(keyframes, 1500)?.x).toBe(200);
    expect(cropAt(keyframes, 2000)?.x).toBe(300);
    expect(cropAt(keyframes, 2999)?.x).toBeCloseTo(499.8, 5);
    // At the cut itself the new framing shows, as ffmpeg's gte(t, cut) has it.
    expect(cropAt(keyframes, 3000)?.x).toBe(800);
    expect(cropAt(keyframes, 60_000)?.x).toBe(800);
    expect(cropAt(keyframes, 2000)).toEqual({ x: 300, y: 0, w: 406, h: 720 });
  });

  it('holds the first window before the path and keeps the window inside the source', () => {
    expect(cropAt(keyframes, -500)?.x).toBe(100);
    expect(cropAt([at(0, 1000)], 0, SOURCE)?.x).toBe(1280 - 406);
    expect(cropAt([at(0, -20)], 0, SOURCE)?.x).toBe(0);
    expect(cropAt([], 0)).toBeNull();
  });

  it('counts the plan time from the clip start, as the export does', () => {
    const framing: ClipFraming = {
      layout: 'crop',
      source: SOURCE,
      output: { width: 720, height: 1280 },
      start_ms: 10_000,
      end_ms: 14_000,
      keyframes: [at(0, 0), at(2000, 400)],
    };
    expect(cropAtVideoTime(framing, 11)?.x).toBe(200);
    expect(cropAtVideoTime(framing, 9)?.x).toBe(0);
  });
});

describe('crop style', () => {
  it('makes the window fill the frame', () => {
    // A 406x720 window at x=437 of a 1280x720 picture: the video is 1280/406 frames wide.
    expect(cropStyle({ x: 437, y: 0, w: 406, h: 720 }, SOURCE)).toEqual({
      width: '315.2709%',
      height: '100%',
      transform: 'translate(-34.1406%, 0%)',
    });
    // The whole picture is the frame itself.
    expect(cropStyle({ x: 0, y: 0, w: 1280, h: 720 }, SOURCE)).toEqual({
      width: '100%',
      height: '100%',
      transform: 'translate(0%, 0%)',
    });
  });
});
