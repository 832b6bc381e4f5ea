import type { RefundCause } from '@moments/domain';
import type { JobQueue } from '../../../queue/queue.js';
import { silentLogger, type Logger } from '../../../logging.js';
import { operationKey, workOf, type ChargeKey } from './charge-keys.js';
import type { CreditReads } from './credit-reads.js';
import type { Ledger } from './ledger.js';
import type { LedgerRepository } from './ledger.repository.js';

/** What a queued refund names: the charge and, for logs and the shown cost, its owner and work. */
export interface RefundPayload {
  key: string;
  userId: string;
  taskId: string | null;
  jobId: string | null;
  /** Why the credits go back (the credit history says it); absent in refunds queued before. */
  cause?: RefundCause;
}

/**
 * Refunds go through an outbox: a `credit-refund` job on the pg-boss queue is sent
 * first, so a refund that fails now (the database restarting, a lock timeout) is retried by the
 * queue until it is done; then it is tried at once. A failure is logged with the charge, user,
 * task and export ids. The work's shown cost follows the ledger: it drops to what is still
 * charged only once the refund has landed, so a task never shows a cost of 0 while the user is
 * still charged.
 */
export class RefundOutbox {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly ledger: Ledger,
    private readonly reads: CreditReads,
    private readonly queue: JobQueue,
    private readonly log: Logger = silentLogger,
  ) {}

  /** Queues the refund of `key` and tries it now; never throws (the queue retries). */
  async refund(userId: string, key: ChargeKey, cause?: RefundCause): Promise<void> {
    const payload: RefundPayload = {
      key: operationKey(key),
      userId,
      ...workOf(key),
      ...(cause && { cause }),
    };
    try {
      await this.queue.send('credit-refund', payload);
    } catch (error) {
      // Without the outbox row the immediate attempt below is the only one: say so loudly.
      this.log.error({ err: error, ...payload }, 'could not queue a credit refund');
    }
    try {
      await this.run(payload);
    } catch (error) {
      this.log.error({ err: error, ...payload }, 'credit refund failed; the outbox retries it');
    }
  }

  /** The `credit-refund` job: refunds once (idempotent) and updates the work's shown cost. */
  async run(payload: RefundPayload): Promise<void> {
    await this.ledger.refund(payload.key, { cause: payload.cause });
    await this.syncShownCost(payload);
  }

  /** The task's or export's cost_credits becomes what the ledger still holds for it. */
  async syncShownCost(work: { taskId: string | null; jobId: string | null }) {
    if (work.taskId) {
      const net = await this.reads.netCharged({ taskId: work.taskId });
      await this.repo.setTaskCost(work.taskId, net);
    }
    if (work.jobId) {
      const net = await this.reads.netCharged({ jobId: work.jobId });
      await this.repo.setExportCost(work.jobId, net);
    }
  }
}
