import { CreditHistory, CreditHistoryQuery } from '@moments/contract';
import { jsonRoutes } from '../../../http/route.js';
import type { App } from '../../../http/types.js';
import type { CreditReads } from './credit-reads.js';

/** Credit history: every movement of the signed-in user's credits, newest first. */
export function registerCreditRoutes(app: App, options: { reads: CreditReads }) {
  jsonRoutes(app, ['billing']).user(
    'get',
    '/api/credit/history',
    {
      summary:
        'Every credit movement (charge, refund, grant, expiry) with the work it belongs to, and the balance by bucket',
      querystring: CreditHistoryQuery,
      data: CreditHistory,
    },
    ({ userId, query }) => options.reads.history(userId, query.page_num, query.page_size),
  );
}
