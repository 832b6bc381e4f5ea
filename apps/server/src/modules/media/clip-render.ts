import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CUT_CROSSFADE_MS } from '@moments/domain/cuts';
import type { ExportAspect, ExportQuality } from '@moments/contract';
import { captionsFilter } from '@moments/media/captions';
import { runFfmpeg, spawnFfmpegStream } from '@moments/media/ffmpeg';
import { EXPOSED_LUMA, THUMBNAIL_WIDTH } from '@moments/media/thumbnail';
import {
  analyzeSubjects,
  planReframe,
  reframeFilter,
  type DetectionStore,
  type LayoutChoice,
  type PlanLayout,
  type ReframePlan,
  type Size,
  type SubjectAnalysis,
} from '@moments/media/reframe';

/** How the source becomes the output frame. */
export type ClipFraming =
  { layout: PlanLayout; plan: ReframePlan } | { layout: 'scale'; output: Size };

export interface FramingRequest {
  aspect: ExportAspect;
  quality: ExportQuality;
  layout: LayoutChoice;
  startMs: number;
  endMs: number;
  source: Size;
  output: Size;
  /** Sentence ends and pauses (source ms): layout switches land on them. */
  breaksMs?: readonly number[];
}

/**
 * Chooses the framing: `original` is a plain scale; otherwise the span's shots decide (its
 * faces, who speaks, slides, wide shots), within the layout asked for; the analysis also tells
 * how light or busy the picture is under the captions.
 */
export async function planClipFraming(
  sourceFile: string,
  request: FramingRequest,
  options: {
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
    workDir?: string;
    /** Face detections shared by the spans of this source: only what they lack is analysed. */
    detections?: DetectionStore;
    /** The audio stream with the speech (`0:a:N`): its loudness tells who speaks. */
    audioStream?: number;
  } = {},
): Promise<ClipFraming & { analysis?: SubjectAnalysis }> {
  if (request.aspect === 'original') return { layout: 'scale', output: request.output };
  const analysis = await analyzeSubjects(sourceFile, {
    startMs: request.startMs,
    endMs: request.endMs,
    signal: options.signal,
    onProgress: options.onProgress,
    workDir: options.workDir,
    detections: options.detections,
    audioStream: options.audioStream,
  });
  const plan = planReframe(analysis, {
    aspect: request.aspect,
    quality: request.quality,
    layout: request.layout,
    breaksMs: request.breaksMs,
  });
  return { layout: plan.layout, plan, analysis };
}

export interface RenderClipInput {
  sourceFile: string;
  outputFile: string;
  /** ASS file to burn in, or null for no captions. */
  assFile: string | null;
  /**
   * A logo (PNG) laid over the framed picture under the captions: its rectangle in output pixels
   * and its opacity (0 to 1); absent: none.
   */
  logo?: { file: string; x: number; y: number; width: number; height: number; opacity: number };
  startMs: number;
  endMs: number;
  framing: ClipFraming;
  hasAudio: boolean;
  /**
   * The one audio stream the clip keeps (`0:a:N`): the speech its captions were heard from, not
   * every track of the source; default the first.
   */
  audioStream?: number;
  /** From measureLoudness; undefined leaves the level as it is. */
  loudness?: LoudnessMeasure;
  /** x264 preset; `veryfast` by default. */
  preset?: string;
  /**
   * Parts of the clip to keep, in ms from the clip start (filler words cut out); the captions are
   * burnt in before the cut, so every kept word keeps its caption. Default: all of it.
   */
  keepSpans?: readonly { startMs: number; endMs: number }[];
  /** The encoder and its threads (the worker's share of the cores); x264 veryfast by default. */
  encoder?: VideoEncoderSettings;
  /**
   * Where the same pass writes the clip's poster (a JPEG of its most representative frame,
   * as wide as every thumbnail), so no second ffmpeg has to decode the finished MP4; absent: none.
   */
  posterFile?: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  timeoutMs?: number;
}

/** Short-form platforms' loudness: -14 LUFS integrated, true peak under -1.5 dBTP. */
const LOUDNESS_TARGET = 'I=-14:TP=-1.5:LRA=11';
/** Pinned output format: left open, ffmpeg 5.1 sometimes fails to negotiate loudnorm's layout. */
const AUDIO_OUTPUT_FORMAT =
  'aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo';

/** What loudnorm's analysis pass measured over the clip (its `print_format=json` fields). */
export interface LoudnessMeasure {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  target_offset: string;
}

/**
 * The first of loudnorm's two passes, audio only (a second or two for a minute of clip): a
 * single dynamic pass misses the target on short clips with pauses, the measured linear pass
 * lands on it.
 */
export async function measureLoudness(
  sourceFile: string,
  startMs: number,
  endMs: number,
  signal?: AbortSignal,
  audioStream = 0,
): Promise<LoudnessMeasure | undefined> {
  const stream = spawnFfmpegStream(
    [
      '-ss',
      seconds(startMs),
      '-to',
      seconds(endMs),
      '-i',
      'file:' + path.resolve(sourceFile),
      '-map',
      `0:a:${audioStream}`,
      '-af',
      `loudnorm=${LOUDNESS_TARGET}:print_format=json`,
      '-f',
      'null',
      '-',
    ],
    { signal, durationMs: endMs - startMs },
  );
  stream.stdout.resume();
  await stream.done;
  const tail = stream.stderrTail();
  try {
    const measured = JSON.parse(
      tail.slice(tail.lastIndexOf('{'), tail.lastIndexOf('}') + 1),
    ) as LoudnessMeasure;
    // Silence measures -inf: there is nothing to normalise.
    return Number.isFinite(Number(measured.input_i)) ? measured : undefined;
  } catch {
    // No measure in ffmpeg's output: the clip is rendered without loudness normalisation.
    return undefined;
  }
}

/** Silent stretches shorter than this are not pauses worth shortening (a stop consonant). */
const SILENCE_MIN_S = 0.15;

/**
 * The silent stretches of a span's audio, from its energy (ffmpeg silencedetect), in source ms.
 * The threshold follows the clip's loudness when it is known (18 dB under its integrated level,
 * between -50 and -30 dBFS: a quiet room's hum is silence, a soft word is not).
 */
export async function detectSilences(
  sourceFile: string,
  startMs: number,
  endMs: number,
  options: { signal?: AbortSignal; audioStream?: number; loudness?: LoudnessMeasure } = {},
): Promise<{ startMs: number; endMs: number }[]> {
  const integrated = Number(options.loudness?.input_i);
  const noiseDb = Number.isFinite(integrated) ? Math.max(-50, Math.min(-30, integrated - 18)) : -35;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'silences-'));
  const out = path.join(dir, 'silences.txt');
  try {
    // ametadata writes every silence edge to a file: stderr's kept tail could drop some.
    await runFfmpeg(
      [
        '-ss',
        seconds(startMs),
        '-to',
        seconds(endMs),
        '-i',
        'file:' + path.resolve(sourceFile),
        '-map',
        `0:a:${options.audioStream ?? 0}`,
        '-af',
        `silencedetect=noise=${noiseDb.toFixed(1)}dB:d=${SILENCE_MIN_S},` +
          `ametadata=mode=print:file=${out.replace(/[\\:',]/g, '\\$&')}`,
        '-f',
        'null',
        '-',
      ],
      { signal: options.signal, durationMs: endMs - startMs },
    );
    // No file: ffmpeg saw no audio frame at all, so there is no silence to report.
    const text = await fs.readFile(out, 'utf8').catch(() => '');
    return parseSilences(text, endMs - startMs).map((span) => ({
      startMs: startMs + span.startMs,
      endMs: startMs + span.endMs,
    }));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** silencedetect's edges (seconds from the span start) as spans; an open one ends with the span. */
function parseSilences(text: string, spanMs: number): { startMs: number; endMs: number }[] {
  const spans: { startMs: number; endMs: number }[] = [];
  let open: number | null = null;
  for (const match of text.matchAll(/lavfi\.silence_(start|end)=(-?[\d.]+)/g)) {
    const ms = Math.max(0, Math.round(Number(match[2]) * 1000));
    if (match[1] === 'start') open = ms;
    else if (open !== null) {
      spans.push({ startMs: open, endMs: Math.min(spanMs, ms) });
      open = null;
    }
  }
  if (open !== null && open < spanMs) spans.push({ startMs: open, endMs: spanMs });
  return spans;
}

/** The audio filter: measured (linear) loudness normalisation when measured, then 48 kHz stereo. */
function loudnessFilter(measured: LoudnessMeasure | undefined): string {
  if (!measured) return AUDIO_OUTPUT_FORMAT;
  return (
    `loudnorm=${LOUDNESS_TARGET}:measured_I=${measured.input_i}:measured_TP=${measured.input_tp}` +
    `:measured_LRA=${measured.input_lra}:measured_thresh=${measured.input_thresh}` +
    `:offset=${measured.target_offset}:linear=true,${AUDIO_OUTPUT_FORMAT}`
  );
}

/**
 * The video filtergraph from `[0:v:0]`: framing first, then the logo (input 1) when there is
 * one, then the captions on the final frame.
 */
function clipVideoFilter(
  framing: ClipFraming,
  assFile: string | null,
  logo?: RenderClipInput['logo'],
): string {
  if (!logo) return `[0:v:0]${framedFilter(framing, assFile)}`;
  const opacity = Math.min(1, Math.max(0, logo.opacity)).toFixed(3);
  return (
    `[0:v:0]${framedFilter(framing, null)}[framed];` +
    `[1:v]scale=${logo.width}:${logo.height}:flags=lanczos,format=rgba,colorchannelmixer=aa=${opacity}[logo];` +
    `[framed][logo]overlay=x=${logo.x}:y=${logo.y}:shortest=1:eof_action=pass,format=yuv420p` +
    (assFile ? `,${captionsFilter(assFile)}` : '')
  );
}

function framedFilter(framing: ClipFraming, assFile: string | null): string {
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
 * One ffmpeg pass from the source (after the audio-only loudness measure): accurate input seek
 * (the filters' `t` is 0 at the clip start, as the layout's windows and the captions expect),
 * framing and captions, loudness-normalised audio, H.264 + AAC with the index up front so the
 * file plays while it downloads; decoder, filter and encoder threads matched to the worker's
 * share of the cores.
 */
export async function renderClip(input: RenderClipInput): Promise<void> {
  const cut = input.keepSpans ? cutFilters(input.keepSpans) : undefined;
  const durationMs = input.keepSpans
    ? input.keepSpans.reduce((sum, span) => sum + span.endMs - span.startMs, 0)
    : input.endMs - input.startMs;
  // Decoding, filters and encoding all keep to the worker's share of the cores.
  const threads = input.encoder?.threads;
  const args = [
    ...(threads ? ['-filter_complex_threads', String(threads), '-threads', String(threads)] : []),
    '-ss',
    seconds(input.startMs),
    '-to',
    seconds(input.endMs),
    '-i',
    'file:' + path.resolve(input.sourceFile),
    // The logo is one picture, repeated for as long as the clip runs.
    ...(input.logo ? ['-loop', '1', '-i', 'file:' + path.resolve(input.logo.file)] : []),
    '-filter_complex',
    [
      `${clipVideoFilter(input.framing, input.assFile, input.logo)}${cut ? `,${cut.video}` : ''}` +
        (input.posterFile ? `,split=2[clip_v][poster_in]` : '[clip_v]'),
      ...(input.posterFile ? [`[poster_in]${posterFilter(durationMs)}[poster_v]`] : []),
      ...(input.hasAudio
        ? cut
          ? [
              cut.audio(`0:a:${input.audioStream ?? 0}`, 'cut_a'),
              `[cut_a]${loudnessFilter(input.loudness)}[clip_a]`,
            ]
          : [`[0:a:${input.audioStream ?? 0}]${loudnessFilter(input.loudness)}[clip_a]`]
        : []),
    ].join(';'),
    '-map',
    '[clip_v]',
    ...(input.hasAudio ? ['-map', '[clip_a]'] : []),
  ];
  args.push(
    ...videoEncoderArgs(input.encoder),
    ...AUDIO_ENCODER_ARGS,
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
  if (input.posterFile) {
    args.push(
      ...['-map', '[poster_v]', '-frames:v', '1', '-q:v', '3', '-update', '1'],
      ...['-f', 'image2', 'file:' + path.resolve(input.posterFile)],
    );
  }
  await runFfmpeg(args, {
    durationMs,
    signal: input.signal,
    onProgress: input.onProgress,
    timeoutMs: input.timeoutMs,
    threads,
  });
}

/** Frames the poster is chosen from: enough to pass over a cut or a blink, few enough to hold. */
const POSTER_CANDIDATES = 24;

/**
 * The poster branch of the render's graph: the clip sampled evenly (at most two frames a
 * second, POSTER_CANDIDATES in all) and scaled down; frames near black or near white (a fade, a
 * flash, an empty slide) are dropped, and ffmpeg's `thumbnail` filter keeps the one closest to the
 * rest's average look, written at the end. A clip with no exposed frame writes no poster.
 */
function posterFilter(durationMs: number): string {
  const perSecond = Math.min(2, POSTER_CANDIDATES / Math.max(1, durationMs / 1000));
  const luma = (fn: 'greater' | 'less', value: number) =>
    `metadata=select:key=lavfi.signalstats.YAVG:value=${value}:function=${fn}`;
  return [
    `fps=${perSecond.toFixed(4)}`,
    `scale=${THUMBNAIL_WIDTH}:-2`,
    'signalstats',
    luma('greater', EXPOSED_LUMA.min),
    luma('less', EXPOSED_LUMA.max),
    `thumbnail=n=${POSTER_CANDIDATES + 1}`,
  ].join(',');
}

export interface VideoEncoderSettings {
  /** `x264` on the CPU (default) or `nvenc` on an NVIDIA GPU (VIDEO_ENCODER). */
  encoder?: 'x264' | 'nvenc';
  /** x264 preset; `veryfast` by default. */
  preset?: string;
  /** Encoder threads; 0 (default) lets x264 use every core. */
  threads?: number;
}

/**
 * The exporter's H.264 settings for short-form delivery: CRF 20 (a vertical clip is watched full
 * screen on a phone), veryfast, a keyframe every 2 s at 30 fps so feeds can seek and cut quickly,
 * threads limited to the worker's share so concurrent renders do not fight over the cores. The
 * speed bench encodes with the same settings as its limit.
 */
export function videoEncoderArgs(settings: VideoEncoderSettings = {}): string[] {
  if (settings.encoder === 'nvenc') {
    return [
      '-c:v',
      'h264_nvenc',
      '-preset',
      'p4',
      '-rc',
      'vbr',
      '-cq',
      '23',
      '-b:v',
      '0',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '60',
    ];
  }
  return [
    ...['-c:v', 'libx264', '-preset', settings.preset ?? 'veryfast', '-crf', '20'],
    ...['-pix_fmt', 'yuv420p', '-g', '60'],
    ...(settings.threads ? ['-threads', String(settings.threads)] : []),
  ];
}

export const AUDIO_ENCODER_ARGS = ['-c:a', 'aac', '-b:a', '160k'];

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * Filters that keep only `spans` (ms from the clip start) of the picture and the sound, played
 * back to back. The picture is cut on frames; the sound of each kept span reaches CUT_CROSSFADE_MS/2
 * into the removed part on each side of a join and the neighbours crossfade over it, so a join
 * never clicks and the sound stays as long as the picture (each join overlaps what it added).
 */
function cutFilters(spans: readonly { startMs: number; endMs: number }[]) {
  // Commas inside a filter's expression are escaped for the filtergraph parser.
  const keep = spans
    .map((span) => `between(t\\,${seconds(span.startMs)}\\,${seconds(span.endMs)})`)
    .join('+');
  const video = `select=${keep},setpts=N/FRAME_RATE/TB`;
  if (spans.length < 2) {
    return {
      video,
      audio: (input: string, output: string) =>
        `[${input}]aselect=${keep},asetpts=N/SR/TB[${output}]`,
    };
  }
  const half = CUT_CROSSFADE_MS / 2;
  const audio = (input: string, output: string) => {
    const parts: string[] = [
      `[${input}]asplit=${spans.length}${spans.map((_, i) => `[cut_in${i}]`).join('')}`,
    ];
    spans.forEach((span, i) => {
      const start = i > 0 ? span.startMs - half : span.startMs;
      const end = i < spans.length - 1 ? span.endMs + half : span.endMs;
      parts.push(
        `[cut_in${i}]atrim=start=${seconds(Math.max(0, start))}:end=${seconds(end)},asetpts=PTS-STARTPTS[cut_a${i}]`,
      );
    });
    let joined = 'cut_a0';
    for (let i = 1; i < spans.length; i++) {
      const next = i === spans.length - 1 ? output : `cut_x${i}`;
      parts.push(
        `[${joined}][cut_a${i}]acrossfade=d=${seconds(CUT_CROSSFADE_MS)}:c1=tri:c2=tri[${next}]`,
      );
      joined = next;
    }
    return parts.join(';');
  };
  return { video, audio };
}
