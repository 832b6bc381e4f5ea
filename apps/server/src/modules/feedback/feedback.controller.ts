import { ERROR_CODES, HelpFeedbackBody } from '@moments/contract';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { Mailer } from '../mail/index.js';
import type { FeedbackRepository } from './feedback.repository.js';
import type { UsersRepository } from '../auth/users.repository.js';

/** Where feedback is kept, who sent it, and how it reaches the operator. */
export interface FeedbackParts {
  feedback: FeedbackRepository;
  users: UsersRepository;
  mailer: Mailer;
}

export interface FeedbackRoutesOptions {
  /** Absent: feedback is stored (and logged) but not mailed. */
  operatorEmail?: string;
  /** Per client address: anyone may send feedback with just an email. */
  rateLimit: { max: number; timeWindow: number };
}

/** /settings/faq?feedback=1: help feedback, stored and mailed to the operator. */
export function registerFeedbackRoutes(
  app: App,
  parts: FeedbackParts,
  options: FeedbackRoutesOptions,
) {
  jsonRoutes(app, ['system']).open(
    'post',
    '/api/feedback',
    {
      summary: 'Sends feedback to the operator (logged in, or with an email)',
      body: HelpFeedbackBody,
      data: z.object({ id: z.string() }),
      errors: [ERROR_CODES.INVALID_INPUT],
      config: { rateLimit: options.rateLimit },
    },
    async ({ userId, body, request }) => {
      const user = userId ? await parts.users.findById(userId) : undefined;
      const email = user?.email ?? body.email;
      if (!email) {
        throw new AppError(
          ERROR_CODES.INVALID_INPUT,
          422,
          'Please give an email address so we can answer',
        );
      }
      const id = await parts.feedback.saveFeedback({
        userId: user?.id ?? null,
        email,
        content: body.content,
      });
      if (options.operatorEmail) {
        await parts.mailer.send({
          to: options.operatorEmail,
          category: 'operator',
          subject: `Feedback from ${email}`,
          text: `${body.content}\n\nFrom: ${email}${user ? ` (user ${user.id})` : ''}\n`,
        });
      } else {
        request.log.info({ feedbackId: id }, 'feedback stored; OPERATOR_EMAIL not set');
      }
      return { id };
    },
  );
}
