/**
 * The ffmpeg side of a reframing plan: a filtergraph fragment with one video input and one video
 * output, so the exporter can chain captions after it in the same ffmpeg pass
 * (e.g. `-vf "<fragment>,ass=captions.ass"`, or `[0:v]<fragment>[v]` in a -filter_complex).
 *
 * Each layout segment is its own chain (a crop for the speaker, two crops stacked for two people,
 * a slide scaled above the speaker's crop, the whole frame over a blurred fill); several segments
 * are cut from one decode with `trim` and joined with `concat`, so every frame goes through only
 * its own segment's filters.
 *
 * Times: the windows' paths use the filter's `t`, which must be 0 at the plan's `startMs`. Seeking
 * with `-ss` before `-i` does that; with a `trim` filter, add `setpts=PTS-STARTPTS` before it.
 */
import type { Size } from './aspect';
import type { LayoutSegment, Pane } from './layout';
import type { CropKeyframe, ReframePlan } from './plan';

/** Labels inside the graph, prefixed so they never meet the exporter's own. */
const LABEL = 'rf';
/** The blurred background is made at 1/BLUR_DOWNSCALE of the output size: cheap and softer. */
const BLUR_DOWNSCALE = 8;

/**
 * Filtergraph fragment that turns the source into the plan's output size.
 * `sourceSize` may differ from the analysed one (e.g. a proxy file): the windows are scaled.
 */
export function reframeFilter(
  plan: ReframePlan,
  sourceSize: Size = plan.source,
  output: Size = plan.output,
): string {
  const sx = sourceSize.width / plan.source.width;
  const sy = sourceSize.height / plan.source.height;
  const ox = output.width / plan.output.width;
  const oy = output.height / plan.output.height;
  const segments = plan.segments.map((segment) => ({
    ...segment,
    panes: segment.panes.map((pane) => ({
      x: Math.round(pane.x * ox),
      y: Math.round(pane.y * oy),
      w: Math.round(pane.w * ox),
      h: Math.round(pane.h * oy),
      keyframes: pane.keyframes.map((k) => ({
        tMs: k.tMs,
        x: k.x * sx,
        y: k.y * sy,
        w: k.w * sx,
        h: k.h * sy,
      })),
      ...(pane.cover
        ? {
            cover: {
              x: Math.round(pane.cover.x * ox),
              y: Math.round(pane.cover.y * oy),
              w: Math.round(pane.cover.w * ox),
              h: Math.round(pane.cover.h * oy),
              grey: pane.cover.grey,
            },
          }
        : {}),
    })),
  }));
  if (segments.length === 0) throw new RangeError('a plan needs at least one segment');
  if (segments.length === 1) return segmentFilter(segments[0]!, sourceSize, output, LABEL);

  const inputs = segments.map((_, i) => `[${LABEL}_in${i}]`).join('');
  const chains = segments.map((segment, i) => {
    const range = [
      i > 0 ? `start=${seconds(segment.startMs)}` : '',
      i + 1 < segments.length ? `end=${seconds(segment.endMs)}` : '',
    ]
      .filter(Boolean)
      .join(':');
    // The segment's filters see the clip's own `t`; concat wants each part to start at 0.
    return (
      `[${LABEL}_in${i}]trim=${range},` +
      `${segmentFilter(segment, sourceSize, output, `${LABEL}${i}`)},setpts=PTS-STARTPTS[${LABEL}_out${i}]`
    );
  });
  const outputs = segments.map((_, i) => `[${LABEL}_out${i}]`).join('');
  return [
    `split=${segments.length}${inputs}`,
    ...chains,
    `${outputs}concat=n=${segments.length}:v=1:a=0`,
  ].join(';');
}

/** One segment's chain: its panes over its backdrop (or stacked, when they tile the output). */
function segmentFilter(
  segment: Pick<LayoutSegment, 'panes' | 'backdrop'>,
  source: Size,
  output: Size,
  label: string,
): string {
  const panes = segment.panes;
  const covers = (pane: Pane) =>
    pane.x === 0 && pane.y === 0 && pane.w === output.width && pane.h === output.height;
  if (panes.length === 1 && covers(panes[0]!)) return paneFilter(panes[0]!, source);
  const stack = tiling(panes, output);
  if (stack && !segment.backdrop) {
    const names = panes.map((_, i) => `${label}_p${i}`);
    return [
      `split=${panes.length}${names.map((name) => `[${name}]`).join('')}`,
      ...panes.map((pane, i) => `[${names[i]}]${paneFilter(pane, source)}[${names[i]}s]`),
      `${names.map((name) => `[${name}s]`).join('')}${stack}=inputs=${panes.length}`,
    ].join(';');
  }
  // Panes placed over the blurred copy of the whole frame (or over black).
  const base = `${label}_base`;
  const names = panes.map((_, i) => `${label}_p${i}`);
  const parts = [`split=${panes.length + 1}[${base}]${names.map((name) => `[${name}]`).join('')}`];
  parts.push(
    segment.backdrop
      ? `[${base}]${backdropFilter(output)}[${base}bg]`
      : `[${base}]scale=${output.width}:${output.height},drawbox=c=black:t=fill,setsar=1[${base}bg]`,
  );
  let under = `${base}bg`;
  panes.forEach((pane, i) => {
    parts.push(`[${names[i]}]${paneFilter(pane, source)}[${names[i]}s]`);
    const over = i + 1 < panes.length ? `[${label}_o${i}]` : '';
    parts.push(`[${under}][${names[i]}s]overlay=x=${pane.x}:y=${pane.y}${over}`);
    under = `${label}_o${i}`;
  });
  return parts.join(';');
}

/** `vstack` or `hstack` when the panes tile the output in a column or a row, else undefined. */
function tiling(panes: readonly Pane[], output: Size): 'vstack' | 'hstack' | undefined {
  if (panes.length < 2) return undefined;
  let y = 0;
  let column = true;
  for (const pane of panes) {
    if (pane.x !== 0 || pane.w !== output.width || pane.y !== y) column = false;
    y += pane.h;
  }
  if (column && y === output.height) return 'vstack';
  let x = 0;
  let row = true;
  for (const pane of panes) {
    if (pane.y !== 0 || pane.h !== output.height || pane.x !== x) row = false;
    x += pane.w;
  }
  return row && x === output.width ? 'hstack' : undefined;
}

/** The pane's window of the source (following its path), scaled to the pane. */
function paneFilter(pane: Pane, source: Size): string {
  const first = pane.keyframes[0];
  if (!first) throw new RangeError('a pane needs at least one keyframe');
  const w = Math.min(evenFloor(first.w), evenFloor(source.width));
  const h = Math.min(evenFloor(first.h), evenFloor(source.height));
  // Bicubic: beside x264 at CRF 20 it looks the same as lanczos, and costs 7% less CPU per
  // export (measured on a 16 s 1080x1920 clip with two layouts).
  const cover = pane.cover
    ? `,drawbox=x=${pane.cover.x}:y=${pane.cover.y}:w=${pane.cover.w}:h=${pane.cover.h}` +
      `:color=0x${pane.cover.grey.toString(16).padStart(2, '0').repeat(3)}:t=fill`
    : '';
  const scale = `scale=${pane.w}:${pane.h}:flags=bicubic,setsar=1${cover}`;
  if (w >= evenFloor(source.width) && h >= evenFloor(source.height)) return scale;
  const x = pathExpression(pane.keyframes, 'x', Math.max(0, source.width - w));
  const y = pathExpression(pane.keyframes, 'y', Math.max(0, source.height - h));
  return `crop=w=${w}:h=${h}:x=${x}:y=${y},${scale}`;
}

/**
 * The crop origin as an expression of `t`: the first value plus one term per move, so it stays
 * flat (no nested ifs) and grows only with the number of pans and jumps, not with the clip's length.
 * A pan is `slope*clip(t-start,0,duration)`, a jump `delta*gte(t,time)`.
 */
function pathExpression(
  keyframes: readonly Pick<CropKeyframe, 'tMs' | 'x' | 'y'>[],
  axis: 'x' | 'y',
  max: number,
): string {
  const terms: string[] = [];
  for (let i = 0; i + 1 < keyframes.length; i++) {
    const a = keyframes[i]!;
    const b = keyframes[i + 1]!;
    const delta = b[axis] - a[axis];
    if (Math.abs(delta) < 0.01) continue;
    const start = a.tMs / 1000;
    const duration = (b.tMs - a.tMs) / 1000;
    terms.push(
      duration <= 0
        ? `${num(delta)}*gte(t,${num(start)})`
        : `${num(delta / duration)}*clip(t-${num(start)},0,${num(duration)})`,
    );
  }
  const base = num(Math.min(max, Math.max(0, keyframes[0]![axis])));
  if (terms.length === 0) return base;
  // Quoted: the commas belong to the expression, not to the filter chain.
  return `'clip(${base}+${balancedSum(terms)},0,${num(max)})'`;
}

/**
 * `a+b+c+...` nested as a balanced tree of short sums: ffmpeg's expression parser fails on a flat
 * sum of more than about 60 terms (measured with ffmpeg 5.1), but not on nesting of log depth.
 */
function balancedSum(terms: string[]): string {
  if (terms.length <= 16) return terms.join('+').replace(/\+-/g, '-');
  const half = Math.ceil(terms.length / 2);
  return `(${balancedSum(terms.slice(0, half))})+(${balancedSum(terms.slice(half))})`;
}

/** A blurred, enlarged copy of the whole frame filling the output (one input, one output). */
function backdropFilter(output: Size): string {
  const small = {
    width: Math.max(2, Math.round(output.width / BLUR_DOWNSCALE / 2) * 2),
    height: Math.max(2, Math.round(output.height / BLUR_DOWNSCALE / 2) * 2),
  };
  const blurRadius = Math.max(2, Math.round(Math.min(small.width, small.height) / 12));
  return (
    `scale=${small.width}:${small.height}:force_original_aspect_ratio=increase:flags=fast_bilinear,` +
    `crop=${small.width}:${small.height},boxblur=${blurRadius}:2,` +
    `scale=${output.width}:${output.height}:flags=bilinear,setsar=1`
  );
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Numbers for expressions: short, no exponent notation. */
function num(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

function evenFloor(value: number): number {
  return Math.max(2, Math.floor(value / 2) * 2);
}
