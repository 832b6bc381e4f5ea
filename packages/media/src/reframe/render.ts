import { resolve } from 'node:path';
import { runFfmpeg } from '../ffmpeg/index';
import { reframeFilter } from './filter';
import type { ReframePlan } from './plan';

export interface ReframeVideoOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** x264 preset. Default `veryfast`. */
  preset?: string;
  /** x264 quality (lower is better). Default 20. */
  crf?: number;
  timeoutMs?: number;
}

/**
 * Render the plan's range of `input` reframed to an MP4 (H.264 + AAC). The exporter builds its own
 * command with captions; this is the same filter on its own, for previews, tests and benchmarks.
 */
export async function reframeVideo(
  input: string,
  output: string,
  plan: ReframePlan,
  options: ReframeVideoOptions = {},
): Promise<void> {
  const durationMs = plan.endMs - plan.startMs;
  await runFfmpeg(
    [
      // Input seeking puts `t` = 0 at startMs, which the crop path expects.
      ...(plan.startMs > 0 ? ['-ss', (plan.startMs / 1000).toFixed(3)] : []),
      '-t',
      (durationMs / 1000).toFixed(3),
      '-i',
      'file:' + resolve(input),
      '-vf',
      reframeFilter(plan),
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-c:v',
      'libx264',
      '-preset',
      options.preset ?? 'veryfast',
      '-crf',
      String(options.crf ?? 20),
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-movflags',
      '+faststart',
      'file:' + resolve(output),
    ],
    {
      signal: options.signal,
      onProgress: options.onProgress,
      durationMs,
      timeoutMs: options.timeoutMs,
    },
  );
}
