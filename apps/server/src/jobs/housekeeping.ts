import { sweepStaleWorkFolders } from '../config/data-dir.js';
import { silentLogger, type Logger } from '../logging.js';
import type { UsersRepository } from '../repositories/users.repository.js';

/** How often the worker cleans up (and once at start). */
const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

/**
 * Cleanup that no person should have to do (style.md: Immich runs housekeeping as ordinary work):
 * expired sessions and realtime tickets leave the database, and run work folders that a killed
 * worker left behind leave DATA_DIR/tmp once no run can still own them.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly users: UsersRepository,
    private readonly workRoot: string,
    private readonly log: Logger = silentLogger,
  ) {}

  start() {
    const tick = () =>
      void this.runOnce().catch((err: unknown) => this.log.error({ err }, 'housekeeping failed'));
    tick();
    this.timer = setInterval(tick, HOUSEKEEPING_INTERVAL_MS);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
  }

  async runOnce(now = new Date()) {
    const purged = await this.users.purgeExpired(now);
    const workFolders = await sweepStaleWorkFolders(this.workRoot, now.getTime());
    const done = { ...purged, workFolders };
    if (purged.sessions || purged.tickets || workFolders) this.log.info(done, 'housekeeping');
    return done;
  }
}
