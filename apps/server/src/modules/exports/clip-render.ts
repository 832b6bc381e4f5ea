import path from 'node:path';
import type { ExportAspect, ExportQuality } from '@moments/contract';
import { captionsFilter } from '@moments/media/captions';
import { runFfmpeg } from '@moments/media/ffmpeg';
import {
  analyzeSubjects,
  planReframe,
  reframeFilter,
  type ReframePlan,
  type Size,
  type SubjectAnalysis,
} from '@moments/media/reframe';

/** How the source becomes the output frame. */
export type ClipFraming =
  { layout: 'crop' | 'blur_fit'; plan: ReframePlan } | { layout: 'scale'; output: Size };

export interface FramingRequest {
  aspect: ExportAspect;
  quality: ExportQuality;
  layout: 'auto' | 'blur_fit';
  startMs: number;
  endMs: number;
  source: Size;
  output: Size;
}

/**
 * Chooses the framing: `original` is a plain scale; blur_fit needs no analysis; otherwise the
 * faces of the span decide (planReframe falls back to blur_fit when it finds no subject).
 */
export async function planClipFraming(
  sourceFile: string,
  request: FramingRequest,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): Promise<ClipFraming & { analysis?: SubjectAnalysis }> {
  if (request.aspect === 'original') return { layout: 'scale', output: request.output };
  const base = {
    aspect: request.aspect,
    quality: request.quality,
    source: request.source,
    output: request.output,
    startMs: request.startMs,
    endMs: request.endMs,
  };
  if (request.layout === 'blur_fit') {
    return { layout: 'blur_fit', plan: { ...base, layout: 'blur_fit' } };
  }
  const analysis = await analyzeSubjects(sourceFile, {
    startMs: request.startMs,
    endMs: request.endMs,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const plan = planReframe(analysis, { aspect: request.aspect, quality: request.quality });
  return { layout: plan.layout, plan, analysis };
}

export interface RenderClipInput {
  sourceFile: string;
  outputFile: string;
  /** ASS file to burn in, or null for no captions. */
  assFile: string | null;
  startMs: number;
  endMs: number;
  framing: ClipFraming;
  hasAudio: boolean;
  /** x264 preset; `veryfast` by default. */
  preset?: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  timeoutMs?: number;
}

/** Integrated loudness of short-form platforms (-14 LUFS), true peak under -1.5 dBTP. */
export const LOUDNESS_FILTER =
  'loudnorm=I=-14:TP=-1.5:LRA=11,aresample=48000,' +
  // Pinned output format: left open, ffmpeg 5.1 sometimes fails to negotiate loudnorm's layout.
  'aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';

/** The video filtergraph: framing first, then the captions on the final frame. */
export function clipVideoFilter(framing: ClipFraming, assFile: string | null): string {
  let graph: string;
  if (framing.layout === 'scale') {
    graph = `scale=${framing.output.width}:${framing.output.height}:flags=lanczos,setsar=1`;
  } else {
    graph = reframeFilter(framing.plan);
  }
  graph += ',format=yuv420p';
  return assFile ? `${graph},${captionsFilter(assFile)}` : graph;
}

/**
 * One ffmpeg pass from the source: accurate input seek (the filters' `t` is 0 at the clip start,
 * as the crop path and the captions expect), framing and captions, loudness-normalised audio,
 * H.264 + AAC with the index up front so the file plays while it downloads.
 */
export async function renderClip(input: RenderClipInput): Promise<void> {
  const durationMs = input.endMs - input.startMs;
  const args = [
    '-ss',
    seconds(input.startMs),
    '-to',
    seconds(input.endMs),
    '-i',
    'file:' + path.resolve(input.sourceFile),
    '-filter_complex',
    [
      `[0:v:0]${clipVideoFilter(input.framing, input.assFile)}[clip_v]`,
      ...(input.hasAudio ? [`[0:a:0]${LOUDNESS_FILTER}[clip_a]`] : []),
    ].join(';'),
    '-map',
    '[clip_v]',
    ...(input.hasAudio ? ['-map', '[clip_a]'] : []),
  ];
  args.push(
    '-c:v',
    'libx264',
    '-preset',
    input.preset ?? 'veryfast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '160k',
    '-map_metadata',
    '-1',
    '-sn',
    '-dn',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    'file:' + path.resolve(input.outputFile),
  );
  await runFfmpeg(args, {
    durationMs,
    signal: input.signal,
    onProgress: input.onProgress,
    timeoutMs: input.timeoutMs,
  });
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);
