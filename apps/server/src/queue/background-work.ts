import { silentLogger, type Logger } from '../logging.js';

/** Work refused because the process is closing. */
class ShuttingDown extends Error {
  constructor() {
    super('the server is shutting down');
  }
}

/**
 * Everything this process does in the background (task and export runs, span cuts, framing
 * analyses, housekeeping, lease reaping, renewals): each piece is tracked until it settles and
 * gets a signal that aborts when the process closes. `close()` refuses new work, aborts what
 * runs, and resolves only when all of it has settled, so nothing writes files or rows after
 * the app is closed (a test's teardown found files still being written).
 */
export class BackgroundWork {
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly controller = new AbortController();

  constructor(private readonly log: Logger = silentLogger) {}

  /** Aborted when the process closes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get closing(): boolean {
    return this.controller.signal.aborted;
  }

  /** Runs `work` tracked; refused with ShuttingDown once closing. Its result is the caller's. */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new ShuttingDown());
    const running = (async () => work(this.controller.signal))();
    const tracked = running.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
    return running;
  }

  /**
   * Starts work nobody awaits (fire and forget): its failure is logged under `what` with `ids`,
   * never left unhandled. Skipped once closing.
   */
  detach(what: string, work: (signal: AbortSignal) => Promise<unknown>, ids: object = {}): void {
    if (this.closing) return;
    this.run(work).catch((err: unknown) => {
      if (this.closing && this.signal.reason === err) return; // stopped for the shutdown
      this.log.error({ err, ...ids }, `${what} failed`);
    });
  }

  /** How many pieces of work are under way (for tests and the shutdown log). */
  get size(): number {
    return this.inFlight.size;
  }

  /** Refuses new work, aborts what runs, and resolves once every piece has settled. */
  async close(): Promise<void> {
    if (!this.closing) this.controller.abort(new ShuttingDown());
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}
