import { NOTIFICATION_PAGE_SIZE, Notification, pageOf } from '@moments/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { isUuid } from '../../db/owned.js';
import type { NotificationsService } from './notifications.service.js';
import { NUL_FREE_PATTERN } from '../../http/text-guard.js';

/** The web client sends its STOMP session id so its own sync echo is skipped. */
const STOMP_SESSION_HEADER = 'x-stomp-session';
const originSession = (request: FastifyRequest) => {
  const value = request.headers[STOMP_SESSION_HEADER];
  return typeof value === 'string' && value.length <= 100 ? value : undefined;
};

/** A list of ids, as a bare array or as `{ ids }`. Malformed ids are ignored. */
// The ids that name no notification are dropped, so the text guard never sees them: the NUL rule
// the document states for every string is checked here, on the input.
const Id = z.string().max(100).regex(new RegExp(NUL_FREE_PATTERN), 'holds a NUL character');
const IdList = z
  .union([z.array(Id).max(500), z.object({ ids: z.array(Id).max(500) })])
  .transform((value) => (Array.isArray(value) ? value : value.ids).filter(isUuid));

export function registerNotificationRoutes(app: App, notifications: NotificationsService) {
  const route = jsonRoutes(app, ['notifications']);
  // Marking viewed and deleting both take a list of ids, answer the ids they acted on and tell
  // the user's other clients (skipping the one that asked).
  const idListRoute = (
    method: 'post' | 'delete',
    url: string,
    summary: string,
    act: (userId: string, ids: string[], origin: string | undefined) => Promise<string[]>,
  ) =>
    route.user(
      method,
      url,
      { summary, body: IdList, data: z.array(z.string()) },
      ({ userId, body, request }) => act(userId, body, originSession(request)),
    );

  route.user(
    'get',
    '/api/notify/history',
    {
      summary: 'Notifications, newest first; `created` (ms) is the first request time as cutoff',
      querystring: z.object({
        page_num: z.coerce.number().int().min(1).default(1),
        page_size: z.coerce.number().int().min(1).max(100).default(NOTIFICATION_PAGE_SIZE),
        // ms since 1970, up to the year 2100 (a Date the database can store)
        created: z.coerce.number().int().positive().max(4_102_444_800_000).optional(),
      }),
      data: pageOf(Notification),
    },
    ({ userId, query }) =>
      notifications.history(userId, query.page_num, query.page_size, query.created),
  );

  idListRoute(
    'post',
    '/api/notify/viewed',
    'Mark notifications viewed; other clients get SYNC_NOTIFY_VIEW',
    (userId, ids, origin) => notifications.markViewed(userId, ids, origin),
  );

  route.user(
    'post',
    '/api/notify/all-viewed',
    { summary: 'Mark every notification viewed', data: z.null() },
    ({ userId, request }) => notifications.markAllViewed(userId, originSession(request)),
  );

  idListRoute(
    'delete',
    '/api/notify/delete',
    'Delete notifications; other clients get SYNC_NOTIFY_DELETE',
    (userId, ids, origin) => notifications.delete(userId, ids, origin),
  );
}
