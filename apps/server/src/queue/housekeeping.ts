import { IDEMPOTENCY_KEY_TTL_HOURS } from '@moments/contract';
import { sweepDeadProcessFolders, sweepStaleWorkFolders } from '../config/data-dir.js';
import type { Logger } from '../logging.js';
import type { UsersRepository } from '../modules/auth/users.repository.js';
import type { WebhooksRepository } from '../modules/webhooks/webhooks.repository.js';
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
  /** Settled webhook deliveries leave the log after WEBHOOK_DELIVERY_KEEP_DAYS. */
  webhookDeliveries?: Pick<WebhooksRepository, 'removeSettledBefore'>;
}

/** How long the delivery log keeps a settled delivery (the screen shows the latest 50). */
const WEBHOOK_DELIVERY_KEEP_DAYS = 30;

export class Housekeeping {
  private readonly users: UsersRepository;
  private readonly workRoot: string;
  private readonly log: Logger;
  private readonly thumbnails: HousekeepingParts['thumbnails'];
  private readonly idempotencyKeys: HousekeepingParts['idempotencyKeys'];
  private readonly webhookDeliveries: HousekeepingParts['webhookDeliveries'];

  constructor(parts: HousekeepingParts) {
    ({
      users: this.users,
      workRoot: this.workRoot,
      log: this.log,
      thumbnails: this.thumbnails,
      idempotencyKeys: this.idempotencyKeys,
      webhookDeliveries: this.webhookDeliveries,
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
    const webhookDeliveries =
      (await this.webhookDeliveries?.removeSettledBefore(
        new Date(now.getTime() - WEBHOOK_DELIVERY_KEEP_DAYS * 86_400_000),
      )) ?? 0;
    const done = { ...purged, workFolders, linkPreviews, idempotencyKeys, webhookDeliveries };
    const changed = workFolders || linkPreviews || idempotencyKeys || webhookDeliveries;
    if (purged.sessions || purged.tickets || purged.emailLinks || changed) {
      this.log.info(done, 'housekeeping');
    }
    return done;
  }
}
