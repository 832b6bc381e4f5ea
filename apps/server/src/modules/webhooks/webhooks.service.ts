import { randomBytes } from 'node:crypto';
import {
  CREDITS_LOW_THRESHOLD,
  ERROR_CODES,
  WEBHOOKS_PER_USER_MAX,
  WEBHOOK_TEST_EVENT,
  type CreateWebhookBody,
  type CreatedWebhook,
  type JobStatus,
  type TaskKind,
  type TaskStatus,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEvent,
} from '@moments/contract';
import { assertPublicUrl, httpUrlOf, postToPublicUrl } from '@moments/net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logging.js';
import { jobPolicy } from '../../queue/job-kinds.js';
import type { JobQueue } from '../../queue/queue.js';
import type { DeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository.js';

/** Every attempt a delivery gets: the first and the queue's retries. */
const MAX_ATTEMPTS = (jobPolicy('webhook-deliver').retryLimit ?? 0) + 1;
const DELIVERIES_SHOWN = 50;

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE: private and loopback receivers are allowed. */
  allowPrivate: boolean;
  /** MEDIA_FETCH_ALLOW_HOSTS: hosts allowed although private, as for links. */
  allowHosts: string[];
  timeoutMs: number;
  retryDelaySeconds: number;
}

/** The API's own JSON of the objects events are about, read as their owner reads them. */
export interface WebhookObjects {
  task(userId: string, taskId: string): Promise<unknown>;
  job(userId: string, jobId: string): Promise<unknown>;
  /** Spendable credits, null when unlimited. */
  credits(userId: string): Promise<number | null>;
}

/** Finished work, as the one place that records each status change reports it. */
export type FinishedWork =
  | { kind: 'task'; userId: string; id: string; status: TaskStatus; taskKind: TaskKind }
  | { kind: 'job'; userId: string; id: string; status: JobStatus };

/** The webhook event of a finished task or export, or null for a status no event names. */
function eventOf(work: FinishedWork): WebhookEvent | null {
  if (work.kind === 'job') {
    if (work.status === 'DONE') return 'export.done';
    return work.status === 'ERROR' ? 'export.error' : null;
  }
  if (work.status === 'DONE')
    return work.taskKind === 'caption' ? 'caption_task.done' : 'task.done';
  return work.status === 'ERROR' ? 'task.error' : null;
}

const toDto = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events as Webhook['events'],
  enabled: row.enabled,
  created: row.createdAt.getTime(),
  updated: row.updatedAt.getTime(),
});

const deliveryDto = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event: row.event,
  status: row.status as WebhookDeliveryStatus,
  attempts: row.attempts,
  response_code: row.responseCode,
  created: row.createdAt.getTime(),
  last_attempt: row.lastAttemptAt?.getTime() ?? null,
  attempt_log: row.attemptLog,
});

/**
 * Webhooks: a user's addresses told about finished work and a low balance. Each event becomes a
 * delivery row and a `webhook-deliver` job (the job table: retried with backoff, kept across
 * restarts), signed per Standard Webhooks and sent through the same guard as video links.
 */
export class WebhooksService {
  private objects?: WebhookObjects;

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly queue: JobQueue,
    private readonly settings: WebhookSettings,
    private readonly log: Logger,
  ) {}

  /** The readers of tasks and exports, built after this service (they report to it). */
  readObjectsWith(objects: WebhookObjects): void {
    this.objects = objects;
  }

  async create(userId: string, body: CreateWebhookBody): Promise<CreatedWebhook> {
    if ((await this.webhooks.countOf(userId)) >= WEBHOOKS_PER_USER_MAX) {
      throw new AppError(
        ERROR_CODES.TOO_MANY_WEBHOOKS,
        409,
        `You already have ${WEBHOOKS_PER_USER_MAX} webhooks; delete one first`,
      );
    }
    await this.assertReachable(body.url);
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const row = await this.webhooks.insert({
      userId,
      url: body.url,
      events: [...new Set(body.events)],
      secret,
    });
    return { id: row.id, secret };
  }

  async list(userId: string): Promise<Webhook[]> {
    return (await this.webhooks.listOf(userId)).map(toDto);
  }

  async update(userId: string, id: string, body: UpdateWebhookBody): Promise<Webhook> {
    const row = await this.webhooks.owned(userId, id);
    if (body.url !== undefined) await this.assertReachable(body.url);
    return toDto(
      await this.webhooks.update(row.id, {
        ...(body.url !== undefined && { url: body.url }),
        ...(body.events !== undefined && { events: [...new Set(body.events)] }),
        ...(body.enabled !== undefined && { enabled: body.enabled }),
      }),
    );
  }

  async delete(userId: string, id: string): Promise<void> {
    const row = await this.webhooks.owned(userId, id);
    await this.webhooks.delete(row.id);
  }

  /** Queues a `webhook.test` delivery to this webhook alone (enabled or not). */
  async sendTest(userId: string, id: string): Promise<WebhookDelivery> {
    const row = await this.webhooks.owned(userId, id);
    return deliveryDto(await this.queueDelivery(row, WEBHOOK_TEST_EVENT, { webhook_id: row.id }));
  }

  async deliveries(userId: string, id: string): Promise<WebhookDelivery[]> {
    const row = await this.webhooks.owned(userId, id);
    return (await this.webhooks.deliveriesOf(row.id, DELIVERIES_SHOWN)).map(deliveryDto);
  }

  /**
   * Told by the notifications (the one place a task's or an export's end is recorded); never
   * throws: a webhook that cannot be queued must not fail the work it reports.
   */
  async finished(work: FinishedWork): Promise<void> {
    const event = eventOf(work);
    if (!event) return;
    try {
      const targets = await this.webhooks.subscribedTo(work.userId, event);
      if (!targets.length || !this.objects) return;
      const data =
        work.kind === 'task'
          ? await this.objects.task(work.userId, work.id)
          : await this.objects.job(work.userId, work.id);
      for (const target of targets) await this.queueDelivery(target, event, data);
    } catch (err) {
      this.log.error(
        { err, userId: work.userId, [work.kind === 'task' ? 'taskId' : 'jobId']: work.id, event },
        'could not queue a webhook delivery',
      );
    }
  }

  /**
   * Told after the user's credits moved: below CREDITS_LOW_THRESHOLD, `credits.low` goes once to
   * each webhook that asked for it; at or above it, the next fall is announced again.
   */
  async creditsMoved(userId: string): Promise<void> {
    try {
      // Most users have no such webhook: one indexed read, and nothing more for them.
      if (!(await this.webhooks.subscribedTo(userId, 'credits.low')).length) return;
      const balance = await this.objects?.credits(userId);
      if (balance === undefined) return;
      if (balance === null || balance >= CREDITS_LOW_THRESHOLD) {
        await this.webhooks.setCreditsLowSent(userId, false);
        return;
      }
      const targets = await this.webhooks.setCreditsLowSent(userId, true);
      for (const target of targets) {
        await this.queueDelivery(target, 'credits.low', {
          feature: 'CREDIT',
          balance,
          threshold: CREDITS_LOW_THRESHOLD,
        });
      }
    } catch (err) {
      this.log.error({ err, userId }, 'could not check the balance for credits.low');
    }
  }

  /**
   * One attempt of a delivery (the `webhook-deliver` job). Throws while attempts remain, so the
   * queue retries it with backoff; the last failure marks it failed.
   */
  async deliver(deliveryId: string): Promise<void> {
    const found = await this.webhooks.delivery(deliveryId);
    // Deleted with its webhook, or settled by an attempt whose job ended before it was acked.
    if (!found || found.delivery.status !== 'pending') return;
    const { delivery, webhook } = found;
    if (!webhook.enabled && delivery.event !== WEBHOOK_TEST_EVENT) {
      const at = Date.now();
      const skipped = { at, response_code: null, error: 'webhook disabled', duration_ms: 0 };
      await this.webhooks.recordAttempt(delivery.id, skipped, 'failed');
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const sentAt = new Date();
    const headers = {
      'webhook-id': delivery.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new StandardWebhook(webhook.secret).sign(delivery.id, sentAt, body),
    };
    let responseCode: number | null = null;
    let error: string | null = null;
    try {
      const answer = await postToPublicUrl(webhook.url, {
        body,
        headers,
        timeoutMs: this.settings.timeoutMs,
        allowPrivate: this.settings.allowPrivate,
        allowHosts: this.settings.allowHosts,
      });
      responseCode = answer.status;
      if (responseCode < 200 || responseCode >= 300) error = `answered ${responseCode}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const attempt = delivery.attempts + 1;
    const status = !error ? 'succeeded' : attempt >= MAX_ATTEMPTS ? 'failed' : 'pending';
    await this.webhooks.recordAttempt(
      delivery.id,
      {
        at: sentAt.getTime(),
        response_code: responseCode,
        error,
        duration_ms: Date.now() - sentAt.getTime(),
      },
      status,
    );
    const ids = { deliveryId, webhookId: webhook.id, userId: webhook.userId, attempt };
    if (status === 'failed') this.log.warn({ ...ids, error }, 'webhook delivery failed for good');
    if (status === 'pending') throw new Error(`webhook delivery ${deliveryId}: ${error}; retried`);
  }

  private async queueDelivery(
    target: WebhookRow,
    event: string,
    data: unknown,
  ): Promise<DeliveryRow> {
    const id = `msg_${randomBytes(16).toString('hex')}`;
    const delivery = await this.webhooks.insertDelivery({
      id,
      webhookId: target.id,
      event,
      payload: { type: event, timestamp: new Date().toISOString(), data },
    });
    await this.queue.send(
      'webhook-deliver',
      { deliveryId: id },
      { retryDelaySeconds: this.settings.retryDelaySeconds },
    );
    return delivery;
  }

  /** A receiver must be a public http(s) address unless the operator allowed private ones. */
  private async assertReachable(url: string): Promise<void> {
    if (this.settings.allowPrivate) httpUrlOf(url);
    else await assertPublicUrl(url, { allowHosts: this.settings.allowHosts });
  }
}
