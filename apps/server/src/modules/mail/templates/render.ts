import { render } from '@react-email/render';
import type { ReactElement } from 'react';
import type { MailMessage } from '../mailer.js';
import type { MailFooter } from './layout.js';

/** A mail's body from the template set: one element, rendered to the HTML and the text part. */
export type MailBody = (footer: MailFooter | undefined) => ReactElement;

/** Both parts of a mail from one template: HTML for mail clients, plain text beside it. */
async function renderMail(
  body: MailBody,
  footer?: MailFooter,
): Promise<{ html: string; text: string }> {
  const element = body(footer);
  const [html, text] = await Promise.all([
    render(element),
    // Links keep their address in the text part ("Open the captions [https://...]").
    render(element, { plainText: true }),
  ]);
  return { html, text };
}
/** A mail ready for a transport: its parts rendered, the template dropped. */
export async function renderedMessage(
  message: MailMessage,
  footer?: MailFooter,
): Promise<Omit<MailMessage, 'body'>> {
  const { body, ...rest } = message;
  if (!body) return rest;
  return { ...rest, ...(await renderMail(body, footer)) };
}
