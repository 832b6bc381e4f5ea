/**
 * The long-lived faster-whisper process: one Python process per slot keeps its
 * models loaded and answers JSON lines (whisper-server.py beside this file), so a task or a chunk
 * pays for imports and model loading once per process, not once per run (1.5-3 s each before).
 *
 * It runs under the shared process runner (its own process group, recorded for the orphan sweep,
 * stopped with this process). A process that dies is started again by the next request; one that
 * grows past `maxRssMb`, or by more than `maxGrowthMb` over its size after its first
 * transcription, or sits idle for `idleMs` is stopped, so its memory is bounded and given back.
 * A request that is aborted or times out stops the process (Python cannot be interrupted
 * mid-decode); the next request starts a fresh one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startProcess, type RunningProcess } from '@moments/process';
import { SpeechRecognitionError } from './types';

export const WHISPER_SERVER_SCRIPT = fileURLToPath(new URL('./whisper-server.py', import.meta.url));

export interface WhisperServerOptions {
  /** The Python of .tools/venv (faster-whisper installed there). */
  pythonPath: string;
  device: 'cpu' | 'cuda';
  computeType: string;
  /** CPU threads of this process's decoder. */
  threads: number;
  /** Models kept loaded at once (base for detection plus the English model). */
  maxModels?: number;
  /** Stop the process after a request that left it larger than this (MB resident). */
  maxRssMb?: number;
  /**
   * Stop the process after a request that left it this much larger (MB) than it was after its
   * first transcription: whatever the model's size, a process that keeps growing over a long
   * input is started afresh (an hour's chunks took base from about 390 to 540 MB each).
   */
  maxGrowthMb?: number;
  /** Stop the process after this long without a request. */
  idleMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface WhisperRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Seconds of audio decoded so far (transcriptions report it per segment). */
  onProgress?: (seconds: number) => void;
}

interface Pending {
  id: number;
  /** The process the request was written to (an older one may still be exiting). */
  process: RunningProcess;
  resolve: (value: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  onProgress?: (seconds: number) => void;
}

const DEFAULT_MAX_RSS_MB = 1500;
const DEFAULT_MAX_GROWTH_MB = 120;
const DEFAULT_IDLE_MS = 10 * 60_000;

/** One Python process, one request at a time (the pool below hands out idle ones). */
export class WhisperServer {
  private process: RunningProcess | undefined;
  private pending: Pending | undefined;
  private nextId = 1;
  private buffered = '';
  private idleTimer: NodeJS.Timeout | undefined;
  /** How many processes this slot has started (a restart after a death shows here). */
  starts = 0;
  /** Resident MB of the running process after its first transcription (the growth's base). */
  private settledMb: number | undefined;

  constructor(private readonly options: WhisperServerOptions) {}

  get pid(): number | undefined {
    return this.process?.child.pid;
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  async request<T extends Record<string, unknown>>(
    body: Record<string, unknown>,
    opts: WhisperRequestOptions = {},
  ): Promise<T> {
    if (this.pending) throw new Error('WhisperServer: one request at a time');
    opts.signal?.throwIfAborted();
    clearTimeout(this.idleTimer);
    const running = this.ensureStarted();
    const id = this.nextId++;
    const stopOnAbort = () => this.stop();
    opts.signal?.addEventListener('abort', stopOnAbort, { once: true });
    let timedOut = false;
    const timer =
      opts.timeoutMs !== undefined
        ? setTimeout(() => {
            timedOut = true;
            this.stop();
          }, opts.timeoutMs)
        : undefined;
    this.setReferenced(running, true);
    try {
      const reply = await new Promise<Record<string, unknown>>((resolve, reject) => {
        this.pending = { id, process: running, resolve, reject, onProgress: opts.onProgress };
        running.child.stdin?.write(`${JSON.stringify({ ...body, id })}\n`);
      });
      return reply as T;
    } catch (error) {
      if (opts.signal?.aborted) {
        throw new SpeechRecognitionError('transcription aborted', 'aborted', {
          cause: opts.signal.reason,
        });
      }
      if (timedOut) {
        throw new SpeechRecognitionError(
          `transcription took longer than ${opts.timeoutMs} ms`,
          'timeout',
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', stopOnAbort);
      this.pending = undefined;
      if (this.process === running) {
        this.setReferenced(running, false);
        this.afterRequest(running, body.op === 'transcribe');
      }
    }
  }

  /** Stops the process now (a pending request fails); the next request starts a new one. */
  stop(): void {
    clearTimeout(this.idleTimer);
    const running = this.process;
    this.process = undefined;
    this.settledMb = undefined;
    running?.stop();
  }

  private ensureStarted(): RunningProcess {
    if (this.process) return this.process;
    const { pythonPath, device, computeType, threads, maxModels = 2 } = this.options;
    const running = startProcess(
      pythonPath,
      [
        '-u',
        WHISPER_SERVER_SCRIPT,
        '--device',
        device,
        '--compute-type',
        computeType,
        '--threads',
        String(threads),
        '--max-models',
        String(maxModels),
      ],
      {
        env: { ...process.env, ...this.options.env, HF_HUB_OFFLINE: '1', PYTHONUNBUFFERED: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
        stderrTailBytes: 4000,
        toolName: 'python',
      },
    );
    this.process = running;
    this.starts += 1;
    this.buffered = '';
    running.child.stdout?.setEncoding('utf8');
    running.child.stdout?.on('data', (chunk: string) => this.onOutput(chunk));
    // A write to a process that just died must fail its request, not crash this one.
    running.child.stdin?.on('error', () => undefined);
    void running.exited.then((exit) => {
      if (this.process === running) {
        this.process = undefined;
        this.settledMb = undefined;
      }
      const pending = this.pending;
      if (pending?.process !== running) return;
      this.pending = undefined;
      pending.reject(processEnded(this.options.pythonPath, exit));
    });
    this.setReferenced(running, false);
    return running;
  }

  private onOutput(chunk: string): void {
    this.buffered += chunk;
    const lines = this.buffered.split('\n');
    this.buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue; // not ours (a library printing to stdout): the protocol lines are JSON
      }
      const pending = this.pending;
      if (!pending || message.id !== pending.id) continue;
      if (typeof message.progress === 'number') {
        pending.onProgress?.(message.progress);
      } else if (message.ok === true) {
        pending.resolve(message);
      } else {
        pending.reject(
          new SpeechRecognitionError(
            `faster-whisper failed: ${String(message.error ?? 'unknown error')}`,
            'engine_failed',
          ),
        );
      }
    }
  }

  /** Bounded memory: a process that grew too large is stopped; an idle one after a while. */
  private afterRequest(running: RunningProcess, transcribed: boolean): void {
    const rssMb = residentMb(running.child.pid);
    if (rssMb !== undefined && transcribed) this.settledMb ??= rssMb;
    const grown =
      rssMb !== undefined &&
      this.settledMb !== undefined &&
      rssMb - this.settledMb > (this.options.maxGrowthMb ?? DEFAULT_MAX_GROWTH_MB);
    if (grown || (rssMb !== undefined && rssMb > (this.options.maxRssMb ?? DEFAULT_MAX_RSS_MB))) {
      this.stop();
      return;
    }
    this.idleTimer = setTimeout(() => this.stop(), this.options.idleMs ?? DEFAULT_IDLE_MS);
    this.idleTimer.unref();
  }

  /** An idle process must not keep Node alive (a CLI or a test ends without closing it). */
  private setReferenced(running: RunningProcess, referenced: boolean): void {
    const { child } = running;
    for (const stream of [child.stdin, child.stdout, child.stderr]) {
      const handle = stream as unknown as { ref?: () => void; unref?: () => void } | null;
      if (referenced) handle?.ref?.();
      else handle?.unref?.();
    }
    if (referenced) child.ref();
    else child.unref();
  }
}

/**
 * A fixed number of WhisperServer slots: a request waits for an idle one. Slots start their
 * process on first use, so an unused slot costs nothing.
 */
export class WhisperServerPool {
  readonly servers: WhisperServer[];
  private readonly waiting: ((server: WhisperServer) => void)[] = [];
  private readonly idle: WhisperServer[];

  constructor(size: number, options: WhisperServerOptions) {
    this.servers = Array.from({ length: Math.max(1, size) }, () => new WhisperServer(options));
    this.idle = [...this.servers];
  }

  async use<T>(work: (server: WhisperServer) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const server = await this.acquire(signal);
    try {
      return await work(server);
    } finally {
      const next = this.waiting.shift();
      if (next) next(server);
      else this.idle.push(server);
    }
  }

  close(): void {
    for (const server of this.servers) server.stop();
  }

  /** Stops the processes no request is using; a later request starts its slot's again. */
  releaseIdle(): void {
    for (const server of this.idle) server.stop();
  }

  private acquire(signal?: AbortSignal): Promise<WhisperServer> {
    const server = this.idle.pop();
    if (server) return Promise.resolve(server);
    return new Promise((resolve, reject) => {
      const take = (given: WhisperServer) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(given);
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(new SpeechRecognitionError('transcription aborted', 'aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }
}

function processEnded(
  pythonPath: string,
  exit: Awaited<RunningProcess['exited']>,
): SpeechRecognitionError {
  if (exit.spawnError) {
    const code = (exit.spawnError as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'EACCES'
      ? new SpeechRecognitionError(
          `the faster-whisper Python was not found at ${pythonPath}: run bash scripts/setup.sh`,
          'engine_missing',
          { cause: exit.spawnError },
        )
      : new SpeechRecognitionError(
          `faster-whisper failed to start: ${exit.spawnError.message}`,
          'engine_failed',
          {
            cause: exit.spawnError,
          },
        );
  }
  const tail = exit.stderrTail.trim().split('\n').slice(-5).join('\n');
  return new SpeechRecognitionError(
    `the faster-whisper process ended (exit ${exit.exitCode ?? 'by signal'})${tail ? `: ${tail}` : ''}`,
    'engine_failed',
  );
}

/** Resident memory of a process in MB (Linux /proc); undefined elsewhere. */
function residentMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined; // not Linux, or the process is gone: nothing to bound
  }
}
