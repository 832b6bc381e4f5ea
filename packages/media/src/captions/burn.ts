/**
 * Burning captions into video with libass. `captionsFilter` gives the filter alone so the exporter
 * can chain it after reframing and scaling in the same ffmpeg pass.
 */
import { runFfmpeg, type FfmpegOptions } from '../ffmpeg/index';
import { captionFontsDir } from './fonts';

/**
 * The `ass` filter for `assPath`, escaped for a filtergraph: any path (spaces, quotes, colons,
 * commas, brackets) reaches libass unchanged. Fonts come only from `fontsDir` plus the system's
 * fontconfig fallback; complex shaping is forced, as the browser preview (JASSUB) uses it.
 */
export function captionsFilter(assPath: string, fontsDir: string = captionFontsDir()): string {
  return `ass=filename=${escapeFilterValue(assPath)}:fontsdir=${escapeFilterValue(fontsDir)}:shaping=complex`;
}

/**
 * Escape a filter option value for both levels ffmpeg unescapes: the option parser (`:` `=` `\`
 * `'`) and then the filtergraph parser (`[` `]` `,` `;` `\` `'`), see ffmpeg-filters "Notes on
 * filtergraph escaping".
 */
export function escapeFilterValue(value: string): string {
  const optionLevel = value.replace(/[\\':=]/g, (char) => `\\${char}`);
  return optionLevel.replace(/[\\'[\],;]/g, (char) => `\\${char}`);
}

export interface BurnCaptionsOptions extends Pick<
  FfmpegOptions,
  'onProgress' | 'signal' | 'timeoutMs' | 'durationMs' | 'threads'
> {
  fontsDir?: string;
  /** x264 preset; `veryfast` by default, `ultrafast` for previews and tests. */
  preset?: string;
  crf?: number;
}

/** Re-encode `inputVideo` with the ASS captions drawn in; size, frame rate and length unchanged. */
export async function burnCaptions(
  inputVideo: string,
  assFile: string,
  outputVideo: string,
  opts: BurnCaptionsOptions = {},
): Promise<void> {
  const { fontsDir, preset = 'veryfast', crf = 20, ...ffmpegOptions } = opts;
  await runFfmpeg(
    [
      '-i',
      localFile(inputVideo),
      '-map',
      '0:v:0',
      '-map',
      '0:a?',
      '-vf',
      captionsFilter(assFile, fontsDir),
      '-c:v',
      'libx264',
      '-preset',
      preset,
      '-crf',
      String(crf),
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      '-movflags',
      '+faststart',
      localFile(outputVideo),
    ],
    ffmpegOptions,
  );
}

/** `file:` keeps a name such as `-x.mp4` or `http:clip.mp4` a plain local file to ffmpeg. */
function localFile(path: string): string {
  return `file:${path}`;
}
