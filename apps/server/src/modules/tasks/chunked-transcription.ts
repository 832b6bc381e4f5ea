import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { ERROR_CODES } from '@moments/contract';
import {
  chunkPlanFor,
  mergeChunkTranscripts,
  planChunks,
  type ChunkSpan,
  type SpeechEngine,
  type Transcript,
} from '@moments/ai/asr';
import { AppError } from '../../http/errors.js';
import type { JobQueue } from '../../queue/queue.js';
import { Heartbeat, staleBefore } from '../../queue/lease.js';
import { silentLogger, type Logger } from '../../logging.js';
import type { MediaRepository } from '../media/media.repository.js';
import type { Storage } from '../../storage/index.js';
import type { AsrChunkRow, AsrChunksRepository } from './asr-chunks.repository.js';

export interface ChunkedTranscriptionOptions {
  media: MediaRepository;
  chunks: AsrChunksRepository;
  storage: Storage;
  queue: JobQueue;
  speech: SpeechEngine;
  workRoot: string;
  /** The chunk length aimed at; cuts move up to a quarter of it to sit in a silence. */
  chunkMs: number;
  /**
   * Shorter inputs are still cut into at least this many chunks of this length or more, so every
   * Whisper process of the worker has one (a 150 s talk on two processes: two chunks).
   */
  minChunkMs?: number;
  /** A chunk whose worker has been silent this long is queued again (once). */
  leaseMs: number;
  heartbeatMs: number;
  /** How often the task's run looks at its chunks (chunks done in this process wake it at once). */
  pollMs: number;
  log?: Logger;
}

/** What the task's run is told each time the transcript grows by the next chunk in order. */
export interface TranscriptGrowth {
  /** Everything heard so far, from the start, on the whole file's clock. */
  transcript: Transcript;
  /** The part this chunk added. */
  added: Transcript['segments'];
  transcribedMs: number;
  chunksDone: number;
  chunkCount: number;
}

export interface ChunkedTranscribeOptions {
  language?: string;
  signal: AbortSignal;
  onProgress?: (fraction: number) => void;
  onGrowth?: (growth: TranscriptGrowth) => Promise<void>;
  /** The run's own folder for chunk files. */
  workDir: string;
}

/** Transcriptions at least this long give back the idle Whisper processes when they end. */
const RELEASE_WHISPER_AFTER_MS = 20 * 60_000;

/** A chunk may be taken twice: its first worker may die, the second must finish it. */
const MAX_CHUNK_ATTEMPTS = 2;

/** Chunks finished in this process wake their task's run without waiting for its next look. */
const chunkEvents = new EventEmitter();
chunkEvents.setMaxListeners(0);

/**
 * A task's audio cut at silences into chunks of a few minutes, each an
 * `asr-chunk` job any worker may take, merged back in order. The task's run (`transcribe`)
 * plans, detects the language once, queues the chunks, watches them (a dead worker's chunk is
 * queued again, once) and reports the transcript as it grows; `runChunk` is the job.
 */
export class ChunkedTranscription {
  private readonly log: Logger;

  constructor(private readonly options: ChunkedTranscriptionOptions) {
    this.log = (options.log ?? silentLogger).child({ component: 'asr-chunks' });
  }

  async transcribe(
    task: { id: string; userId: string },
    wav: string,
    opts: ChunkedTranscribeOptions,
  ): Promise<Transcript> {
    const { signal } = opts;
    const steps = stepTimes();
    const language = opts.language ?? null;
    const loudness = await this.options.media.audioLoudness(wav, { signal });
    steps.mark('loudnessMs');
    const durationMs = loudness.length * 10;
    const spans = planChunks(
      loudness,
      durationMs,
      chunkPlanFor(durationMs, {
        chunkMs: this.options.chunkMs,
        minChunkMs: this.options.minChunkMs,
        parallelism: this.parallelism,
      }),
    );
    if (spans.length === 1) {
      // One chunk: no queue, no copies; this worker hears it (and detects its language).
      return this.options.speech.transcribe(wav, {
        language: language ?? undefined,
        signal,
        onProgress: opts.onProgress,
        workDir: opts.workDir,
      });
    }
    // No language given: where every Whisper process hears one chunk, each detects its chunk's
    // language as it starts (about 0.7 s inside the chunk, nothing waits; a detection up front
    // held every chunk back by about 1 s). With more chunks than processes, one detection, on
    // the first speech, while the chunks are cut: later chunks would each pay for their own.
    const detectAhead = !language && spans.length > this.parallelism;
    const detecting = detectAhead
      ? this.options.speech.detectLanguage?.(wav, { signal })
      : Promise.resolve(language);
    // Awaited below; a failure meanwhile (a chunk cut failing first) is not unhandled.
    detecting?.catch(() => undefined);
    const files = spans.map((_, idx) => path.join(opts.workDir, `chunk-${idx}.wav`));
    await this.options.media.extractAudioSpan(wav, files[0]!, spans[0]!, { signal });
    steps.mark('firstChunkMs');
    const fresh = !(await this.options.chunks.forTask(task.id)).length;
    const cutting = fresh ? this.cutChunks(wav, spans, files, signal) : Promise.resolve();
    const [detected] = await Promise.all([detecting, cutting]);
    steps.mark('detectMs');
    const told = detected ?? null;
    const rows = await this.prepare(task, wav, spans, files, told, signal);
    await this.requeue(task.id, rows, { firstRun: true });
    steps.mark('prepareMs');
    const { done, language: heardIn } = await this.watch(task.id, spans, rows, told, opts);
    steps.mark('chunksMs');
    const merged = mergeChunkTranscripts(
      spans.map((span, idx) => ({ span, transcript: done.get(idx)! })),
      heardIn,
      durationMs,
    );
    steps.mark('mergeMs');
    this.log.info({ taskId: task.id, chunks: spans.length, ...steps.times }, 'chunks merged');
    // After a long input the analysis of the whole talk is this process's largest moment: the
    // idle Whisper processes (0.4-0.5 GB each) make way. Restarting one costs 1-2 s, which a
    // short talk would feel and a long one does not.
    if (durationMs >= RELEASE_WHISPER_AFTER_MS) this.options.speech.releaseIdle?.();
    return merged;
  }

  /** A task is about to be heard: the model processes start meanwhile (no-op once they run). */
  warm(): void {
    this.options.speech.warm?.();
  }

  /** Whether this process's workers take the chunks (set as they start). */
  private hearsHere = false;

  /** This process's workers take the `asr-chunk` jobs: `warmAhead` warms its engine. */
  takesChunks(): void {
    this.hearsHere = true;
  }

  /**
   * A task probably follows (an upload began): where this process hears tasks, its engine starts
   * and loads its model while the bytes arrive (the model load took 1.5-2.5 s on 2 cores).
   */
  warmAhead(): void {
    if (this.hearsHere) this.warm();
  }

  /** Chunks one worker's Whisper processes take at once. */
  get parallelism(): number {
    return Math.max(1, this.options.speech.parallelism ?? 1);
  }

  /** After the transcript is saved: chunk audio and results go; the rows stay as the record. */
  async cleanUp(task: { id: string; userId: string }): Promise<void> {
    await this.options.storage.deletePrefix(chunkPrefix(task));
    await this.options.chunks.clearResults(task.id);
  }

  /** The `asr-chunk` job: transcribes one chunk if it is still queued. */
  /** `signal` aborts the chunk when the process closes; it is then redone like a dead worker's. */
  async runChunk(taskId: string, idx: number, signal?: AbortSignal): Promise<void> {
    const runToken = randomUUID();
    const row = await this.options.chunks.claim(
      taskId,
      idx,
      runToken,
      `${hostname()}:${process.pid}`,
    );
    if (!row) return; // taken by another worker, done, or the task is gone
    const log = this.log.child({ taskId, chunk: idx, attempt: row.attempts });
    const controller = new AbortController();
    // The process's closing signal lives as long as the worker: its listener goes with the chunk
    // (left there, every chunk ever transcribed kept one, with its controller, for good).
    const onClosing = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onClosing, { once: true });
    const heartbeat = new Heartbeat(
      () => this.options.chunks.update(taskId, idx, runToken, { heartbeatAt: new Date() }),
      this.options.heartbeatMs,
      {
        lost: () => controller.abort(new Error('chunk taken back')),
        failed: (err: unknown) => log.warn({ err }, 'chunk heart-beat failed'),
      },
    );
    let workDir: string | undefined;
    try {
      workDir = await fs.mkdtemp(path.join(this.options.workRoot, `chunk-${taskId}-${idx}-`));
      const steps = stepTimes();
      const file = await this.options.storage.localCopy(row.audioKey, workDir, {
        signal: controller.signal,
      });
      steps.mark('copyMs');
      const transcript = await this.options.speech.transcribe(file, {
        language: row.language ?? undefined,
        signal: controller.signal,
        workDir,
        timeoutMs: Math.max(600_000, (row.endMs - row.startMs) * 4),
      });
      steps.mark('transcribeMs');
      await this.options.chunks.update(taskId, idx, runToken, {
        status: 'DONE',
        result: transcript,
      });
      steps.mark('storeMs');
      log.info({ engine: transcript.engine, ...steps.times }, 'chunk transcribed');
    } catch (err) {
      if (controller.signal.aborted) {
        log.info('chunk taken back by its task before it finished');
        return;
      }
      log.warn({ err }, 'chunk transcription failed');
      const error = err instanceof Error ? err.message : String(err);
      await this.options.chunks
        .update(taskId, idx, runToken, { status: 'ERROR', error })
        .catch((updateErr: unknown) =>
          log.warn({ err: updateErr }, 'could not record the failure'),
        );
    } finally {
      heartbeat.stop();
      signal?.removeEventListener('abort', onClosing);
      chunkEvents.emit(taskId);
      if (workDir) await fs.rm(workDir, { recursive: true, force: true });
    }
  }

  /** Cuts chunks 1.. to their files, one after another (the first is cut already). */
  private async cutChunks(
    wav: string,
    spans: ChunkSpan[],
    files: string[],
    signal: AbortSignal,
  ): Promise<void> {
    for (let idx = 1; idx < spans.length; idx++) {
      await this.options.media.extractAudioSpan(wav, files[idx]!, spans[idx]!, { signal });
    }
  }

  /**
   * The task's chunk rows: those of an earlier run of the same audio are kept (a resumed task
   * keeps the chunks already heard); otherwise a new plan, each chunk's audio in storage.
   */
  private async prepare(
    task: { id: string; userId: string },
    wav: string,
    spans: ChunkSpan[],
    files: string[],
    language: string | null,
    signal: AbortSignal,
  ): Promise<AsrChunkRow[]> {
    const existing = await this.options.chunks.forTask(task.id);
    const reusable =
      existing.length === spans.length &&
      existing.every(
        (row, idx) =>
          row.startMs === spans[idx]!.startMs &&
          row.endMs === spans[idx]!.endMs &&
          // Chunks heard in the first chunk's language (no language given) are this plan's too.
          (language === null || row.language === language) &&
          (row.status !== 'DONE' || row.result),
      );
    const stored = reusable ? existing : [];
    const rows: Omit<AsrChunkRow, 'taskId'>[] = [];
    for (const [idx, span] of spans.entries()) {
      const kept = stored[idx];
      const audioKey = `${chunkPrefix(task)}chunk-${idx}.wav`;
      if (!kept || (kept.status !== 'DONE' && !(await this.options.storage.stat(audioKey)))) {
        const cut = await fs.stat(files[idx]!).then(
          () => true,
          () => false, // not cut yet (a resumed plan): cut now
        );
        if (!cut) await this.options.media.extractAudioSpan(wav, files[idx]!, span, { signal });
        await this.options.storage.putFile(audioKey, files[idx]!, { move: true });
      }
      rows.push(kept ?? { ...emptyRow(), idx, ...span, audioKey, language });
    }
    if (!reusable) await this.options.chunks.replace(task.id, rows);
    return this.options.chunks.forTask(task.id);
  }

  /**
   * Queues the chunks that need a worker: on the first look every chunk not done; later, those
   * that failed or whose worker went silent, each at most once more. Throws when a chunk failed
   * on its last attempt.
   */
  private async requeue(
    taskId: string,
    rows: AsrChunkRow[],
    { firstRun = false }: { firstRun?: boolean } = {},
  ): Promise<void> {
    const before = staleBefore(this.options.leaseMs);
    const dead = (row: AsrChunkRow) =>
      row.status === 'ERROR' ||
      (row.status === 'RUNNING' && (!row.heartbeatAt || row.heartbeatAt < before));
    const wanted = rows.filter((row) => (firstRun && row.status === 'QUEUED') || dead(row));
    const spent = wanted.find((row) => row.attempts >= MAX_CHUNK_ATTEMPTS);
    if (spent) {
      throw new AppError(
        ERROR_CODES.INTERNAL,
        500,
        `Transcribing part ${spent.idx + 1} of the audio failed twice${spent.error ? `: ${spent.error}` : ' (its worker stopped)'}.`,
      );
    }
    const requeued = await this.options.chunks.requeue(
      taskId,
      wanted.map((row) => row.idx),
      before,
    );
    for (const idx of requeued) {
      const row = rows.find((r) => r.idx === idx);
      if (row && row.attempts > 0) {
        this.log.warn(
          { taskId, chunk: idx, worker: row.worker, error: row.error },
          'chunk queued again',
        );
      }
      await this.options.queue.send('asr-chunk', { taskId, index: idx });
    }
  }

  /**
   * Waits for every chunk, reporting progress and each growth of the transcript in order. With
   * no language given, each chunk's worker detects its own (no pass before the chunks start);
   * the talk's language is the first chunk's (its first speech), and a chunk heard in another
   * one is heard again in it, so the transcript keeps one language as a detection up front did.
   */
  private async watch(
    taskId: string,
    spans: ChunkSpan[],
    initial: AsrChunkRow[],
    given: string | null,
    opts: ChunkedTranscribeOptions,
  ): Promise<{ done: Map<number, Transcript>; language: string }> {
    const durationMs = spans.at(-1)!.endMs;
    const done = new Map<number, Transcript>();
    let inOrder = 0;
    let rows = initial;
    for (;;) {
      for (const row of rows) {
        if (row.status === 'DONE' && row.result && !done.has(row.idx)) {
          done.set(row.idx, row.result as Transcript);
        }
      }
      const language = given ?? done.get(0)?.language;
      if (language && !given) {
        const strays = rows.filter(
          (row) => row.idx > 0 && done.has(row.idx) && done.get(row.idx)!.language !== language,
        );
        if (strays.length) {
          this.log.info(
            {
              taskId,
              language,
              chunks: strays.map((row) => ({ idx: row.idx, heard: done.get(row.idx)!.language })),
            },
            'chunks heard in another language than the first speech: heard again in it',
          );
          const again = await this.options.chunks.hearAgainIn(
            taskId,
            strays.map((row) => row.idx),
            language,
          );
          for (const idx of again) {
            done.delete(idx);
            await this.options.queue.send('asr-chunk', { taskId, index: idx });
          }
          rows = await this.options.chunks.forTask(taskId);
        }
      }
      const heardMs = [...done.keys()].reduce(
        (sum, idx) => sum + spans[idx]!.endMs - spans[idx]!.startMs,
        0,
      );
      opts.onProgress?.(Math.min(0.99, heardMs / durationMs));
      const before = inOrder;
      while (done.has(inOrder)) inOrder++;
      if (done.size === spans.length) {
        // The final ranking follows at once.
        return { done, language: language ?? 'und' };
      }
      if (inOrder > before && opts.onGrowth)
        await this.reportGrowth(spans, done, before, inOrder, opts);
      await this.requeue(taskId, rows);
      await waitForChunk(taskId, this.options.pollMs, opts.signal);
      rows = await this.options.chunks.forTask(taskId);
    }
  }

  private async reportGrowth(
    spans: ChunkSpan[],
    done: Map<number, Transcript>,
    from: number,
    to: number,
    opts: ChunkedTranscribeOptions,
  ): Promise<void> {
    try {
      await opts.onGrowth!(growthOf(spans, done, from, to));
    } catch (err) {
      // Early moments are a preview: the task goes on to its final ranking without them.
      this.log.warn({ err }, 'could not report the transcript so far');
    }
  }

  /**
   * The transcript heard so far (the chunks done from the start, in order), for a task page
   * opened while the task transcribes; undefined before the first chunk (or once merged).
   */
  async soFar(taskId: string): Promise<TranscriptGrowth | undefined> {
    const rows = await this.options.chunks.forTask(taskId);
    const done = new Map<number, Transcript>();
    for (const row of rows) {
      if (row.status === 'DONE' && row.result) done.set(row.idx, row.result as Transcript);
    }
    let to = 0;
    while (done.has(to)) to++;
    if (!to) return undefined;
    return growthOf(rows, done, 0, to);
  }
}

/** The transcript of chunks [0, to) merged, and the part chunks [from, to) added. */
function growthOf(
  spans: ChunkSpan[],
  done: Map<number, Transcript>,
  from: number,
  to: number,
): TranscriptGrowth {
  const pieces = spans.slice(0, to).map((span, idx) => ({ span, transcript: done.get(idx)! }));
  const transcript = mergeChunkTranscripts(
    pieces,
    done.get(0)?.language ?? 'und',
    spans[to - 1]!.endMs,
  );
  const addedFromMs = spans[from]!.startMs;
  return {
    transcript,
    added: transcript.segments.filter((segment) => segment.startMs >= addedFromMs),
    transcribedMs: spans[to - 1]!.endMs,
    chunksDone: to,
    chunkCount: spans.length,
  };
}

/** How long each step of a run took, in ms since the step before (pino fields). */
function stepTimes() {
  const times: Record<string, number> = {};
  let last = performance.now();
  return {
    times,
    mark(name: string) {
      const now = performance.now();
      times[name] = Math.round(now - last);
      last = now;
    },
  };
}

const chunkPrefix = (task: { id: string; userId: string }) =>
  `users/${task.userId}/tasks/${task.id}/asr/`;

function emptyRow(): Omit<AsrChunkRow, 'taskId' | 'idx' | 'startMs' | 'endMs' | 'audioKey'> {
  return {
    language: null,
    status: 'QUEUED',
    attempts: 0,
    runToken: null,
    worker: null,
    heartbeatAt: null,
    result: null,
    error: null,
  };
}

/** Resolves when a chunk of the task finishes in this process, or after `ms`. */
function waitForChunk(taskId: string, ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const settle = (error?: unknown) => {
      clearTimeout(timer);
      chunkEvents.off(taskId, finish);
      signal.removeEventListener('abort', abort);
      if (error) reject(error);
      else resolve();
    };
    const finish = () => settle();
    const abort = () => settle(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(finish, ms);
    chunkEvents.on(taskId, finish);
    signal.addEventListener('abort', abort, { once: true });
  });
}
