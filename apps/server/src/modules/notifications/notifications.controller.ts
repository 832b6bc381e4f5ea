import { NOTIFICATION_PAGE_SIZE, Notification, envelopeOf, pageOf } from '@moments/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { isUuid } from '../../repositories/owned.js';
import type { NotificationsService } from './notifications.service.js';

/** The web client sends its STOMP session id so its own sync echo is skipped (spec §4). */
const STOMP_SESSION_HEADER = 'x-stomp-session';
const originSession = (request: FastifyRequest) => {
  const value = request.headers[STOMP_SESSION_HEADER];
  return typeof value === 'string' && value.length <= 100 ? value : undefined;
};

/** spec §7: a list of ids, as a bare array or as `{ ids }`. Malformed ids are ignored. */
const IdList = z
  .union([
    z.array(z.string().max(100)).max(500),
    z.object({ ids: z.array(z.string().max(100)).max(500) }),
  ])
  .transform((value) => (Array.isArray(value) ? value : value.ids).filter(isUuid));

export function registerNotificationRoutes(app: App, notifications: NotificationsService) {
  const tags = ['notifications'];

  app.get(
    '/api/notify/history',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Notifications, newest first; `created` (ms) is the first request time as cutoff',
        querystring: z.object({
          page_num: z.coerce.number().int().min(1).default(1),
          page_size: z.coerce.number().int().min(1).max(100).default(NOTIFICATION_PAGE_SIZE),
          created: z.coerce.number().int().positive().optional(),
        }),
        response: { 200: envelopeOf(pageOf(Notification)) },
      },
    },
    async (request) => {
      const { page_num, page_size, created } = request.query;
      return ok(await notifications.history(currentUser(request).id, page_num, page_size, created));
    },
  );

  app.post(
    '/api/notify/viewed',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Mark notifications viewed; other clients get SYNC_NOTIFY_VIEW',
        body: IdList,
        response: { 200: envelopeOf(z.array(z.string())) },
      },
    },
    async (request) =>
      ok(
        await notifications.markViewed(
          currentUser(request).id,
          request.body,
          originSession(request),
        ),
      ),
  );

  app.post(
    '/api/notify/all-viewed',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Mark every notification viewed',
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      await notifications.markAllViewed(currentUser(request).id, originSession(request));
      return ok(null);
    },
  );

  app.delete(
    '/api/notify/delete',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Delete notifications; other clients get SYNC_NOTIFY_DELETE',
        body: IdList,
        response: { 200: envelopeOf(z.array(z.string())) },
      },
    },
    async (request) =>
      ok(await notifications.delete(currentUser(request).id, request.body, originSession(request))),
  );
}
