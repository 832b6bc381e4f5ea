/**
 * How light or busy the picture is under the captions, for each caption position, measured from
 * the analysed frames through the plan's own layout (a pane shows its window of the source, the
 * blurred backdrop a blurred, enlarged copy of the whole frame). White captions on a white slide
 * get a box; on a busy picture a heavy outline (see the captions' `backing`).
 */
import { captionBand, type CaptionPosition } from '../captions/build';
import type { SubjectAnalysis } from './analyze';
import { captionGap, type LayoutSegment } from './layout';
import { windowAt } from './path';
import type { ReframePlan } from './plan';
import { sceneCellAt, sceneGrid } from './scene';

export type CaptionBackground = 'plain' | 'light' | 'busy';
export type CaptionBackgrounds = Record<CaptionPosition, CaptionBackground>;

const POSITIONS: CaptionPosition[] = ['bottom', 'middle', 'top'];
/** Mean brightness (0-255) of the band above which white letters lose their edge... */
const LIGHT_BRIGHTNESS = 150;
/** ...and the share of frames that must show it before the captions get a box. */
const LIGHT_SHARE = 0.2;
/** Mean detail (brightness std in a cell) above which the band is busy... */
const BUSY_DETAIL = 30;
/** ...and the share of frames that must show it. */
const BUSY_SHARE = 0.3;
/** Where there is neither pane nor backdrop the output is black. */
const BLACK = 16;

export function captionBackgrounds(
  plan: Pick<ReframePlan, 'segments' | 'output' | 'source'>,
  analysis: SubjectAnalysis,
): CaptionBackgrounds {
  const frames = analysis.frames.filter((frame) => frame.scene);
  const verdicts = {} as CaptionBackgrounds;
  const region = captionRegion(plan) ?? undefined;
  for (const position of POSITIONS) {
    const band = captionBand(
      plan.output.width,
      plan.output.height,
      position,
      'source',
      position === 'bottom' ? region : undefined,
    );
    let light = 0;
    let busy = 0;
    for (const frame of frames) {
      const segment = plan.segments.find(
        (candidate) => frame.tMs >= candidate.startMs && frame.tMs < candidate.endMs,
      );
      if (!segment) continue;
      const grid = sceneGrid(frame.scene!);
      const { brightness, detail } = bandUnder(band, segment, frame.tMs, grid, plan);
      if (brightness >= LIGHT_BRIGHTNESS) light++;
      else if (detail >= BUSY_DETAIL) busy++;
    }
    const count = frames.length || 1;
    verdicts[position] =
      light / count >= LIGHT_SHARE ? 'light' : busy / count >= BUSY_SHARE ? 'busy' : 'plain';
  }
  return verdicts;
}

/**
 * Where the bottom captions go instead when every segment stacks its panes (two people, or a
 * slide over its speaker): the gap all segments leave between the faces (or under the slide),
 * so that no caption runs across a face. Null otherwise (one pane, a fit, a change of layout
 * that has no common gap): the captions keep their place.
 */
export function captionRegion(
  plan: Pick<ReframePlan, 'segments'>,
): { top: number; bottom: number } | null {
  let region: { top: number; bottom: number } | null = null;
  for (const segment of plan.segments) {
    const gap = captionGap(segment);
    if (!gap) return null;
    region = region
      ? { top: Math.max(region.top, gap.top), bottom: Math.min(region.bottom, gap.bottom) }
      : gap;
  }
  return region && region.bottom > region.top ? region : null;
}

/** Mean brightness and detail of the source under points spread over the band. */
function bandUnder(
  band: { top: number; bottom: number },
  segment: LayoutSegment,
  tMs: number,
  grid: Uint8Array,
  plan: Pick<ReframePlan, 'output' | 'source'>,
): { brightness: number; detail: number } {
  const { output, source } = plan;
  let brightness = 0;
  let detail = 0;
  let points = 0;
  for (let row = 0; row < 3; row++) {
    const y = band.top + ((row + 0.5) * (band.bottom - band.top)) / 3;
    for (let column = 0; column < 9; column++) {
      const x = output.width * (0.1 + (0.8 * column) / 8);
      const pane = segment.panes.find(
        (candidate) =>
          x >= candidate.x &&
          x < candidate.x + candidate.w &&
          y >= candidate.y &&
          y < candidate.y + candidate.h,
      );
      points++;
      if (pane) {
        const window = windowAt(pane.keyframes, tMs);
        const sx = window.x + ((x - pane.x) / pane.w) * window.w;
        const sy = window.y + ((y - pane.y) / pane.h) * window.h;
        const cell = sceneCellAt(grid, sx / source.width, sy / source.height);
        brightness += cell.brightness;
        detail += cell.detail;
      } else if (segment.backdrop) {
        // The backdrop fills the output (cover), blurred: its brightness, none of its detail.
        const scale = Math.max(output.width / source.width, output.height / source.height);
        const sx = (x - output.width / 2) / scale + source.width / 2;
        const sy = (y - output.height / 2) / scale + source.height / 2;
        brightness += blurredBrightness(grid, sx / source.width, sy / source.height);
      } else {
        brightness += BLACK;
      }
    }
  }
  return { brightness: brightness / points, detail: detail / points };
}

/** Brightness averaged over the cells around a point, as the blur spreads it. */
function blurredBrightness(grid: Uint8Array, fx: number, fy: number): number {
  let sum = 0;
  let count = 0;
  for (const dx of [-0.08, 0, 0.08]) {
    for (const dy of [-0.12, 0, 0.12]) {
      sum += sceneCellAt(grid, fx + dx, fy + dy).brightness;
      count++;
    }
  }
  return sum / count;
}
