import { sweepDeadProcessFolders, sweepStaleWorkFolders } from '../config/data-dir.js';
import type { Logger } from '../logging.js';
import type { UsersRepository } from '../modules/auth/users.repository.js';
import type { ThumbnailsService } from '../modules/thumbnails/thumbnails.service.js';

/**
 * Cleanup that no person should have to do (style.md: Immich runs housekeeping as ordinary work):
 * expired sessions and realtime tickets leave the database, and run work folders that a killed
 * worker left behind leave DATA_DIR/tmp once no run can still own them: at once when the process
 * that made them is gone, after a day otherwise; link previews no task adopted in a day leave
 * storage. Run hourly as the `housekeeping` job kind.
 */
export class Housekeeping {
  constructor(
    private readonly users: UsersRepository,
    private readonly workRoot: string,
    private readonly log: Logger,
    private readonly thumbnails: Pick<ThumbnailsService, 'removeStaleLinkPreviews'>,
  ) {}

  async runOnce(now = new Date()) {
    const purged = await this.users.purgeExpired(now);
    // Folders of this host's dead server processes (another process sharing DATA_DIR was
    // killed), then anything older than a run may live.
    const workFolders =
      (await sweepDeadProcessFolders(this.workRoot)) +
      (await sweepStaleWorkFolders(this.workRoot, now.getTime()));
    const linkPreviews = await this.thumbnails.removeStaleLinkPreviews(now);
    const done = { ...purged, workFolders, linkPreviews };
    if (purged.sessions || purged.tickets || workFolders || linkPreviews) {
      this.log.info(done, 'housekeeping');
    }
    return done;
  }
}
