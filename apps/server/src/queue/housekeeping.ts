import { IDEMPOTENCY_KEY_TTL_HOURS } from '@moments/contract';
import { sweepDeadProcessFolders, sweepStaleWorkFolders } from '../config/data-dir.js';
import type { Logger } from '../logging.js';
import type { UsersRepository } from '../modules/auth/users.repository.js';
import type { IdempotencyKeysRepository } from '../modules/idempotency/idempotency-keys.repository.js';
import type { ThumbnailsService } from '../modules/thumbnails/thumbnails.service.js';

/**
 * Cleanup that no person should have to do (style.md: Immich runs housekeeping as ordinary work):
 * expired sessions and realtime tickets leave the database, and run work folders that a killed
 * worker left behind leave DATA_DIR/tmp once no run can still own them: at once when the process
 * that made them is gone, after a day otherwise; link previews no task adopted in a day leave
 * storage; the kept replies of paid calls leave after their day. Run hourly as the `housekeeping`
 * job kind.
 */
export interface HousekeepingParts {
  users: UsersRepository;
  /** The scratch folder whose abandoned run folders are swept. */
  workRoot: string;
  log: Logger;
  thumbnails: Pick<ThumbnailsService, 'removeStaleLinkPreviews'>;
  idempotencyKeys: Pick<IdempotencyKeysRepository, 'removeOlderThan'>;
}

export class Housekeeping {
  private readonly users: UsersRepository;
  private readonly workRoot: string;
  private readonly log: Logger;
  private readonly thumbnails: HousekeepingParts['thumbnails'];
  private readonly idempotencyKeys: HousekeepingParts['idempotencyKeys'];

  constructor(parts: HousekeepingParts) {
    ({
      users: this.users,
      workRoot: this.workRoot,
      log: this.log,
      thumbnails: this.thumbnails,
      idempotencyKeys: this.idempotencyKeys,
    } = parts);
  }

  async runOnce(now = new Date()) {
    const purged = await this.users.purgeExpired(now);
    const idempotencyKeys = await this.idempotencyKeys.removeOlderThan(
      new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000),
    );
    // Folders of this host's dead server processes (another process sharing DATA_DIR was
    // killed), then anything older than a run may live.
    const workFolders =
      (await sweepDeadProcessFolders(this.workRoot)) +
      (await sweepStaleWorkFolders(this.workRoot, now.getTime()));
    const linkPreviews = await this.thumbnails.removeStaleLinkPreviews(now);
    const done = { ...purged, workFolders, linkPreviews, idempotencyKeys };
    if (
      purged.sessions ||
      purged.tickets ||
      purged.emailLinks ||
      workFolders ||
      linkPreviews ||
      idempotencyKeys
    ) {
      this.log.info(done, 'housekeeping');
    }
    return done;
  }
}
