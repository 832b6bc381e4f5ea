/**
 * Bringing a linked video in with yt-dlp (pinned in `.tools/venv`, path overridable with
 * `configureMediaTools`, style.md "External tools"). yt-dlp knows the supported platforms and, through its
 * generic extractor, direct media addresses.
 *
 * Safety: a link is first resolved with `resolveMediaUrl` (every redirect hop checked against
 * private addresses, 404 and non-video pages refused), and the media addresses yt-dlp extracted are
 * checked too before the download runs from that same checked extraction (`--load-info-json`).
 * Those checks give early, clear errors; the guarantee is the egress proxy every yt-dlp run goes
 * through (`--proxy`): each connection yt-dlp (or the ffmpeg it starts) opens, for redirects,
 * manifests, segments and known platforms alike, is checked against the same guard at connect time.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { UrlSource } from '@moments/contract';
import { detectVideoSource } from '@moments/domain/links';
import { MediaError } from '../errors/index.js';
import { ffmpegPath } from '../ffmpeg/index.js';
import { startEgressProxy } from '@moments/net/egress-proxy';
import { assertPublicUrl, resolveMediaUrl, type LookupAll } from '@moments/net';
import { probeMedia } from '../probe/index.js';
import { ffmpegPathOverridden, ytdlpPath } from '../tools/index.js';
import { startProcess } from '@moments/process';

export interface VideoMetadata {
  title: string;
  thumbnail: string | null;
  /** Unknown for some direct files until they are downloaded and probed. */
  durationMs: number | null;
  videoPlatform: Exclude<UrlSource, 'upload'>;
  channelTitle: string | null;
  viewCount: number | null;
  /** Seconds since epoch. */
  publishedAt: number | null;
  webpageUrl: string;
}

export interface IngestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Private hosts the operator allows (the server passes MEDIA_FETCH_ALLOW_HOSTS; default none). */
  allowHosts?: string[];
  /** DNS resolver for the address checks (tests). */
  lookup?: LookupAll;
}

export interface DownloadOptions extends IngestOptions {
  /** Highest video height fetched: the processing resolution (default 720). */
  maxHeight?: number;
  /** Refuse files larger than this many bytes. */
  maxBytes?: number;
  /** Fraction in [0, 1] of the download. */
  onProgress?: (fraction: number) => void;
}

export interface DownloadedVideo {
  file: string;
  metadata: VideoMetadata;
}

/** yt-dlp binary: as configured (`configureMediaTools`), else `<repo>/.tools/venv/bin/yt-dlp`. */
export function ytDlpPath(): string {
  return ytdlpPath();
}

/** Whether the yt-dlp binary is there (tests skip with a message when it is not). */
export function hasYtDlp(): boolean {
  return existsSync(ytDlpPath());
}

/** Title, thumbnail, duration, channel... of a link, without downloading the video. */
export async function fetchVideoMetadata(
  link: string,
  opts: IngestOptions = {},
): Promise<VideoMetadata> {
  const { info } = await extract(link, opts, undefined);
  return toMetadata(info, link);
}

/**
 * Download a link's video into `outDir` (created if needed) as `source.<ext>`, at most
 * `maxHeight` pixels high, and return the file with its metadata (duration probed when the site
 * did not tell it).
 */
export async function downloadVideo(
  link: string,
  outDir: string,
  opts: DownloadOptions = {},
): Promise<DownloadedVideo> {
  const maxHeight = opts.maxHeight ?? 720;
  // Best video+audio up to the processing height; `?` keeps formats whose height is unknown
  // (direct files) eligible.
  const format = `bv*[height<=?${maxHeight}]+ba/b[height<=?${maxHeight}]/b`;
  const { info } = await extract(link, opts, format);
  const mediaUrls = formatUrls(info);
  const source = detectVideoSource(String(info.webpage_url ?? link));
  if (source === 'direct') {
    // The generic extractor may have found media on any address a page names: check them all.
    for (const url of mediaUrls) await assertPublicUrl(url, opts);
  }
  if (opts.maxBytes !== undefined) {
    const size = Number(info.filesize ?? info.filesize_approx);
    if (Number.isFinite(size) && size > opts.maxBytes) {
      throw new MediaError('FILE_TOO_LARGE', 'The video is larger than allowed.');
    }
  }

  outDir = resolve(outDir);
  await mkdir(outDir, { recursive: true });
  const infoFile = join(outDir, 'source.info.json');
  await writeFile(infoFile, JSON.stringify(info));
  const parts = Math.max(
    1,
    Array.isArray(info.requested_formats) ? info.requested_formats.length : 1,
  );
  const seenFormats: string[] = [];
  const args = [
    ...commonArgs(),
    '--load-info-json',
    infoFile,
    '-o',
    join(outDir, 'source.%(ext)s'),
    '--merge-output-format',
    'mp4',
    '--print',
    'after_move:filepath',
    '--progress',
    '--newline',
    '--progress-template',
    `download:${PROGRESS_MARK} %(info.format_id)s %(progress.downloaded_bytes)s %(progress.total_bytes,progress.total_bytes_estimate)s`,
    ...(opts.maxBytes !== undefined ? ['--max-filesize', String(opts.maxBytes)] : []),
  ];
  let file: string | undefined;
  try {
    await runYtDlp(args, opts, (line) => {
      if (line.startsWith(PROGRESS_MARK)) {
        const [, formatId = '', done, total] = line.split(' ');
        if (!seenFormats.includes(formatId)) seenFormats.push(formatId);
        const fraction = Number(done) / Number(total);
        if (opts.onProgress && Number.isFinite(fraction)) {
          const part = Math.min(parts - 1, seenFormats.indexOf(formatId));
          opts.onProgress(Math.min(1, (part + Math.min(1, fraction)) / parts));
        }
      } else if (line.startsWith(outDir)) {
        file = line.trim();
      }
    });
  } finally {
    await rm(infoFile, { force: true });
  }
  // No such file: yt-dlp wrote none (handled below).
  if (!file || !(await stat(file).catch(() => undefined))?.size) {
    // yt-dlp skips (exit 0) files over --max-filesize.
    const leftovers = (await readdir(outDir)).filter((name) => name.startsWith('source.'));
    if (opts.maxBytes !== undefined && leftovers.length === 0) {
      throw new MediaError('FILE_TOO_LARGE', 'The video is larger than allowed.');
    }
    throw new MediaError('DOWNLOAD_FAILED', 'The video could not be downloaded.');
  }
  const metadata = toMetadata(info, link);
  if (metadata.durationMs === null) {
    metadata.durationMs = (await probeMedia(file)).durationMs || null;
  }
  opts.onProgress?.(1);
  return { file, metadata };
}

// ---------------------------------------------------------------------------------------------

const PROGRESS_MARK = '[moments-progress]';

type YtDlpInfo = Record<string, unknown> & {
  requested_formats?: Array<{ url?: string }>;
};

async function extract(
  link: string,
  opts: IngestOptions,
  format: string | undefined,
): Promise<{ info: YtDlpInfo }> {
  const resolved = await resolveMediaUrl(link, opts);
  const args = [...commonArgs(), '-J', ...(format ? ['-f', format] : []), '--', resolved.finalUrl];
  let json = '';
  await runYtDlp(args, opts, (line) => {
    json += line + '\n';
  });
  let info: YtDlpInfo;
  try {
    info = JSON.parse(json) as YtDlpInfo;
  } catch (error) {
    throw new MediaError('DOWNLOAD_FAILED', 'The video information could not be read.', {
      cause: error,
    });
  }
  if (info === null || typeof info !== 'object') {
    throw new MediaError('LINK_NOT_MEDIA', 'No video was found at this link.');
  }
  return { info };
}

function commonArgs(): string[] {
  return [
    '--ignore-config', // the operator's ~/.config/yt-dlp must not change what the app does
    '--no-playlist',
    '--no-warnings',
    '--no-cache-dir',
    '--no-mtime',
    '--socket-timeout',
    '30',
    '--retries',
    '3',
    // yt-dlp finds ffmpeg on PATH itself; only an operator's override needs passing on.
    ...(ffmpegPathOverridden() ? ['--ffmpeg-location', ffmpegPath()] : []),
  ];
}

function formatUrls(info: YtDlpInfo): string[] {
  const urls = (info.requested_formats ?? []).map((entry) => entry.url);
  if (urls.length === 0) urls.push(typeof info.url === 'string' ? info.url : undefined);
  return urls.filter((url): url is string => typeof url === 'string' && /^https?:/i.test(url));
}

function toMetadata(info: YtDlpInfo, link: string): VideoMetadata {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  const webpageUrl = text(info.webpage_url) ?? link;
  const uploadDate = text(info.upload_date);
  const publishedAt =
    count(info.timestamp) ??
    count(info.release_timestamp) ??
    (uploadDate && /^\d{8}$/.test(uploadDate)
      ? Date.UTC(+uploadDate.slice(0, 4), +uploadDate.slice(4, 6) - 1, +uploadDate.slice(6)) / 1000
      : null);
  const duration = typeof info.duration === 'number' && info.duration > 0 ? info.duration : null;
  let videoPlatform: Exclude<UrlSource, 'upload'>;
  try {
    videoPlatform = detectVideoSource(webpageUrl);
  } catch {
    // Not a known platform (yt-dlp took it from elsewhere): a direct link.
    videoPlatform = 'direct';
  }
  return {
    title: text(info.title) ?? text(info.id) ?? 'Untitled video',
    thumbnail: text(info.thumbnail),
    durationMs: duration === null ? null : Math.round(duration * 1000),
    videoPlatform,
    channelTitle: text(info.channel) ?? text(info.uploader),
    viewCount: count(info.view_count),
    publishedAt,
    webpageUrl,
  };
}

/**
 * Run yt-dlp through a fresh egress proxy, feeding stdout lines to `onLine`; failures become
 * MediaErrors with stable codes. Any connection the proxy refused fails the run with
 * PRIVATE_ADDRESS, even when yt-dlp carried on without it (e.g. skipping a refused HLS segment).
 */
async function runYtDlp(
  args: string[],
  opts: IngestOptions,
  onLine: (line: string) => void,
): Promise<void> {
  const proxy = await startEgressProxy({
    ...(opts.allowHosts ? { allowHosts: opts.allowHosts } : {}),
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  let failure: unknown;
  try {
    await spawnYtDlp(['--proxy', proxy.url, ...args], opts, onLine);
  } catch (error) {
    failure = error;
  } finally {
    await proxy.close();
  }
  const refusal = proxy.refused[0];
  if (refusal?.notFound) {
    // A site that does not exist is no private address: said as a direct fetch says it.
    const host = refusal.target.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    throw new MediaError('LINK_UNREACHABLE', `The site ${host} could not be found.`, {
      details: { refused: proxy.refused.slice(0, 10) },
    });
  }
  if (refusal) {
    throw new MediaError(
      'PRIVATE_ADDRESS',
      `This link leads to ${refusal.reason}, which cannot be fetched.`,
      { details: { refused: proxy.refused.slice(0, 10) } },
    );
  }
  if (failure) throw failure;
}

async function spawnYtDlp(
  args: string[],
  opts: IngestOptions,
  onLine: (line: string) => void,
): Promise<void> {
  const binary = ytDlpPath();
  // Its own process group: a timeout or cancel also stops the ffmpeg yt-dlp starts for merging.
  const started = startProcess(binary, args, {
    timeoutMs: opts.timeoutMs ?? 60 * 60 * 1000,
    signal: opts.signal,
  });
  let partial = '';
  started.child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  const { exitCode, stopReason, spawnError, stderrTail } = await started.exited;
  if (partial) onLine(partial);
  if (spawnError) {
    throw new MediaError(
      'TOOL_MISSING',
      `yt-dlp could not be started (${binary}); run scripts/setup.sh`,
      { cause: spawnError },
    );
  }
  if (stopReason === 'timeout') {
    throw new MediaError('TIMEOUT', 'The download took too long and was stopped.');
  }
  if (stopReason) throw new MediaError('ABORTED', 'The download was cancelled.');
  if (exitCode !== 0) throw ytDlpError(stderrTail, exitCode);
}

/** Turn yt-dlp's last ERROR line into a stable code the user can act on. */
function ytDlpError(stderr: string, exitCode: number | null): MediaError {
  const errorLine =
    stderr
      .split('\n')
      .filter((line) => line.startsWith('ERROR:'))
      .pop() ??
    stderr.trim().split('\n').pop() ??
    '';
  const details = { exitCode, stderrTail: stderr.slice(-2000) };
  if (
    /HTTP Error (404|410)|Video unavailable|Private video|has been removed|does not exist/i.test(
      errorLine,
    )
  ) {
    return new MediaError(
      'LINK_NOT_FOUND',
      'This video could not be found; it may be private or removed.',
      { details },
    );
  }
  if (/Unsupported URL|No video formats found|no suitable formats/i.test(errorLine)) {
    return new MediaError('LINK_NOT_MEDIA', 'No video was found at this link.', { details });
  }
  if (
    /HTTP Error|Unable to download|timed out|Connection refused|Name or service not known|getaddrinfo|Sign in/i.test(
      errorLine,
    )
  ) {
    return new MediaError(
      'LINK_UNREACHABLE',
      'The video site could not be reached or refused the download.',
      { details },
    );
  }
  return new MediaError(
    'DOWNLOAD_FAILED',
    `The video could not be downloaded: ${errorLine.replace(/^ERROR:\s*/, '')}`,
    { details },
  );
}
