import type { JobQueue } from '../../queue/queue.js';
import { renderedMessage, type MailMessage, type Mailer } from './mailer.js';

/** A mail ready for a transport, as the `mail-send` job carries it: rendered, so JSON. */
export type QueuedMail = Awaited<ReturnType<typeof renderedMessage>>;

/**
 * Sends through the job table (`mail-send`): the request only stores the rendered mail, and a
 * worker hands it to the SMTP server, retried by the kind's policy. So a slow or failing SMTP
 * server neither slows the request nor loses the mail.
 */
export class QueuedMailer implements Mailer {
  constructor(private readonly queue: Pick<JobQueue, 'send'>) {}

  async send(message: MailMessage): Promise<void> {
    const mail = await renderedMessage(message);
    // userId and category at the top level: the worker's log lines carry them as run ids.
    await this.queue.send('mail-send', {
      category: mail.category,
      ...(mail.userId && { userId: mail.userId }),
      mail,
    });
  }
}
