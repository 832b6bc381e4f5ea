/**
 * The ffmpeg side of a reframing plan: a filtergraph fragment with one video input and one video
 * output, so the exporter can chain captions after it in the same ffmpeg pass
 * (e.g. `-vf "<fragment>,ass=captions.ass"`, or `[0:v]<fragment>[v]` in a -filter_complex).
 *
 * Times: the crop path uses the filter's `t`, which must be 0 at the plan's `startMs`. Seeking
 * with `-ss` before `-i` does that; with a `trim` filter, add `setpts=PTS-STARTPTS` before it.
 */
import { fitInside, type Size } from './aspect';
import type { CropKeyframe, ReframePlan } from './plan';

/** Labels inside the blur_fit graph, prefixed so they never meet the exporter's own. */
const LABEL = 'rf';
/** The blurred background is made at 1/BLUR_DOWNSCALE of the output size: cheap and softer. */
const BLUR_DOWNSCALE = 8;

/**
 * Filtergraph fragment that turns the source into the plan's output size.
 * `sourceSize` may differ from the analysed one (e.g. a proxy file): the crop path is scaled.
 */
export function reframeFilter(
  plan: ReframePlan,
  sourceSize: Size = plan.source,
  output: Size = plan.output,
): string {
  if (plan.layout === 'blur_fit') return blurFitFilter(sourceSize, output);

  const sx = sourceSize.width / plan.source.width;
  const sy = sourceSize.height / plan.source.height;
  const keyframes = plan.keyframes.map((k) => ({
    tMs: k.tMs,
    x: k.x * sx,
    y: k.y * sy,
    w: k.w * sx,
    h: k.h * sy,
  }));
  const first = keyframes[0];
  if (!first) throw new RangeError('a crop plan needs at least one keyframe');
  const w = evenFloor(first.w);
  const h = evenFloor(first.h);
  const maxX = Math.max(0, sourceSize.width - w);
  const maxY = Math.max(0, sourceSize.height - h);
  const x = pathExpression(keyframes, 'x', maxX);
  const y = pathExpression(keyframes, 'y', maxY);
  return (
    `crop=w=${w}:h=${h}:x=${x}:y=${y},` +
    `scale=${output.width}:${output.height}:flags=lanczos,setsar=1`
  );
}

/**
 * The crop origin as an expression of `t`: the first value plus one term per move, so it stays
 * flat (no nested ifs) and grows only with the number of pans and jumps, not with the clip's length.
 * A pan is `slope*clip(t-start,0,duration)`, a jump `delta*gte(t,time)`.
 */
export function pathExpression(
  keyframes: Pick<CropKeyframe, 'tMs' | 'x' | 'y'>[],
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

/** The whole frame fitted to the output over a blurred, scaled-to-fill copy of itself. */
export function blurFitFilter(source: Size, output: Size): string {
  const fg = fitInside(source, output);
  const small = {
    width: Math.max(2, Math.round(output.width / BLUR_DOWNSCALE / 2) * 2),
    height: Math.max(2, Math.round(output.height / BLUR_DOWNSCALE / 2) * 2),
  };
  const blurRadius = Math.max(2, Math.round(Math.min(small.width, small.height) / 12));
  return [
    `split=2[${LABEL}_bg][${LABEL}_fg]`,
    `[${LABEL}_bg]scale=${small.width}:${small.height}:force_original_aspect_ratio=increase:flags=fast_bilinear,` +
      `crop=${small.width}:${small.height},boxblur=${blurRadius}:2,` +
      `scale=${output.width}:${output.height}:flags=bilinear,setsar=1[${LABEL}_bgblur]`,
    `[${LABEL}_fg]scale=${fg.width}:${fg.height}:flags=lanczos,setsar=1[${LABEL}_fgfit]`,
    `[${LABEL}_bgblur][${LABEL}_fgfit]overlay=x=${(output.width - fg.width) >> 1}:y=${(output.height - fg.height) >> 1}`,
  ].join(';');
}

/** Numbers for expressions: short, no exponent notation. */
function num(value: number): string {
  const rounded = Math.round(value * 1000) / 1000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

function evenFloor(value: number): number {
  return Math.max(2, Math.floor(value / 2) * 2);
}
