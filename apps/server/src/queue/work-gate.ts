import { BackgroundWork } from './background-work.js';

/**
 * Work a user is waiting for (a task, an export, a framing preview) goes first in this process;
 * background work (JOB_KINDS marked `background`) waits until none runs, and what it is doing is
 * stopped the moment user work starts, to be done again once the process is idle.
 * The gate only orders work: its background runs are tracked by the process's BackgroundWork,
 * so they stop when the process closes and the close waits for them to settle.
 */
export class WorkGate {
  private running = 0;
  private readonly idleWaiters = new Set<() => void>();
  private readonly busyListeners = new Set<() => void>();

  constructor(private readonly tracked: BackgroundWork = new BackgroundWork()) {
    // Background work waiting for idle must not wait past the shutdown.
    tracked.signal.addEventListener('abort', () => this.releaseIdleWaiters(), { once: true });
  }

  /** Whether user work runs in this process now. */
  get busy(): boolean {
    return this.running > 0;
  }

  /** Runs `work` as work a user waits for: background work gives way while it runs. */
  async userWork<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    if (this.running === 1) for (const listener of [...this.busyListeners]) listener();
    try {
      return await work();
    } finally {
      this.running--;
      if (this.running === 0) this.releaseIdleWaiters();
    }
  }

  /** Resolves when no user work runs (at once when none does). */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }

  /**
   * Runs background `work` when the process is idle, with a signal that aborts as soon as user
   * work starts or the process closes; work stopped for a user waits for idle again and starts
   * over (it must keep what it finished, e.g. analysed stretches, so little is lost). Other
   * failures are thrown.
   */
  async background<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    for (;;) {
      await this.idle();
      if (this.tracked.closing) throw new GateClosed();
      const preempted = new AbortController();
      const preempt = () => preempted.abort(new Error('user work started'));
      this.busyListeners.add(preempt);
      try {
        return await this.tracked.run((closing) =>
          work(AbortSignal.any([preempted.signal, closing])),
        );
      } catch (error) {
        if (this.tracked.closing) throw new GateClosed();
        // Stopped to make room for a user: do it again once they are served.
        if (preempted.signal.aborted) continue;
        throw error;
      } finally {
        this.busyListeners.delete(preempt);
      }
    }
  }

  /** The process is stopping: background work stops now, none starts again, resolved once settled. */
  close(): Promise<void> {
    return this.tracked.close();
  }

  private releaseIdleWaiters(): void {
    for (const resolve of [...this.idleWaiters]) resolve();
    this.idleWaiters.clear();
  }
}

/** Background work was stopped because the process is stopping. */
export class GateClosed extends Error {
  constructor() {
    super('the process is stopping');
  }
}
