/**
 * The one place that runs ffmpeg and ffprobe (style.md: threads, niceness, working folder, timeout,
 * progress parsing and the stderr tail for error messages are set here, nowhere else).
 *
 * Progress is read from an extra file descriptor (`-progress pipe:3`) so stdout stays free for
 * callers that stream frames or encoded media out of ffmpeg.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Readable, type Writable } from 'node:stream';
import { MediaError, type MediaErrorCode } from '../errors/index.js';
import { ffmpegRunDefaults } from '../tools/index.js';
import { runProcess, startProcess, toolPath, type ProcessExit } from '@moments/process';

export interface FfmpegOptions {
  /** Working folder of the process (two-pass logs and other stray files land here). */
  cwd?: string;
  /** Kill ffmpeg after this long. Default: as configured (`configureMediaTools`), else 3 hours. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Length of the output in ms, for progress fractions. Default: the first input's duration. */
  durationMs?: number;
  /** Called with a fraction in [0, 1], at most a few times per second, and with 1 on success. */
  onProgress?: (fraction: number) => void;
  /** Encoder/filter threads. Default: as configured (`configureMediaTools`), else the number of cores. */
  threads?: number;
  /** `nice` level (0 = none). Default: as configured (`configureMediaTools`), else 10, so the web server stays responsive. */
  niceness?: number;
  /** Data for ffmpeg's stdin (use `pipe:0` as an input). Without it ffmpeg runs with `-nostdin`. */
  stdin?: Buffer | string | Readable;
}

export interface FfmpegStreamOptions extends Omit<FfmpegOptions, 'stdin'> {
  /** Keep stdin open as a writable stream (e.g. to feed raw frames into an encoder). */
  writableStdin?: boolean;
}

export interface FfmpegStream {
  /** ffmpeg's stdout (use `pipe:1` as the output). */
  stdout: Readable;
  /** ffmpeg's stdin when `writableStdin` was set. */
  stdin: Writable | null;
  /**
   * Settles when ffmpeg exits: resolves on exit 0 or after `stop()`, rejects with FFmpegError.
   * It may be awaited late (after stdout is read): a rejection before then is not unhandled.
   */
  done: Promise<void>;
  /** End ffmpeg on purpose (e.g. enough frames read); `done` then resolves. */
  stop(): void;
  /** Last lines ffmpeg wrote to stderr. */
  stderrTail(): string;
}

/** Error from ffmpeg/ffprobe with the exit code and the end of stderr for diagnosis. */
export class FFmpegError extends MediaError {
  override name = 'FFmpegError';
  readonly exitCode: number | null;
  readonly stderrTail: string;

  constructor(
    code: MediaErrorCode,
    message: string,
    exitCode: number | null,
    stderrTail: string,
    cause?: unknown,
  ) {
    super(code, message, { cause, details: { exitCode, stderrTail } });
    this.exitCode = exitCode;
    this.stderrTail = stderrTail;
  }
}

/** ffmpeg binary: as configured (`configureMediaTools`), else `ffmpeg` on the PATH. */
export function ffmpegPath(): string {
  return toolPath('ffmpeg');
}

/** ffprobe binary: as configured (`configureMediaTools`), else `ffprobe` on the PATH. */
export function ffprobePath(): string {
  return toolPath('ffprobe');
}

const DEFAULT_TIMEOUT_MS = 3 * 60 * 60 * 1000;
const STDERR_TAIL_BYTES = 8192;
const PROGRESS_INTERVAL_MS = 250;

/** Run ffmpeg to completion. `args` are ffmpeg's own arguments (inputs, filters, output). */
export async function runFfmpeg(args: string[], opts: FfmpegOptions = {}): Promise<void> {
  const { child, done } = startFfmpeg(args, opts, opts.stdin === undefined ? 'none' : 'data');
  if (opts.stdin !== undefined) feedStdin(child, opts.stdin);
  child.stdout?.resume(); // nothing expected there, but never let a full pipe block ffmpeg
  await done;
}

/** Start ffmpeg with stdout as a stream, e.g. `-f rawvideo -pix_fmt rgb24 pipe:1` for frames. */
export function spawnFfmpegStream(args: string[], opts: FfmpegStreamOptions = {}): FfmpegStream {
  const started = startFfmpeg(args, opts, opts.writableStdin ? 'stream' : 'none');
  return {
    stdout: started.child.stdout as Readable,
    stdin: opts.writableStdin ? (started.child.stdin as Writable) : null,
    done: started.done,
    stop: started.stop,
    stderrTail: started.stderrTail,
  };
}

/**
 * Cut a byte stream into frames of `frameBytes` (width * height * 3 for rgb24). A short last
 * chunk is dropped: ffmpeg only writes whole frames, so it means the stream was cut off.
 */
export async function* readRawFrames(stream: Readable, frameBytes: number): AsyncGenerator<Buffer> {
  if (!Number.isInteger(frameBytes) || frameBytes <= 0) throw new RangeError('frameBytes > 0');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes < frameBytes) continue;
    let joined = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    while (joined.length >= frameBytes) {
      yield joined.subarray(0, frameBytes);
      joined = joined.subarray(frameBytes);
    }
    pending = joined.length > 0 ? [joined] : [];
    pendingBytes = joined.length;
  }
}

export interface FfprobeOptions {
  /** Kill ffprobe after this long. Default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Run ffprobe and return its stdout (e.g. with `-of json`). */
export async function runFfprobe(args: string[], opts: FfprobeOptions = {}): Promise<string> {
  const { stdout, ...exit } = await runProcess(ffprobePath(), ['-hide_banner', ...args], {
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    stderrTailBytes: STDERR_TAIL_BYTES,
  });
  assertFfprobeSucceeded(exit);
  return stdout.toString('utf8');
}

/**
 * Run ffprobe and hand each line of its stdout to `onLine` as it comes, keeping none: for output
 * that grows with the file (a line per packet of a long video).
 */
export async function runFfprobeLines(
  args: string[],
  onLine: (line: string) => void,
  opts: FfprobeOptions = {},
): Promise<void> {
  const started = startProcess(ffprobePath(), ['-hide_banner', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    stderrTailBytes: STDERR_TAIL_BYTES,
  });
  let partial = '';
  started.child.stdout?.setEncoding('utf8');
  started.child.stdout?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  const exit = await started.exited;
  if (partial) onLine(partial);
  assertFfprobeSucceeded(exit);
}

function assertFfprobeSucceeded({ exitCode, stopReason, spawnError, stderrTail }: ProcessExit) {
  if (spawnError) throw toolMissing('ffprobe', ffprobePath(), spawnError);
  if (stopReason && stopReason !== 'stopped') {
    throw stoppedError('ffprobe', stopReason, exitCode, stderrTail);
  }
  if (exitCode !== 0) {
    throw new FFmpegError(
      'FFPROBE_FAILED',
      `ffprobe failed (exit ${exitCode}): ${lastMeaningfulLine(stderrTail)}`,
      exitCode,
      stderrTail,
    );
  }
}

// ---------------------------------------------------------------------------------------------

type StdinMode = 'none' | 'data' | 'stream';

interface StartedFfmpeg {
  child: ChildProcess;
  done: Promise<void>;
  stop(): void;
  stderrTail(): string;
}

function startFfmpeg(args: string[], opts: FfmpegOptions, stdinMode: StdinMode): StartedFfmpeg {
  const threads = opts.threads ?? ffmpegRunDefaults().threads ?? availableParallelism();
  const niceness = opts.niceness ?? ffmpegRunDefaults().niceness ?? 10;
  const fullArgs = [
    '-hide_banner',
    '-nostats',
    '-y',
    ...(stdinMode === 'none' ? ['-nostdin'] : []),
    '-progress',
    'pipe:3',
    ...(args.includes('-filter_threads') ? [] : ['-filter_threads', String(threads)]),
    ...withOutputThreads(args, threads),
  ];
  const binary = ffmpegPath();
  const useNice = niceness > 0 && niceBinary() !== undefined;
  const command = useNice ? niceBinary()! : binary;
  const commandArgs = useNice ? ['-n', String(niceness), binary, ...fullArgs] : fullArgs;

  const started = startProcess(command, commandArgs, {
    cwd: opts.cwd,
    stdio: [stdinMode === 'none' ? 'ignore' : 'pipe', 'pipe', 'pipe', 'pipe'],
    timeoutMs: opts.timeoutMs ?? ffmpegRunDefaults().timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal: opts.signal,
    stderrTailBytes: STDERR_TAIL_BYTES,
    toolName: binary.split('/').pop(),
  });
  const child = started.child;
  const tail = { text: () => started.stderrTail() };
  let inputDurationMs: number | undefined;
  child.stderr?.on('data', () => {
    // Without an explicit duration, take the first input's "Duration: 00:01:02.50" line.
    if (opts.durationMs === undefined && inputDurationMs === undefined) {
      const match = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(tail.text());
      if (match) inputDurationMs = (+match[1]! * 3600 + +match[2]! * 60 + +match[3]!) * 1000;
    }
  });

  if (opts.onProgress) {
    const onProgress = opts.onProgress;
    let lastReport = 0;
    const progressStream = child.stdio[3] as Readable | undefined;
    let partial = '';
    progressStream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        const totalMs = opts.durationMs ?? inputDurationMs;
        if (!match || !totalMs || totalMs <= 0) continue;
        const now = Date.now();
        if (now - lastReport < PROGRESS_INTERVAL_MS) continue;
        lastReport = now;
        safeCall(onProgress, Math.min(1, Math.max(0, Number(match[1]) / 1000 / totalMs)));
      }
    });
  } else {
    (child.stdio[3] as Readable | undefined)?.resume();
  }

  const done = started.exited.then(({ exitCode, stopReason, spawnError }) => {
    if (spawnError) throw toolMissing('ffmpeg', binary, spawnError);
    // Through nice, a missing or unusable ffmpeg is no spawn error but nice's exit 127 or 126.
    if (useNice && (exitCode === 126 || exitCode === 127)) {
      throw toolMissing('ffmpeg', binary, new Error(lastMeaningfulLine(tail.text())));
    }
    if (stopReason === 'stopped') return;
    if (stopReason) throw stoppedError('ffmpeg', stopReason, exitCode, tail.text());
    if (exitCode !== 0) {
      throw new FFmpegError(
        'FFMPEG_FAILED',
        `ffmpeg failed (exit ${exitCode}): ${lastMeaningfulLine(tail.text())}`,
        exitCode,
        tail.text(),
      );
    }
    if (opts.onProgress) safeCall(opts.onProgress, 1);
  });
  // Stream callers read stdout first and await `done` after; ffmpeg may die (cancelled, timed
  // out) while they still work on a frame. The rejection stays theirs to see when they await it,
  // but must never count as unhandled in between: that exits the whole server.
  done.catch(() => undefined);
  return { child, done, stop: started.stop, stderrTail: started.stderrTail };
}

/** Put `-threads N` just before the last output unless the caller chose threads already. */
function withOutputThreads(args: string[], threads: number): string[] {
  if (args.includes('-threads') || args.length === 0) return args;
  return [...args.slice(0, -1), '-threads', String(threads), args[args.length - 1]!];
}

function feedStdin(child: ChildProcess, stdin: Buffer | string | Readable): void {
  const sink = child.stdin;
  if (!sink) return;
  // ffmpeg may exit before reading everything (e.g. `-t`); that is not our error to report.
  sink.on('error', () => {});
  if (stdin instanceof Readable) stdin.pipe(sink);
  else sink.end(stdin);
}

function stoppedError(
  tool: string,
  reason: 'timeout' | 'aborted',
  exitCode: number | null,
  stderr: string,
): FFmpegError {
  return reason === 'timeout'
    ? new FFmpegError('TIMEOUT', `${tool} took too long and was stopped`, exitCode, stderr)
    : new FFmpegError('ABORTED', `${tool} was cancelled`, exitCode, stderr);
}

function toolMissing(tool: string, path: string, cause: Error): FFmpegError {
  return new FFmpegError(
    'TOOL_MISSING',
    `${tool} could not be started (${path}): ${cause.message}`,
    null,
    '',
    cause,
  );
}

/** The last stderr line that says something (ffmpeg ends with the real reason most of the time). */
function lastMeaningfulLine(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('frame=') && !/^Conversion failed!?$/.test(line));
  return lines[lines.length - 1] ?? 'no error output';
}

let niceCache: string | null | undefined;
function niceBinary(): string | undefined {
  if (niceCache === undefined) {
    niceCache = ['/usr/bin/nice', '/bin/nice'].find((path) => existsSync(path)) ?? null;
  }
  return niceCache ?? undefined;
}

function safeCall(callback: (fraction: number) => void, fraction: number): void {
  try {
    callback(fraction);
  } catch {
    // a progress listener must not break the encode
  }
}

/**
 * Whether this ffmpeg can encode H.264 on an NVIDIA GPU: h264_nvenc must be built in AND open a
 * device, so a one-frame test encode decides. The reason says what is missing, for a refusal.
 */
export async function nvencAvailability(): Promise<
  { available: true } | { available: false; reason: string }
> {
  try {
    await runFfmpeg(
      [
        ...['-f', 'lavfi', '-i', 'color=c=black:s=256x256:d=0.1'],
        ...['-frames:v', '1', '-c:v', 'h264_nvenc', '-f', 'null', '-'],
      ],
      { timeoutMs: 30_000 },
    );
    return { available: true };
  } catch (error) {
    const detail =
      error instanceof FFmpegError ? error.message.split('\n').slice(-2).join(' ') : String(error);
    return {
      available: false,
      reason:
        'VIDEO_ENCODER=nvenc, but ffmpeg cannot encode with h264_nvenc here (needs an NVIDIA GPU, ' +
        `its driver and an ffmpeg built with NVENC); unset VIDEO_ENCODER to encode with x264. ffmpeg said: ${detail}`,
    };
  }
}
