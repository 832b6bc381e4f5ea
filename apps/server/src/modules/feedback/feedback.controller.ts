import { ERROR_CODES, HelpFeedbackBody, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { feedback } from '../../db/schema.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { App } from '../../http/types.js';
import type { Mailer } from '../../mail/index.js';
import type { UsersRepository } from '../../repositories/users.repository.js';

export interface FeedbackRoutesOptions {
  db: Db;
  users: UsersRepository;
  mailer: Mailer;
  /** Absent: feedback is stored (and logged) but not mailed. */
  operatorEmail?: string;
}

/** spec §2 /settings/faq?feedback=1: help feedback, stored and mailed to the operator. */
export function registerFeedbackRoutes(app: App, options: FeedbackRoutesOptions) {
  app.post(
    '/api/feedback',
    {
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: ['system'],
        summary: 'Sends feedback to the operator (logged in, or with an email)',
        body: HelpFeedbackBody,
        response: { 200: envelopeOf(z.object({ id: z.string() })) },
      },
    },
    async (request) => {
      const user = request.user ? await options.users.findById(request.user.id) : undefined;
      const email = user?.email ?? request.body.email;
      if (!email) {
        throw new AppError(
          ERROR_CODES.VALIDATION_FAILED,
          400,
          'Please give an email address so we can answer',
        );
      }
      const [row] = await options.db
        .insert(feedback)
        .values({ userId: user?.id ?? null, email, content: request.body.content })
        .returning({ id: feedback.id });
      if (options.operatorEmail) {
        await options.mailer.send({
          to: options.operatorEmail,
          category: 'operator',
          subject: `Feedback from ${email}`,
          text: `${request.body.content}\n\nFrom: ${email}${user ? ` (user ${user.id})` : ''}\n`,
        });
      } else {
        request.log.info({ feedbackId: row!.id }, 'feedback stored; OPERATOR_EMAIL not set');
      }
      return ok({ id: row!.id });
    },
  );
}
