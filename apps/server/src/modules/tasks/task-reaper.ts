import { randomUUID } from 'node:crypto';
import type { JobQueue } from '../../jobs/queue.js';
import type { TasksRepository } from './tasks.repository.js';

/**
 * Resumes runs whose worker died (process killed, machine lost): an IN_PROGRESS task whose
 * heart-beat is older than the lease gets a new run token and a new job. The dead run's job, if it
 * is ever redelivered, finds its token stale and does nothing.
 */
export class TaskReaper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: TasksRepository,
    private readonly queue: JobQueue,
    private readonly leaseMs: number,
  ) {}

  start() {
    const tick = () => void this.resumeOrphans().catch((error) => console.error('reaper', error));
    tick();
    this.timer = setInterval(tick, Math.max(1000, this.leaseMs / 2));
  }

  stop() {
    clearInterval(this.timer);
  }

  async resumeOrphans(): Promise<number> {
    const orphans = await this.repo.findOrphaned(new Date(Date.now() - this.leaseMs));
    let resumed = 0;
    for (const task of orphans) {
      if (!task.runToken) continue;
      const runToken = randomUUID();
      const claimed = await this.repo.updateRun(task.id, task.runToken, {
        runToken,
        heartbeatAt: new Date(),
      });
      if (!claimed) continue;
      await this.queue.send('task-run', { taskId: task.id, runToken });
      resumed++;
    }
    return resumed;
  }
}
