import { ERROR_CODES } from '@moments/contract';
import { AppError } from '../http/errors.js';

/** The run was taken over (deleted, retried, or resumed elsewhere): stop quietly. */
export class RunSuperseded extends Error {}

export interface LeasedRunOptions<Row, Patch> {
  /** Writes `patch` only while this run still holds its token; undefined once it lost it. */
  update(patch: Patch & { heartbeatAt: Date }): Promise<Row | undefined>;
  progressOf(row: Row): number;
  /** Told after every status change (`final`), and at most about once a second for progress. */
  onChange(row: Row, final: boolean): Promise<void> | void;
  heartbeatMs: number;
  /** Aborted when the process closes: the run stops as if superseded, and stays resumable. */
  closing?: AbortSignal;
}

/**
 * One run of leased work (a task, an export): heart-beats so a dead worker's run is resumed by the
 * LeaseReaper, writes state only while it holds its run token, and runs stages with their own
 * timeouts and progress bands so the bar only moves forward.
 */
export class LeasedRun<Row, Patch extends { progress?: number }> {
  readonly controller = new AbortController();
  private readonly heartbeat: NodeJS.Timeout;
  private lastReport = 0;
  /** Heart-beats and progress saves under way: stop() waits for them. */
  private readonly writes = new Set<Promise<unknown>>();
  private readonly onClosing = () => this.cancel('the server is shutting down');

  constructor(
    public row: Row,
    private readonly options: LeasedRunOptions<Row, Patch>,
  ) {
    this.heartbeat = setInterval(() => {
      this.track(
        this.options
          .update({ heartbeatAt: new Date() } as Patch & { heartbeatAt: Date })
          .then((row) => {
            if (!row) this.cancel('superseded');
          })
          // A missed heart-beat is retried at the next tick; only a lost lease stops the run.
          .catch(() => undefined),
      );
    }, options.heartbeatMs);
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
    this.row = row;
    const now = Date.now();
    if (final || now - this.lastReport >= 1000) {
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
    clearInterval(this.heartbeat);
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
