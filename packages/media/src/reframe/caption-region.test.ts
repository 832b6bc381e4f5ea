import { describe, expect, it } from 'vitest';
import { captionBand } from '../captions/build';
import { captionRegion } from './caption-background';
import type { LayoutSegment } from './layout';

// Where the framing puts a face in a pane (layout.ts): its centre at 0.4 of the pane's height, the
// pane 3.4 face heights tall in a split, 3 under a slide.
const faceIn = (pane: { y: number; h: number }, facesPerWindow: number) => ({
  top: pane.y + pane.h * (0.4 - 0.5 / facesPerWindow),
  bottom: pane.y + pane.h * (0.4 + 0.5 / facesPerWindow),
});
const pane = (y: number, h: number) => ({ x: 0, y, w: 720, h, keyframes: [] });
const segment = (layout: LayoutSegment['layout'], panes: ReturnType<typeof pane>[]) => ({
  startMs: 0,
  endMs: 5000,
  layout,
  backdrop: false,
  panes,
});

describe('captions of stacked panes', () => {
  it('sit between the two faces of a split', () => {
    const [upper, lower] = [pane(0, 640), pane(640, 640)];
    const region = captionRegion({ segments: [segment('split', [upper, lower])] });
    expect(region).not.toBeNull();
    const band = captionBand(720, 1280, 'bottom', 'source', region!);
    expect(band.top).toBeGreaterThanOrEqual(faceIn(upper, 3.4).bottom);
    expect(band.bottom).toBeLessThanOrEqual(faceIn(lower, 3.4).top);
    // Without the region the bottom captions ran across the lower face.
    const bottom = captionBand(720, 1280, 'bottom');
    expect(bottom.bottom).toBeGreaterThan(faceIn(lower, 3.4).top);
  });

  it('sit under the slide, above the speaker', () => {
    const [slide, speaker] = [pane(0, 406), pane(406, 874)];
    const region = captionRegion({ segments: [segment('slide_speaker', [slide, speaker])] });
    const band = captionBand(720, 1280, 'bottom', 'source', region!);
    expect(band.top).toBeGreaterThanOrEqual(406);
    expect(band.bottom).toBeLessThanOrEqual(faceIn(speaker, 3).top);
  });

  it('keep their place with one pane, side-by-side panes, or a change to one pane', () => {
    expect(captionRegion({ segments: [segment('speaker', [pane(0, 1280)])] })).toBeNull();
    const sideBySide = [
      { x: 0, y: 0, w: 640, h: 720, keyframes: [] },
      { x: 640, y: 0, w: 640, h: 720, keyframes: [] },
    ];
    expect(captionRegion({ segments: [segment('split', sideBySide)] })).toBeNull();
    expect(
      captionRegion({
        segments: [
          segment('split', [pane(0, 640), pane(640, 640)]),
          { ...segment('speaker', [pane(0, 1280)]), startMs: 5000, endMs: 9000 },
        ],
      }),
    ).toBeNull();
  });
});
