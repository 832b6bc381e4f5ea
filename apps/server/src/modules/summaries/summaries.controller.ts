import { SummaryView, envelopeOf } from '@moments/contract';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import type { SummariesService } from './summaries.service.js';

const TaskQuery = z.object({ task_id: z.string().max(100) });
const ShareReply = envelopeOf(z.object({ share_id: z.string(), path: z.string() }));

/** issue 10 summaries: the owner's summary of a task, refresh, share and unshare. */
export function registerSummaryRoutes(app: App, summaries: SummariesService) {
  const tags = ['summaries'];
  app.get(
    '/api/summary',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "A task's summary with its transcript",
        querystring: TaskQuery,
        response: { 200: envelopeOf(SummaryView) },
      },
    },
    async (request) => ok(await summaries.view(currentUser(request).id, request.query.task_id)),
  );
  app.post(
    '/api/summary/refresh',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Make the summary again (costs credits)',
        querystring: TaskQuery,
        response: { 200: envelopeOf(SummaryView) },
      },
    },
    async (request) => ok(await summaries.refresh(currentUser(request).id, request.query.task_id)),
  );
  app.post(
    '/api/summary/share',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'An unlisted public link /s/{id} to the summary',
        querystring: TaskQuery,
        response: { 200: ShareReply },
      },
    },
    async (request) => ok(await summaries.share(currentUser(request).id, request.query.task_id)),
  );
  app.delete(
    '/api/summary/share',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Revoke the public link',
        querystring: TaskQuery,
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await summaries.unshare(currentUser(request).id, request.query.task_id);
      return ok(null);
    },
  );
}
