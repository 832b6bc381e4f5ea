import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderedMessage, type MailBody } from './templates/render.js';

/**
 * What a mail is about. A user can stop each category separately (one-click unsubscribe);
 * `operator` mail goes to the instance operator and cannot be unsubscribed.
 */
export type MailCategory = 'account' | 'task' | 'export' | 'billing' | 'referral' | 'operator';

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part; made from `body` when that is given. */
  text: string;
  html?: string | undefined;
  /**
   * The mail from the template set (./templates): rendered to both the HTML and the text part,
   * with the footer the sender adds (multipart mail with absolute links).
   */
  body?: MailBody;
  category: MailCategory;
  /** The user the mail is for, when it is for a user: unsubscribe links and preferences need it. */
  userId?: string;
  /** Extra headers, e.g. List-Unsubscribe (set by the unsubscribe layer, not by callers). */
  headers?: Record<string, string>;
}

/** The narrowest thing callers need: send one message. Transports are chosen by configuration. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface OutboxEntry extends Omit<MailMessage, 'body'> {
  id: string;
  sentAt: string;
}

/**
 * The default transport: every mail becomes a JSON file in an outbox folder (and a log line), so a
 * one-machine install needs no mail server and tests can read what was sent.
 */
export class OutboxMailer implements Mailer {
  constructor(
    readonly dir: string,
    private readonly log?: (line: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const entry: OutboxEntry = {
      ...(await renderedMessage(message)),
      id: randomUUID(),
      sentAt: new Date().toISOString(),
    };
    const name = `${entry.sentAt.replace(/[:.]/g, '-')}-${entry.id}.json`;
    await writeFile(path.join(this.dir, name), JSON.stringify(entry, null, 2));
    this.log?.(`mail to ${message.to} [${message.category}]: ${message.subject}`);
  }

  /** Everything in the outbox, oldest first. */
  async list(): Promise<OutboxEntry[]> {
    // No outbox folder yet: no mail was written.
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const entries = await Promise.all(
      names
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map(
          async (name) =>
            JSON.parse(await readFile(path.join(this.dir, name), 'utf8')) as OutboxEntry,
        ),
    );
    return entries;
  }
}

export { SmtpMailer } from './smtp.js';
export { renderedMessage } from './templates/render.js';
export { UnsubscribeTokens } from './unsubscribe-token.js';
