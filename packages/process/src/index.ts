/**
 * The one way Moments starts an external tool (ffmpeg, ffprobe, yt-dlp, faster-whisper).
 * Each tool runs in its own process group, so a timeout, a cancel or this process's own
 * exit stops the tool and every child it started (yt-dlp's ffmpeg, whisper's workers), not just
 * the first process. A timeout and an AbortSignal stop it (SIGTERM to the group, SIGKILL after a
 * grace period), and the tail of stderr is kept for the error message.
 *
 * A kill -9 of this process leaves no exit handler to run, so each live group is also recorded
 * as a small file in a folder the server names (`recordProcessesIn`); the next start calls
 * `stopOrphanedProcesses` on that folder and stops the groups whose owner is gone.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Default: stdin ignored, stdout and stderr piped. stderr must stay piped (the tail). */
  stdio?: StdioOptions;
  /** Stop the tool after this long (no limit when absent). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL when stopping for a timeout or an abort. Default 2 s. */
  killGraceMs?: number;
  /** How much of the end of stderr to keep. Default 8 KiB. */
  stderrTailBytes?: number;
  /** The tool's own name when `command` is a wrapper such as `nice` (for the orphan record). */
  toolName?: string;
}

export interface ProcessExit {
  exitCode: number | null;
  /** Why we stopped it, when we did: a timeout, the caller's AbortSignal, or `stop()`. */
  stopReason?: 'timeout' | 'aborted' | 'stopped';
  /** Set when the binary could not be started at all (missing, not executable). */
  spawnError?: Error;
  stderrTail: string;
}

export interface RunningProcess {
  child: ChildProcess;
  /** Settles (never rejects) when the process has exited and its pipes are closed. */
  exited: Promise<ProcessExit>;
  /** Stop the whole group at once, on purpose (e.g. enough frames read). */
  stop(): void;
  stderrTail(): string;
}

const DEFAULT_TAIL_BYTES = 8192;
const DEFAULT_KILL_GRACE_MS = 2000;

/** Process groups this process started and that have not exited yet. */
const liveGroups = new Set<number>();
let recordDir: string | undefined;
let exitHookInstalled = false;

/** Start `command` with an argument array (never a shell string) in a process group of its own. */
export function startProcess(
  command: string,
  args: readonly string[],
  opts: ProcessOptions = {},
): RunningProcess {
  installExitHook();
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: opts.stdio ?? ['ignore', 'pipe', 'pipe'],
    // Its own process group: killing -pid reaches the tool's children too.
    detached: true,
  });
  const group = child.pid;
  if (group !== undefined) trackGroup(group, opts.toolName ?? command);

  const tail = new TailBuffer(opts.stderrTailBytes ?? DEFAULT_TAIL_BYTES);
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));

  let stopReason: ProcessExit['stopReason'];
  let killTimer: NodeJS.Timeout | undefined;
  const stopGently = (why: 'timeout' | 'aborted') => {
    if (stopReason) return;
    stopReason = why;
    signalGroup(child, 'SIGTERM');
    // ffmpeg finishes its file on SIGTERM; a tool that ignores it gets no second chance.
    killTimer = setTimeout(
      () => signalGroup(child, 'SIGKILL'),
      opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    );
    killTimer.unref();
  };
  const timer =
    opts.timeoutMs !== undefined ? setTimeout(() => stopGently('timeout'), opts.timeoutMs) : null;
  const onAbort = () => stopGently('aborted');
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });

  const exited = new Promise<ProcessExit>((resolve) => {
    let spawnError: Error | undefined;
    child.on('error', (error) => {
      spawnError = error;
    });
    // The leader is gone: children it left behind in the group go with it (they would also hold
    // its pipes open, and 'close' would never come).
    child.on('exit', () => signalGroup(child, 'SIGKILL'));
    child.on('close', (exitCode) => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (group !== undefined) untrackGroup(group);
      resolve({ exitCode, stopReason, spawnError, stderrTail: tail.text() });
    });
  });

  return {
    child,
    exited,
    stop() {
      stopReason ??= 'stopped';
      signalGroup(child, 'SIGKILL');
    },
    stderrTail: () => tail.text(),
  };
}

/** Run a tool to the end, collecting stdout. */
export async function runProcess(
  command: string,
  args: readonly string[],
  opts: Omit<ProcessOptions, 'stdio'> = {},
): Promise<ProcessExit & { stdout: Buffer }> {
  const started = startProcess(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  started.child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  const exit = await started.exited;
  return { ...exit, stdout: Buffer.concat(out) };
}

/**
 * Record live process groups as files in `dir` from now on (the server passes DATA_DIR/tmp/procs),
 * so that a later start can stop what a kill -9 of this process left running.
 */
export function recordProcessesIn(dir: string): void {
  mkdirSync(dir, { recursive: true });
  recordDir = dir;
}

/**
 * Stops the process groups recorded in `dir` whose owning process is no longer alive, checking
 * that the pid still runs the recorded command (a reused pid is left alone). Returns the groups
 * stopped. Called once at start, before any tool runs.
 */
export function stopOrphanedProcesses(dir: string): number[] {
  const stopped: number[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // No pid folder yet: nothing was left running.
    return stopped;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = path.join(dir, name);
    let record: { pid: number; owner: number; command: string };
    try {
      record = JSON.parse(readFileSync(file, 'utf8')) as typeof record;
    } catch {
      rmSync(file, { force: true });
      continue;
    }
    if (isAlive(record.owner) && record.owner !== process.pid) continue;
    if (isAlive(record.pid) && runsCommand(record.pid, record.command)) {
      try {
        process.kill(-record.pid, 'SIGKILL');
        stopped.push(record.pid);
      } catch {
        // already gone
      }
    }
    rmSync(file, { force: true });
  }
  return stopped;
}

function trackGroup(group: number, command: string): void {
  liveGroups.add(group);
  if (!recordDir) return;
  try {
    writeFileSync(
      path.join(recordDir, `${group}.json`),
      JSON.stringify({ pid: group, owner: process.pid, command: path.basename(command) }),
    );
  } catch {
    // Recording is a safety net for kill -9; a full disk must not stop the tool itself.
  }
}

function untrackGroup(group: number): void {
  liveGroups.delete(group);
  if (recordDir) rmSync(path.join(recordDir, `${group}.json`), { force: true });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is empty already.
  }
}

/** On any orderly exit (process.exit, the end of the event loop) no tool outlives us. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone
      }
      if (recordDir) rmSync(path.join(recordDir, `${group}.json`), { force: true });
    }
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether /proc says `pid` runs `command` (Linux); elsewhere, trust the record. */
function runsCommand(pid: number, command: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv.some((arg) => path.basename(arg) === command);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT' || process.platform !== 'linux';
  }
}

/** Keeps the last `limit` bytes written to it. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= this.limit)
      this.size -= this.chunks.shift()!.length;
  }
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }
}

/** The ffmpeg and ffprobe binaries every package runs. */
export interface ToolPaths {
  /** Default: `ffmpeg` on the PATH. */
  ffmpeg: string;
  /** Default: `ffprobe` on the PATH. */
  ffprobe: string;
}

const DEFAULT_TOOL_PATHS: ToolPaths = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' };
let toolPaths: ToolPaths = { ...DEFAULT_TOOL_PATHS };

/**
 * Set the binaries once at start (the server's composition root does, from its validated config).
 * A tool left out, or given as an empty string, goes back to its default, so a second call
 * describes the whole setting rather than adding to the first.
 */
export function configureToolPaths(paths: Partial<ToolPaths> = {}): void {
  toolPaths = {
    ffmpeg: paths.ffmpeg || DEFAULT_TOOL_PATHS.ffmpeg,
    ffprobe: paths.ffprobe || DEFAULT_TOOL_PATHS.ffprobe,
  };
}

/** The binary to run for this tool. */
export function toolPath(tool: keyof ToolPaths): string {
  return toolPaths[tool];
}
