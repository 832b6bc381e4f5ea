import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging.js';

/** What the reaper needs to know about one kind of leased work (tasks, exports). */
export interface LeasedWork {
  /** Started runs whose heart-beat is older than `staleBefore`: their worker died. */
  findOrphaned(staleBefore: Date): Promise<Array<{ id: string; runToken: string | null }>>;
  /** Moves the run to `newToken` only if it still holds `oldToken`; false when someone else did. */
  claim(id: string, oldToken: string, newToken: string): Promise<boolean>;
  /** Queues the run again under its new token. */
  resume(id: string, runToken: string): Promise<void>;
}

/**
 * Resumes runs whose worker died (process killed, machine lost): a started run whose heart-beat is
 * older than the lease gets a new run token and a new queue job. The dead run's job, if it is ever
 * redelivered, finds its token stale and does nothing. Run each minute as the `task-reap` and
 * `export-reap` job kinds.
 */
export class LeaseReaper {
  constructor(
    private readonly name: string,
    private readonly work: LeasedWork,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {}

  async resumeOrphans(): Promise<number> {
    const orphans = await this.work.findOrphaned(new Date(Date.now() - this.leaseMs));
    let resumed = 0;
    for (const orphan of orphans) {
      if (!orphan.runToken) continue;
      const runToken = randomUUID();
      if (!(await this.work.claim(orphan.id, orphan.runToken, runToken))) continue;
      // The id under the name the other log lines use for it (taskId, jobId).
      this.log.warn(
        { [`${this.name === 'task' ? 'task' : 'job'}Id`]: orphan.id, runToken },
        `${this.name} run lost its worker: resuming it`,
      );
      await this.work.resume(orphan.id, runToken);
      resumed++;
    }
    return resumed;
  }
}
