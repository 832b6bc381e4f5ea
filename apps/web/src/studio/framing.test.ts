import type { ClipFraming } from '@moments/contract';
import { describe, expect, it } from 'vitest';
import { cropAt, cropAtVideoTime, cropStyle, frameViewAt } from './framing';

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
      segments: [],
      caption_background: { bottom: 'plain', middle: 'plain', top: 'plain' },
      switches_per_minute: 0,
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

describe('the frame at a time', () => {
  // Two people split for 3 s (each pane a 720x640 window of the 1280x720 source), then the whole
  // frame fitted over the blurred fill.
  const half = (x: number) => ({ t_ms: 0, x, y: 40, w: 720, h: 640 });
  const framing: ClipFraming = {
    layout: 'mixed',
    source: SOURCE,
    output: { width: 720, height: 1280 },
    start_ms: 5_000,
    end_ms: 11_000,
    keyframes: [],
    segments: [
      {
        start_ms: 0,
        end_ms: 3000,
        layout: 'split',
        backdrop: false,
        panes: [
          { x: 0, y: 0, w: 720, h: 640, keyframes: [half(0)] },
          { x: 0, y: 640, w: 720, h: 640, keyframes: [half(560)] },
        ],
      },
      {
        start_ms: 3000,
        end_ms: 6000,
        layout: 'fit',
        backdrop: true,
        panes: [
          {
            x: 0,
            y: 436,
            w: 720,
            h: 406,
            keyframes: [{ t_ms: 3000, x: 0, y: 0, w: 1280, h: 720 }],
          },
        ],
      },
    ],
    caption_background: { bottom: 'light', middle: 'plain', top: 'plain' },
    switches_per_minute: 10,
  };

  it("stacks the two people in their panes, as the export's filter graph does", () => {
    const view = frameViewAt(framing, 6)!;
    expect(view.layout).toBe('split');
    expect(view.backdrop).toBe(false);
    expect(view.panes.map((pane) => pane.box)).toEqual([
      { left: '0%', top: '0%', width: '100%', height: '50%' },
      { left: '0%', top: '50%', width: '100%', height: '50%' },
    ]);
    expect(view.panes.map((pane) => pane.crop.x)).toEqual([0, 560]);
  });

  it('switches to the fitted frame over the blurred fill where the next segment starts', () => {
    expect(frameViewAt(framing, 7.999)!.layout).toBe('split');
    const fitted = frameViewAt(framing, 8)!;
    expect(fitted).toMatchObject({ layout: 'fit', backdrop: true });
    expect(fitted.panes).toEqual([
      {
        box: { left: '0%', top: '34.0625%', width: '100%', height: '31.7188%' },
        crop: { x: 0, y: 0, w: 1280, h: 720 },
      },
    ]);
    // Past the end the last segment holds, before the start the first.
    expect(frameViewAt(framing, 30)!.layout).toBe('fit');
    expect(frameViewAt(framing, 1)!.layout).toBe('split');
  });
});
