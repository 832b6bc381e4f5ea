import { ERROR_CODES, SummaryView, chargeErrors } from '@moments/contract';
import { z } from 'zod';
import { ShareLink, jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { SummariesService } from './summaries.service.js';

const TaskQuery = z.object({ task_id: z.string().min(1).max(100) });

/** Summaries: the owner's summary of a task, refresh, share and unshare. */
export function registerSummaryRoutes(app: App, summaries: SummariesService) {
  const route = jsonRoutes(app, ['summaries']);
  route.user(
    'get',
    '/api/summary',
    { summary: "A task's summary with its transcript", querystring: TaskQuery, data: SummaryView },
    ({ userId, query }) => summaries.view(userId, query.task_id),
  );
  route.user(
    'post',
    '/api/summary/refresh',
    {
      summary: 'Make the summary again (costs credits)',
      querystring: TaskQuery,
      data: SummaryView,
      errors: [
        ERROR_CODES.TASK_NOT_RETRYABLE,
        ERROR_CODES.INVALID_INPUT,
        ...chargeErrors('CREDIT'),
      ],
      idempotent: true,
    },
    ({ userId, query }) => summaries.refresh(userId, query.task_id),
  );
  route.user(
    'post',
    '/api/summary/share',
    {
      summary: 'An unlisted public link /s/{id} to the summary',
      querystring: TaskQuery,
      data: ShareLink,
    },
    ({ userId, query }) => summaries.share(userId, query.task_id),
  );
  route.user(
    'delete',
    '/api/summary/share',
    { summary: 'Revoke the public link', querystring: TaskQuery, data: z.null() },
    ({ userId, query }) => summaries.unshare(userId, query.task_id),
  );
}
