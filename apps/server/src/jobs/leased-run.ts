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

  constructor(
    public row: Row,
    private readonly options: LeasedRunOptions<Row, Patch>,
  ) {
    this.heartbeat = setInterval(() => {
      this.options
        .update({ heartbeatAt: new Date() } as Patch & { heartbeatAt: Date })
        .then((row) => {
          if (!row) this.cancel('superseded');
        })
        .catch(() => undefined);
    }, options.heartbeatMs);
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
      pending = pending
        .then(() => this.save({ progress: value } as Patch))
        .then(() => undefined)
        .catch(() => undefined);
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

  stop() {
    clearInterval(this.heartbeat);
  }
}
