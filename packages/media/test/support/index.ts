/**
 * Helpers for tests across the repo: media made at test time (ffmpeg test patterns, synthetic
 * speech), the optional shared speech fixtures, and a local HTTP server to fetch from.
 * Nothing here is used by the product itself.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRawFrames, runFfmpeg, runFfprobe, spawnFfmpegStream } from '../../src/ffmpeg/index.js';
import { scoreGreyFrame } from '../../src/thumbnail/index.js';
import { writeWithHeaderDuration } from './header-durations.js';
import { withMediaCache } from './media-cache.js';

export {
  patchIsoBmffDurations,
  patchMatroskaDuration,
  writeWithHeaderDuration,
  type PatchedDuration,
} from './header-durations.js';
export {
  SLIDE_LINES,
  humanAssetsDir,
  makeFootage,
  slideFontFile,
  type Footage,
  type FootageKind,
  type FootageOptions,
} from './footage.js';

export interface TestVideoOptions {
  /** Length in seconds. Default 2, or the audio's length when `audio` is given. */
  durationSec?: number;
  width?: number;
  height?: number;
  fps?: number;
  /** Audio file to wrap (e.g. jfk.flac); without it a 440 Hz sine tone is used. */
  audio?: string;
  /** Leave the audio out entirely. */
  silent?: boolean;
  /** Seconds of black picture first (a fade-in, a black first frame), then the pattern. */
  blackIntroSec?: number;
  /** A flat colour instead of the moving pattern: a huge frame then stays a small file. */
  flat?: boolean;
  /** A silent audio stream first, the audio (or tone) as the second stream. */
  silentFirstAudio?: boolean;
}

/**
 * Make a small video with ffmpeg's `testsrc2` pattern. The container follows `out`'s extension:
 * .mp4/.mov get H.264 + AAC, .webm gets VP8 + Opus.
 */
export async function makeTestVideo(out: string, options: TestVideoOptions = {}): Promise<string> {
  const recipe = { maker: import.meta.url, args: ['video', options], inputs: [options.audio] };
  await withMediaCache(recipe, out, () => writeTestVideo(out, options));
  return out;
}

async function writeTestVideo(out: string, options: TestVideoOptions): Promise<null> {
  const { width = 320, height = 240, fps = 25 } = options;
  const durationSec = options.durationSec ?? (options.audio ? undefined : 2);
  const webm = extname(out).toLowerCase() === '.webm';
  const pattern = options.flat
    ? `color=c=teal:size=${width}x${height}:rate=${fps}`
    : `testsrc2=size=${width}x${height}:rate=${fps}`;
  const intro = options.blackIntroSec;
  const video = intro
    ? `color=black:size=${width}x${height}:rate=${fps}:duration=${intro}[intro];${pattern}[main];[intro][main]concat=n=2:v=1:a=0`
    : pattern;
  const args = ['-f', 'lavfi', '-i', video];
  if (!options.silent) {
    if (options.audio) args.push('-i', options.audio);
    else args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000');
    if (options.silentFirstAudio) {
      args.push('-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono');
      args.push('-map', '0:v', '-map', '2:a', '-map', '1:a');
    }
  }
  if (durationSec !== undefined) args.push('-t', String(durationSec));
  else args.push('-shortest'); // follow the wrapped audio's length
  args.push('-pix_fmt', 'yuv420p');
  args.push(
    ...(webm
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart']),
  );
  if (!options.silent) args.push(...(webm ? ['-c:a', 'libopus'] : ['-c:a', 'aac', '-b:a', '96k']));
  args.push(out);
  await runFfmpeg(args, { timeoutMs: 120_000 });
  return null;
}

export interface LongTestVideoOptions {
  durationSec: number;
  /**
   * The length the container's header claims instead of the real one (MP4: mvhd, tkhd, mdhd;
   * WebM: the Segment Info Duration); the packets stay as they are.
   */
  headerSec?: number;
}

/**
 * A long video that is cheap to make and to send (an hour is about 9 MB, made in a second or
 * two): 64x36 pixels at one frame a second with a 440 Hz tone in 16 kHz mono, one minute encoded
 * once and repeated without encoding again. The container follows `out`'s extension: .mp4 gets
 * H.264 + AAC, .webm gets VP8 + Opus.
 */
export async function makeLongTestVideo(
  out: string,
  options: LongTestVideoOptions,
): Promise<string> {
  const patcher = fileURLToPath(new URL('./header-durations.ts', import.meta.url));
  const recipe = { maker: import.meta.url, args: ['long video', options], inputs: [patcher] };
  await withMediaCache(recipe, out, () => writeLongTestVideo(out, options));
  return out;
}

async function writeLongTestVideo(out: string, options: LongTestVideoOptions): Promise<null> {
  const dir = await mkdtemp(join(tmpdir(), 'moments-long-video-'));
  try {
    const webm = extname(out).toLowerCase() === '.webm';
    const piece = join(dir, `minute${webm ? '.webm' : '.mp4'}`);
    await runFfmpeg(
      [
        ...['-f', 'lavfi', '-i', 'testsrc2=size=64x36:rate=1'],
        ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${webm ? 48000 : 16000}`],
        ...['-t', String(Math.min(60, options.durationSec)), '-g', '10', '-ac', '1'],
        ...(webm
          ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '30k']
          : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']),
        ...(webm ? ['-c:a', 'libopus', '-b:a', '12k'] : ['-c:a', 'aac', '-b:a', '16k']),
        piece,
      ],
      { timeoutMs: 120_000 },
    );
    await runFfmpeg(
      ['-stream_loop', '-1', '-i', piece, '-t', String(options.durationSec), '-c', 'copy', out],
      { timeoutMs: 120_000 },
    );
    if (options.headerSec !== undefined) {
      await writeWithHeaderDuration(out, out, options.headerSec);
    }
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface SpeechOptions {
  /** festival uses the cmu_us_slt_arctic_hts voice (closer to real speech); espeak-ng is faster. */
  engine?: 'festival' | 'espeak';
  /** espeak-ng voice, e.g. `de` or `fr`. */
  voice?: string;
  /** Speaking rate in words per minute (default 160; festival stretches its own pace to match). */
  wordsPerMinute?: number;
}

/** festival's HTS voice speaks at about this rate with no stretch. */
const FESTIVAL_WORDS_PER_MINUTE = 175;

/** Speak `text` into a WAV file with a local speech synthesiser. */
export async function synthesizeSpeech(
  text: string,
  outWav: string,
  options: SpeechOptions = {},
): Promise<string> {
  const recipe = { maker: import.meta.url, args: ['speech', text, options] };
  await withMediaCache(recipe, outWav, () => speak(text, outWav, options));
  return outWav;
}

async function speak(text: string, outWav: string, options: SpeechOptions): Promise<null> {
  // The text goes through stdin so that nothing in it can be read as an option.
  const rate = Math.round(options.wordsPerMinute ?? 160);
  if ((options.engine ?? 'espeak') === 'festival') {
    const stretch = options.wordsPerMinute
      ? (FESTIVAL_WORDS_PER_MINUTE / rate).toFixed(2)
      : undefined;
    const voice = '(voice_cmu_us_slt_arctic_hts)';
    const setup = stretch ? `(begin ${voice} (Parameter.set 'Duration_Stretch ${stretch}))` : voice;
    await runTool('text2wave', ['-eval', setup, '-o', outWav], text);
  } else {
    await runTool(
      'espeak-ng',
      ['-v', options.voice ?? 'en-us', '-s', String(rate), '-w', outWav, '--stdin'],
      text,
    );
  }
  return null;
}

/** One part of a spoken text with its own voice and the pause after it. */
export interface SpokenPart extends SpeechOptions {
  text: string;
  pauseAfterMs?: number;
}

/**
 * Speaks each text separately and joins them into one 16 kHz mono WAV, each part followed by a
 * pause from `pausesMs` (cycled) or its own `pauseAfterMs`, so every part has an exact start and
 * end: test and bench speech whose sentence or paragraph times are known. A part given as an
 * object may have its own voice and rate (an interview's second speaker).
 */
export async function speakWithPauses(
  texts: readonly (string | SpokenPart)[],
  outWav: string,
  options: SpeechOptions & { pausesMs: readonly number[] },
): Promise<{ startMs: number; endMs: number }[]> {
  const recipe = { maker: import.meta.url, args: ['spoken parts', texts, options] };
  return withMediaCache(recipe, outWav, () => joinSpokenParts(texts, outWav, options));
}

async function joinSpokenParts(
  texts: readonly (string | SpokenPart)[],
  outWav: string,
  options: SpeechOptions & { pausesMs: readonly number[] },
): Promise<{ startMs: number; endMs: number }[]> {
  const dir = await mkdtemp(join(tmpdir(), 'moments-speech-'));
  try {
    const parts: string[] = [];
    const spans: { startMs: number; endMs: number }[] = [];
    let at = 0;
    for (const [index, entry] of texts.entries()) {
      const part: SpokenPart = typeof entry === 'string' ? { text: entry } : entry;
      const voice = part.engine ? part : options;
      const raw = await synthesizeSpeech(part.text, join(dir, `p${index}.raw.wav`), {
        engine: voice.engine,
        voice: voice.voice,
        wordsPerMinute: part.wordsPerMinute ?? options.wordsPerMinute,
      });
      const wav = join(dir, `p${index}.wav`);
      await runFfmpeg(['-i', raw, '-ar', '16000', '-ac', '1', wav], { timeoutMs: 120_000 });
      const ms = await durationMsOf(wav);
      spans.push({ startMs: at, endMs: at + ms });
      parts.push(wav);
      const pauseMs = part.pauseAfterMs ?? options.pausesMs[index % options.pausesMs.length]!;
      const silence = join(dir, `s${index}.wav`);
      await runFfmpeg(
        ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', (pauseMs / 1000).toFixed(3)].concat(
          ['-c:a', 'pcm_s16le', silence],
        ),
        { timeoutMs: 60_000 },
      );
      parts.push(silence);
      at += ms + pauseMs;
    }
    const list = join(dir, 'list.txt');
    await writeFile(list, parts.map((part) => `file '${part}'`).join('\n'));
    await runFfmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c:a', 'pcm_s16le', outWav], {
      timeoutMs: 120_000,
    });
    return spans;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function durationMsOf(wav: string): Promise<number> {
  const out = await runFfprobe([
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    wav,
  ]);
  return Math.round(Number(out.trim()) * 1000);
}

/** The repository root (the folder whose package.json declares the workspaces). */
export function repoRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, 'package.json')) && existsSync(join(folder, 'packages'))) {
      return folder;
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error('repository root not found');
    folder = parent;
  }
}

/**
 * Absolute path of `../shared/media` beside the repo (real speech fixtures), or undefined when a
 * clone does not have it: tests using it must skip with a clear message then.
 */
export function sharedMediaDir(): string | undefined {
  const folder = resolve(repoRoot(), '..', 'shared', 'media');
  return existsSync(folder) ? folder : undefined;
}

/** Debian's pocketsphinx-testdata: LibriVox read speech (Sense and Sensibility, ch. 1), BSD-2. */
export const LIBRIVOX_DIR = '/usr/share/pocketsphinx/test/data/librivox';

export interface ReadSpeechPassage {
  /** The 16 kHz WAV file. */
  file: string;
  /** What the reader says, as the package's transcription file writes it (lower case, no punctuation). */
  reference: string;
}

/**
 * The LibriVox passages of pocketsphinx-testdata (scripts/setup.sh installs it), or undefined when
 * the package is absent: tests using them must skip with a clear message then. Real read speech
 * with hyphenated words ("ill-disposed", "cold-hearted") and names ("Mr. John Dashwood").
 */
export async function librivoxPassages(): Promise<ReadSpeechPassage[] | undefined> {
  const listing = join(LIBRIVOX_DIR, 'transcription');
  if (!existsSync(listing)) return undefined;
  return (await readFile(listing, 'utf8'))
    .split('\n')
    .map((line) => /^<s> (.*) <\/s> \((\S+)\)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ file: join(LIBRIVOX_DIR, `${match[2]}.wav`), reference: match[1]! }));
}

export interface ServedFiles {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Paths requested so far, in order (e.g. to check a redirect was followed). */
  requests: string[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.vtt': 'text/vtt',
};

/**
 * Serve the files of `dir` on 127.0.0.1 at a random port, with byte ranges. Extra routes:
 * - `/__page`: an HTML page that holds no media;
 * - `/__redirect?to=<path or url>`: a 302 to `to`;
 * - `/__status/<code>`: an empty reply with that status.
 */
export async function serveFiles(dir: string): Promise<ServedFiles> {
  const root = resolve(dir);
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    handleRequest(root, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

async function handleRequest(
  root: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/__page') {
    const html =
      '<!doctype html><html><head><title>Not a video</title></head><body>Hello</body></html>';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.method === 'HEAD' ? undefined : html);
    return;
  }
  if (url.pathname === '/__redirect') {
    response.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
    response.end();
    return;
  }
  const statusMatch = /^\/__status\/(\d{3})$/.exec(url.pathname);
  if (statusMatch) {
    response.writeHead(Number(statusMatch[1]));
    response.end();
    return;
  }

  const file = resolve(root, '.' + decodeURIComponent(url.pathname));
  // No such file: answered 404 below.
  const info = file.startsWith(root + sep) ? await stat(file).catch(() => undefined) : undefined;
  if (!info?.isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('not found');
    return;
  }
  const headers = {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
    'last-modified': info.mtime.toUTCString(),
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
  let start = 0;
  let end = info.size - 1;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(end, Number(range[2]));
    } else {
      start = Math.max(0, info.size - Number(range[2]));
    }
    if (start > end || start >= info.size) {
      response.writeHead(416, { 'content-range': `bytes */${info.size}` });
      response.end();
      return;
    }
    response.writeHead(206, {
      ...headers,
      'content-range': `bytes ${start}-${end}/${info.size}`,
      'content-length': String(end - start + 1),
    });
  } else {
    response.writeHead(200, { ...headers, 'content-length': String(info.size) });
  }
  if (request.method === 'HEAD' || info.size === 0) {
    response.end();
    return;
  }
  createReadStream(file, { start, end }).pipe(response);
}

function runTool(command: string, args: string[], stdinText: string): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolveRun()
        : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim().slice(-500)}`)),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(stdinText);
  });
}

/** Mean brightness and contrast (0-255 luma) of a picture file, decoded by ffmpeg at 64x36. */
export async function pictureLooks(
  file: string,
): Promise<{ brightness: number; contrast: number }> {
  const stream = spawnFfmpegStream([
    '-i',
    file,
    '-vf',
    'scale=64:36,format=gray',
    '-f',
    'rawvideo',
    'pipe:1',
  ]);
  const frames: Buffer[] = [];
  for await (const frame of readRawFrames(stream.stdout, 64 * 36)) frames.push(Buffer.from(frame));
  await stream.done;
  if (!frames[0]) throw new Error(`no picture in ${file}`);
  return scoreGreyFrame(frames[0]);
}
