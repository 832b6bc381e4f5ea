import { ComingSoonBody, HealthReply } from '@moments/contract';
import { z } from 'zod';
import type { FeedbackRepository } from '../feedback/feedback.repository.js';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';

export const APP_VERSION = '0.1.0';

export function registerSystemRoutes(
  app: App,
  signups: Pick<FeedbackRepository, 'saveComingSoonSignup'>,
  /** Per client address: the sign-up needs no account. */
  formRateLimit: { max: number; timeWindow: number },
) {
  const route = jsonRoutes(app, ['system']);
  route.open(
    'get',
    '/api/health',
    { summary: 'Answers 200 once the server is ready', data: HealthReply },
    () => ({ status: 'ok' as const, version: APP_VERSION }),
  );

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  route.open(
    'post',
    '/sys/coming_soon',
    {
      summary: 'Sign up for updates about coming features',
      body: ComingSoonBody,
      data: z.null(),
      config: { rateLimit: formRateLimit },
    },
    ({ body }) => signups.saveComingSoonSignup(body),
  );
}
