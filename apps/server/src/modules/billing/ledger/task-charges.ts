import type { TaskKind } from '@moments/contract';
import { chargeKindOfTask, taskQuote, type RefundCause, type TaskQuote } from '@moments/domain';
import type { Db } from '../../../db/client.js';
import type { ChargeKey } from './charge-keys.js';
import type { CreditReads } from './credit-reads.js';
import type { Ledger } from './ledger.js';
import type { LedgerRepository, Tx } from './ledger.repository.js';
import type { RefundOutbox } from './refund-outbox.js';

/** The task facts its charges depend on. */
export interface ChargedTask {
  id: string;
  userId: string;
  kind: string;
  attempts: number;
  reusesTranscript: boolean;
}

/**
 * What a task costs and how it is charged: its run and its summary, each under its own
 * typed key per attempt, priced by the one cost function (packages/domain taskQuote) that the
 * start form shows. Charged when the task starts (or is retried) if the video's length is known,
 * otherwise right after the video is probed; refunded through the outbox when the work fails.
 */
export class TaskCharges {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly ledger: Ledger,
    private readonly reads: CreditReads,
    private readonly refunds: RefundOutbox,
  ) {}

  quote(task: Pick<ChargedTask, 'kind' | 'reusesTranscript'>, durationMs: number): TaskQuote {
    return taskQuote(task.kind as TaskKind, durationMs, {
      reusesTranscript: task.reusesTranscript,
    });
  }

  keys(task: Pick<ChargedTask, 'id' | 'kind' | 'attempts'>): {
    run: ChargeKey;
    summary: ChargeKey;
  } {
    const kind = chargeKindOfTask(task.kind as TaskKind) as
      'task-run' | 'question' | 'caption-task';
    return {
      run: { kind, taskId: task.id, attempt: task.attempts },
      summary: { kind: 'summary', taskId: task.id, attempt: task.attempts },
    };
  }

  planOf(userId: string, tx?: Db | Tx): Promise<string> {
    return this.repo.planOf(userId, tx);
  }

  /**
   * Refuses work that the plan or the balance cannot take, before anything is stored: the video
   * too long (VIDEO_TOO_LONG) or the credits short (BALANCE_NOT_ENOUGH), the codes that open the
   * limit and credits dialogs.
   */
  async assertStartable(
    userId: string,
    task: Pick<ChargedTask, 'kind' | 'reusesTranscript'>,
    durationMs: number,
  ) {
    this.reads.assertVideoLength(await this.planOf(userId), durationMs);
    await this.reads.assertCanSpend(userId, 'CREDIT', this.quote(task, durationMs).total);
  }

  /** Charges this attempt's run and summary (a no-op when charged before); returns the quote. */
  async charge(task: ChargedTask, durationMs: number, tx?: Tx): Promise<TaskQuote> {
    const quote = this.quote(task, durationMs);
    const keys = this.keys(task);
    const run = async (inner: Tx) => {
      this.reads.assertVideoLength(await this.planOf(task.userId, inner), durationMs);
      await this.ledger.charge(task.userId, keys.run, 'CREDIT', quote.run, { tx: inner });
      if (quote.summary > 0) {
        await this.ledger.charge(task.userId, keys.summary, 'CREDIT', quote.summary, { tx: inner });
      }
    };
    // Inside the caller's transaction as it is (no savepoint); else in one of its own.
    if (tx) await run(tx);
    else await this.repo.transaction(undefined, run);
    return quote;
  }

  /** The attempt failed or was deleted unfinished: run and summary go back (outbox). */
  async refundAttempt(task: ChargedTask, cause: RefundCause = 'failed') {
    const keys = this.keys(task);
    await this.refunds.refund(task.userId, keys.run, cause);
    await this.refunds.refund(task.userId, keys.summary, cause);
  }

  /**
   * The task was deleted unfinished: what it did not deliver goes back. A follow-up question
   * already started from its transcript, so the transcription (its run) was delivered and stays
   * paid; only its summary is refunded then.
   */
  async refundDeleted(task: ChargedTask, transcriptReused: boolean) {
    if (transcriptReused) await this.refundSummary(task, 'deleted');
    else await this.refundAttempt(task, 'deleted');
  }

  /** The summary could not be made (or its task was deleted): its part goes back. */
  refundSummary(task: ChargedTask, cause: RefundCause) {
    return this.refunds.refund(task.userId, this.keys(task).summary, cause);
  }

  /** The summary stage made none: its part goes back, saying whether the video had no speech. */
  refundUnmadeSummary(task: ChargedTask, summary: { heardNothing?: boolean }) {
    return this.refundSummary(task, summary.heardNothing ? 'no_speech' : 'not_made');
  }

  /** What the task still holds in the ledger: the cost it shows. */
  shownCost(taskId: string, tx?: Db | Tx) {
    return this.reads.netCharged({ taskId }, tx);
  }
}
