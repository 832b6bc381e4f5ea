import { randomUUID } from 'node:crypto';
import type { JobQueue } from '../../jobs/queue.js';
import type { ExportsRepository } from './exports.repository.js';

/**
 * Resumes exports whose worker died: an IN_PROGRESS job silent longer than the lease gets a new
 * run token and a new `export-render` job (the TaskReaper pattern). The dead run's delivery, if it
 * ever comes back, finds its token stale and does nothing.
 */
export class ExportReaper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: ExportsRepository,
    private readonly queue: JobQueue,
    private readonly leaseMs: number,
  ) {}

  start() {
    const tick = () =>
      void this.resumeOrphans().catch((error) => console.error('export reaper', error));
    tick();
    this.timer = setInterval(tick, Math.max(1000, this.leaseMs / 2));
  }

  stop() {
    clearInterval(this.timer);
  }

  async resumeOrphans(): Promise<number> {
    const orphans = await this.repo.findOrphaned(new Date(Date.now() - this.leaseMs));
    let resumed = 0;
    for (const job of orphans) {
      if (!job.runToken) continue;
      const runToken = randomUUID();
      const claimed = await this.repo.updateRun(job.id, job.runToken, {
        runToken,
        heartbeatAt: new Date(),
      });
      if (!claimed) continue;
      await this.queue.send('export-render', { jobId: job.id, runToken });
      resumed++;
    }
    return resumed;
  }
}
