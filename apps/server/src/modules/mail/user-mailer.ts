import { renderedMessage, type MailMessage, type Mailer } from './mailer.js';
import type { UnsubscribeTokens } from './mailer.js';
import type { MailPreferencesService } from './mail-preferences.service.js';
import { isUserMailCategory } from './mail-preferences.service.js';

/**
 * The `services.mailer` every feature sends through: it drops mail of a category the user
 * stopped, and adds to the rest the one-click unsubscribe link (body) and the RFC 8058
 * List-Unsubscribe headers (for mail clients' own unsubscribe button).
 */
export class UserMailer implements Mailer {
  constructor(
    private readonly transport: Mailer,
    private readonly preferences: MailPreferencesService,
    private readonly tokens: UnsubscribeTokens,
    private readonly publicUrl: string,
    private readonly log?: (line: string) => void,
  ) {}

  async send(message: MailMessage): Promise<void> {
    if (!message.userId || !isUserMailCategory(message.category)) {
      await this.transport.send(message);
      return;
    }
    if (await this.preferences.isStopped(message.userId, message.category)) {
      this.log?.(`mail [${message.category}] to user ${message.userId} not sent: unsubscribed`);
      return;
    }
    const token = this.tokens.sign({ userId: message.userId, category: message.category });
    const pageUrl = new URL(`/unsubscribe/${token}`, this.publicUrl).toString();
    const oneClickUrl = new URL(`/api/unsubscribe/${token}`, this.publicUrl).toString();
    const footer = `You get this mail because of your Moments account. Stop these mails: ${pageUrl}`;
    // A templated mail renders its footer itself, into both parts.
    const parts = message.body
      ? await renderedMessage(message, { unsubscribeUrl: pageUrl })
      : { ...message, text: `${message.text}\n\n--\n${footer}\n` };
    await this.transport.send({
      ...parts,
      headers: {
        ...message.headers,
        'List-Unsubscribe': `<${oneClickUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
  }
}
