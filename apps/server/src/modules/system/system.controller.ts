import { ComingSoonBody, HealthReply, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { comingSoonSignups } from '../../db/schema.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';

export const APP_VERSION = '0.1.0';

export function registerSystemRoutes(app: App, db: Db) {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Answers 200 once the server is ready',
        response: { 200: envelopeOf(HealthReply) },
      },
    },
    async () => ok({ status: 'ok' as const, version: APP_VERSION }),
  );

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.post(
    '/sys/coming_soon',
    {
      schema: {
        tags: ['system'],
        summary: 'Sign up for updates about coming features (spec §7)',
        body: ComingSoonBody,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await db.insert(comingSoonSignups).values(request.body);
      return ok(null);
    },
  );
}
