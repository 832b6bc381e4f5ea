import type { Services } from '../../services.js';
import type { JobHandler } from '../job-kinds.js';

/** Hands one queued mail to the SMTP server; a failure is retried by the kind's policy. */
export const mailSend =
  (services: Services): JobHandler<'mail-send'> =>
  (payload) =>
    services.mailTransport.send(payload.mail);
