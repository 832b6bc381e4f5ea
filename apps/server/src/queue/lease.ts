import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '@moments/contract';
import { AppError } from '../http/errors.js';
import type { Logger } from '../logging.js';

/**
 * Leased work: tasks, exports and ASR chunks are each run by one worker at a time, which holds a
 * run token and heart-beats; a run whose heart-beat is older than the lease lost its worker and
 * is taken over under a new token, and every write of the old run then finds its token stale.
 * This file is that lifecycle once: the heart-beat, the run that writes only while it holds its
 * token, and, for tasks and exports, the claim, the takeover of orphans and their resumption.
 */

/** The run was taken over (deleted, retried, or resumed elsewhere): stop quietly. */
export class RunSuperseded extends Error {}

/** Heart-beats older than this lost their worker. */
export const staleBefore = (leaseMs: number): Date => new Date(Date.now() - leaseMs);

/**
 * Beats every `intervalMs` until stopped: `beat` writes the heart-beat and says whether the lease
 * is still held; `lost` is told once it is not, `failed` of a beat that could not be written
 * (the next tick tries again).
 */
export class Heartbeat {
  private readonly timer: NodeJS.Timeout;

  constructor(
    beat: () => Promise<boolean>,
    intervalMs: number,
    on: {
      lost: () => void;
      failed: (error: unknown) => void;
      /** Told of each beat under way (a run's stop() waits for its writes). */
      track?: (write: Promise<void>) => void;
    },
  ) {
    this.timer = setInterval(() => {
      const write = beat()
        .then((held) => {
          if (!held) on.lost();
        })
        .catch(on.failed);
      on.track?.(write);
    }, intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface LeasedRunOptions<Row, Patch> {
  /** Writes `patch` only while this run still holds its token; undefined once it lost it. */
  update(patch: Patch & { heartbeatAt: Date }): Promise<Row | undefined>;
  progressOf(row: Row): number;
  /** The row's stage, where it has one: a new stage is told at once, never held back. */
  stageOf?(row: Row): unknown;
  /**
   * Told after every status change (`final`) and stage change, and at most about once a second
   * for progress.
   */
  onChange(row: Row, final: boolean): Promise<void> | void;
  heartbeatMs: number;
  /** Aborted when the process closes: the run stops as if superseded, and stays resumable. */
  closing?: AbortSignal;
}

/**
 * One run of leased work (a task, an export): heart-beats so a dead worker's run is resumed by
 * its Leases, writes state only while it holds its run token, and runs stages with their own
 * timeouts and progress bands so the bar only moves forward.
 */
export class LeasedRun<Row, Patch extends { progress?: number }> {
  readonly controller = new AbortController();
  private readonly heartbeat: Heartbeat;
  private lastReport = 0;
  /** Heart-beats and progress saves under way: stop() waits for them. */
  private readonly writes = new Set<Promise<unknown>>();
  private readonly onClosing = () => this.cancel('the server is shutting down');

  constructor(
    public row: Row,
    private readonly options: LeasedRunOptions<Row, Patch>,
  ) {
    this.heartbeat = new Heartbeat(
      async () =>
        !!(await this.options.update({ heartbeatAt: new Date() } as Patch & { heartbeatAt: Date })),
      options.heartbeatMs,
      {
        lost: () => this.cancel('superseded'),
        // A missed heart-beat is retried at the next tick; only a lost lease stops the run.
        failed: () => undefined,
        track: (write) => void this.track(write),
      },
    );
    if (options.closing?.aborted) this.onClosing();
    else options.closing?.addEventListener('abort', this.onClosing, { once: true });
  }

  cancel(reason: string) {
    this.controller.abort(new RunSuperseded(reason));
  }

  /** Saves a patch (and a heart-beat); throws RunSuperseded when the run lost its token. */
  async save(patch: Patch, final = false): Promise<Row> {
    const row = await this.options.update({ ...patch, heartbeatAt: new Date() });
    if (!row) throw new RunSuperseded('superseded');
    const { stageOf } = this.options;
    // A page shows the stage: one entered within a second of the last report is told too (it
    // used to wait for the next progress report, which chunked transcription makes per chunk).
    const newStage = !!stageOf && stageOf(row) !== stageOf(this.row);
    this.row = row;
    const now = Date.now();
    if (final || newStage || now - this.lastReport >= 1000) {
      this.lastReport = now;
      await this.options.onChange(row, final);
    }
    return row;
  }

  /**
   * Runs one stage within `timeoutMs`, mapping its progress fraction into `band` (percent). A
   * timeout becomes a readable TIMEOUT error; a takeover rethrows RunSuperseded.
   */
  async stage<T>(
    name: string,
    band: readonly [number, number],
    timeoutMs: number,
    work: (signal: AbortSignal, progress: (fraction: number) => void) => Promise<T>,
    extra?: Patch,
  ): Promise<T> {
    const [from, to] = band;
    const current = this.options.progressOf(this.row);
    if (extra || current < from) {
      await this.save({ ...extra, progress: Math.max(current, from) } as Patch);
    }
    const signal = AbortSignal.any([this.controller.signal, AbortSignal.timeout(timeoutMs)]);
    let pending = Promise.resolve();
    const progress = (fraction: number) => {
      const value = from + (to - from) * Math.min(1, Math.max(0, fraction));
      if (value <= this.options.progressOf(this.row) + 0.5) return;
      pending = this.track(
        pending
          .then(() => this.save({ progress: value } as Patch))
          .then(() => undefined)
          // Progress is best effort: the next report or the stage's end saves it again.
          .catch(() => undefined),
      );
    };
    try {
      const result = await work(signal, progress);
      await pending;
      return result;
    } catch (error) {
      if (this.controller.signal.aborted) throw this.controller.signal.reason;
      if (signal.aborted) {
        throw new AppError(
          ERROR_CODES.TIMEOUT,
          504,
          `The ${name} step took longer than ${Math.max(1, Math.round(timeoutMs / 60_000))} minutes and was stopped.`,
        );
      }
      throw error;
    }
  }

  /** Stops heart-beating; resolves once no write of this run is under way. */
  async stop(): Promise<void> {
    this.heartbeat.stop();
    this.options.closing?.removeEventListener('abort', this.onClosing);
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
  }

  private track<T>(write: Promise<T>): Promise<T> {
    this.writes.add(write);
    // The caller awaits `write` and sees its error; this copy only must not count as unhandled.
    void write.finally(() => this.writes.delete(write)).catch(() => undefined);
    return write;
  }
}

/** The fields of a leased row the lease itself writes. */
interface LeasePatch {
  progress?: number;
  runToken?: string | null;
  startedAt?: Date | null;
  heartbeatAt?: Date | null;
}

/** The rows of one kind of leased work, as the lease reads and writes them (its repository). */
export interface LeasedRows<Row, Patch> {
  /**
   * Claims the run for one worker: only a queued run, or one whose worker stopped heart-beating
   * before `staleBefore`, can be claimed.
   */
  claimRun(id: string, runToken: string, staleBefore: Date): Promise<Row | undefined>;
  /** Writes only while the row still holds `runToken`; undefined once it does not. */
  updateRun(id: string, runToken: string, patch: Patch): Promise<Row | undefined>;
  /** Started runs whose heart-beat is older than `staleBefore`: their worker died. */
  findOrphaned(staleBefore: Date): Promise<Array<{ id: string; runToken: string | null }>>;
}

export interface LeasesOptions<Row, Patch> {
  /** The kind, in log lines: `task` (its id logged as taskId) or `export` (jobId). */
  name: 'task' | 'export';
  rows: LeasedRows<Row, Patch>;
  leaseMs: number;
  heartbeatMs: number;
  /** Queues a taken-over run again under its new token. */
  resume(id: string, runToken: string): Promise<void>;
  log: Logger;
}

/**
 * The leases of one kind of work (tasks, exports): a worker claims a run, holds it through a
 * LeasedRun and releases it; runs whose worker died (process killed, machine lost) are taken
 * over under a new token and queued again (`resumeOrphans`, the `task-reap` and `export-reap`
 * job kinds). The dead run's job, if it is ever redelivered, finds its token stale and does
 * nothing.
 */
export class Leases<
  Row extends { id: string; progress: number; stage?: unknown },
  Patch extends LeasePatch,
> {
  private readonly running = new Map<string, LeasedRun<Row, Patch>>();

  constructor(private readonly options: LeasesOptions<Row, Patch>) {}

  /**
   * Atomic claim: a stale or duplicate delivery, or one while another worker's run of the same
   * token still heart-beats (pg-boss retrying an expired job), finds nothing to claim.
   */
  claim(id: string, runToken: string): Promise<Row | undefined> {
    return this.options.rows.claimRun(id, runToken, staleBefore(this.options.leaseMs));
  }

  /** The claimed run, heart-beating until `release`; `cancel(id)` stops it from this process. */
  hold(
    initial: Row,
    runToken: string,
    on: { onChange: LeasedRunOptions<Row, Patch>['onChange']; closing?: AbortSignal },
  ): LeasedRun<Row, Patch> {
    const run = new LeasedRun<Row, Patch>(initial, {
      update: (patch) => this.options.rows.updateRun(initial.id, runToken, patch),
      progressOf: (row) => row.progress,
      stageOf: (row) => row.stage,
      onChange: on.onChange,
      heartbeatMs: this.options.heartbeatMs,
      closing: on.closing,
    });
    this.running.set(initial.id, run);
    return run;
  }

  /** Stops the run's heart-beat once its writes are done. */
  async release(id: string, run: LeasedRun<Row, Patch>): Promise<void> {
    await run.stop();
    if (this.running.get(id) === run) this.running.delete(id);
  }

  /** Stops a run in this process (deleted or retried). */
  cancel(id: string): void {
    this.running.get(id)?.cancel('cancelled');
  }

  /** Takes over the runs whose heart-beat is older than the lease and queues them again. */
  async resumeOrphans(): Promise<number> {
    const { rows, name, log } = this.options;
    const orphans = await rows.findOrphaned(staleBefore(this.options.leaseMs));
    let resumed = 0;
    for (const orphan of orphans) {
      if (!orphan.runToken) continue;
      const runToken = randomUUID();
      const patch = { runToken, startedAt: null, heartbeatAt: new Date() } as Patch;
      if (!(await rows.updateRun(orphan.id, orphan.runToken, patch))) continue;
      // The id under the name the other log lines use for it (taskId, jobId).
      log.warn(
        { [name === 'task' ? 'taskId' : 'jobId']: orphan.id, runToken },
        `${name} run lost its worker: resuming it`,
      );
      await this.options.resume(orphan.id, runToken);
      resumed++;
    }
    return resumed;
  }
}
