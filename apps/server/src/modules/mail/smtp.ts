import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from './mailer.js';
import { renderedMessage } from './templates/render.js';

/** Sends through an SMTP server (SMTP_URL, e.g. smtps://user:pass@mail.example.org:465). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly log?: (line: string) => void,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(template: MailMessage): Promise<void> {
    const message = await renderedMessage(template);
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      headers: message.headers,
    });
    this.log?.(`mail sent to ${message.to} [${message.category}]: ${message.subject}`);
  }

  close(): void {
    this.transport.close();
  }
}
