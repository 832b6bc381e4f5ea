/**
 * Where the media layer finds its outside tools and fonts. The server sets this once at start from
 * its validated config; scripts, benches and tests that use the package directly get the defaults:
 * ffmpeg and ffprobe on the PATH, yt-dlp in `<repo>/.tools/venv/bin` (made by scripts/setup.sh),
 * the Noto fonts where Debian's fonts-noto packages put them.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configureToolPaths } from '@moments/process';

export interface MediaTools {
  /** Default: `ffmpeg` on the PATH. */
  ffmpegPath?: string;
  /** Default: `ffprobe` on the PATH. */
  ffprobePath?: string;
  /** Default: `<repo>/.tools/venv/bin/yt-dlp`. */
  ytdlpPath?: string;
  /** Folders holding the Noto caption fonts, tried in order. */
  fontDirs?: string[];
  /** ffmpeg's encoder and filter threads. Default: the number of cores. */
  ffmpegThreads?: number;
  /** ffmpeg's `nice` level (0: none). Default: 10, so the web server stays responsive. */
  ffmpegNiceness?: number;
  /** How long one ffmpeg run may take, in milliseconds. Default: 3 hours. */
  ffmpegTimeoutMs?: number;
}

/** The ffmpeg run settings a caller's own options override. */
export interface FfmpegRunDefaults {
  threads?: number;
  niceness?: number;
  timeoutMs?: number;
}

function repoRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, 'package.json')) && existsSync(join(folder, 'packages')))
      return folder;
    const parent = dirname(folder);
    if (parent === folder) return process.cwd();
    folder = parent;
  }
}

export const DEFAULT_YTDLP_PATH = join(repoRoot(), '.tools', 'venv', 'bin', 'yt-dlp');
export const DEFAULT_FONT_DIRS: readonly string[] = [
  '/usr/share/fonts/truetype/noto',
  '/usr/share/fonts/opentype/noto',
];

let ytdlp = DEFAULT_YTDLP_PATH;
let fontDirs: readonly string[] = DEFAULT_FONT_DIRS;
let ffmpegOverridden = false;
let ffmpegRun: FfmpegRunDefaults = {};
const listeners = new Set<() => void>();

/**
 * Set every tool at once; what is left out goes back to its default (a second call replaces the
 * first, it does not add to it).
 */
export function configureMediaTools(tools: MediaTools = {}): void {
  configureToolPaths({ ffmpeg: tools.ffmpegPath, ffprobe: tools.ffprobePath });
  ffmpegOverridden = Boolean(tools.ffmpegPath);
  ytdlp = tools.ytdlpPath || DEFAULT_YTDLP_PATH;
  fontDirs = tools.fontDirs?.length ? [...tools.fontDirs] : DEFAULT_FONT_DIRS;
  ffmpegRun = {
    threads: tools.ffmpegThreads,
    niceness: tools.ffmpegNiceness,
    timeoutMs: tools.ffmpegTimeoutMs,
  };
  for (const listener of listeners) listener();
}

/** The yt-dlp binary. */
export const ytdlpPath = (): string => ytdlp;

/** The caption font folders. */
export const captionFontDirs = (): readonly string[] => fontDirs;

/** Whether ffmpeg was named explicitly (yt-dlp then needs telling; otherwise it finds it on the PATH). */
export const ffmpegPathOverridden = (): boolean => ffmpegOverridden;

/** The configured ffmpeg run settings (unset ones: the ffmpeg module's own defaults). */
export const ffmpegRunDefaults = (): FfmpegRunDefaults => ffmpegRun;

/** Run `listener` after each configuration (caches built from the old setting drop it). */
export function onMediaToolsConfigured(listener: () => void): void {
  listeners.add(listener);
}
