import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { ConfigError } from '../../config/index.js';
import type { Logger } from '../../logging.js';
import { settingsConflicts, type SharedSettings } from './deployment-checks.js';
import type { ServerProcessesRepository } from './server-processes.repository.js';

/** How often a process marks its row alive. */
const PROCESS_HEARTBEAT_MS = 10_000;
/** A process silent this long counts as gone (three missed heartbeats). */
export const PROCESS_LIVE_MS = 3 * PROCESS_HEARTBEAT_MS;
/** Rows of processes silent this long (killed, never stopped) are swept at the next start. */
const FORGET_AFTER_MS = 24 * 3600_000;

export interface ServerRegistryOptions {
  repo: ServerProcessesRepository;
  settings: SharedSettings;
  log: Logger;
  heartbeatMs?: number;
}

/**
 * This process's row among the processes on the database: joined at start after comparing the
 * settings every process must share with the live rows (a difference refuses the start, with
 * the fix), heart-beaten while it runs, left at close. It also records who has a browser
 * connected here, for the workers that decide whether to mail.
 */
export class ServerRegistry {
  readonly id = `${os.hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  private joined = false;
  private readonly repo: ServerProcessesRepository;
  private readonly settings: SharedSettings;
  private readonly log: Logger;
  private readonly heartbeatMs: number;

  constructor(options: ServerRegistryOptions) {
    this.repo = options.repo;
    this.settings = options.settings;
    this.log = options.log.child({ component: 'deployment' });
    this.heartbeatMs = options.heartbeatMs ?? PROCESS_HEARTBEAT_MS;
  }

  async join(): Promise<void> {
    await this.repo.removeSilent(FORGET_AFTER_MS);
    const peers = await this.repo.live(PROCESS_LIVE_MS);
    const problems = settingsConflicts(this.settings, peers);
    if (problems.length) {
      throw new ConfigError(
        `Invalid configuration (this process differs from the others on the database):\n${problems.join('\n')}`,
      );
    }
    await this.repo.register({
      id: this.id,
      hostname: os.hostname(),
      pid: process.pid,
      ...this.settings,
    });
    this.joined = true;
    this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      // Swept while this process was paused (or its row removed by hand): back in.
      if (!(await this.repo.heartbeat(this.id))) {
        await this.repo.register({
          id: this.id,
          hostname: os.hostname(),
          pid: process.pid,
          ...this.settings,
        });
      }
    } catch (err) {
      this.log.warn({ err }, 'could not mark this process alive in server_processes');
    }
  }

  /** A user's first browser connected here (true), or their last left (false). */
  presenceChanged(userId: string, connected: boolean): void {
    if (!this.joined) return;
    const change = connected
      ? this.repo.markConnected(this.id, userId)
      : this.repo.markDisconnected(this.id, userId);
    change.catch((err: unknown) => this.log.warn({ err }, 'could not record realtime presence'));
  }

  /** Whether the user has a browser connected to any live process. */
  isConnected(userId: string): Promise<boolean> {
    return this.repo.isConnected(userId, PROCESS_LIVE_MS);
  }

  async leave(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.joined) return;
    this.joined = false;
    await this.repo
      .remove(this.id)
      .catch((err: unknown) => this.log.warn({ err }, 'could not remove this process row'));
  }
}
