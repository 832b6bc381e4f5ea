import {
  CreateWebhookBody,
  CreatedWebhook,
  ERROR_CODES,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
} from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { WebhooksService } from './webhooks.service.js';

const IdParam = z.object({ id: z.string().min(1).max(100) });
/** What saving a receiver's address can answer: the same guard as video links. */
const ADDRESS_ERRORS = [
  ERROR_CODES.INVALID_URL,
  ERROR_CODES.PRIVATE_ADDRESS,
  ERROR_CODES.LINK_UNREACHABLE,
] as const;

/** Webhooks: the user's receivers of signed events, a test event, and the delivery log. */
export function registerWebhookRoutes(app: App, webhooks: WebhooksService) {
  const route = jsonRoutes(app, ['webhooks']);
  route.user(
    'post',
    '/api/webhooks',
    {
      summary:
        'Add a webhook: events are POSTed to `url`, signed per Standard Webhooks with the `secret` of this reply (shown once)',
      body: CreateWebhookBody,
      data: CreatedWebhook,
      errors: [...ADDRESS_ERRORS, ERROR_CODES.TOO_MANY_WEBHOOKS],
    },
    ({ userId, body }) => webhooks.create(userId, body),
  );
  route.user(
    'get',
    '/api/webhooks/list',
    { summary: "The user's webhooks, newest first (never the secret)", data: z.array(Webhook) },
    ({ userId }) => webhooks.list(userId),
  );
  route.user(
    'put',
    '/api/webhooks/:id',
    {
      summary: "Change a webhook's address, events or whether it is on",
      params: IdParam,
      body: UpdateWebhookBody,
      data: Webhook,
      errors: ADDRESS_ERRORS,
    },
    ({ userId, params, body }) => webhooks.update(userId, params.id, body),
  );
  route.user(
    'delete',
    '/api/webhooks/:id',
    {
      summary: 'Delete a webhook and its delivery log',
      params: IdParam,
      data: z.null(),
    },
    ({ userId, params }) => webhooks.delete(userId, params.id),
  );
  route.user(
    'post',
    '/api/webhooks/:id/test',
    {
      summary: 'Send a `webhook.test` event to this webhook now; its delivery is in the log',
      params: IdParam,
      data: WebhookDelivery,
    },
    ({ userId, params }) => webhooks.sendTest(userId, params.id),
  );
  route.user(
    'get',
    '/api/webhooks/:id/deliveries',
    {
      summary:
        "The webhook's latest deliveries, newest first: status, response code, every attempt and its time",
      params: IdParam,
      data: z.array(WebhookDelivery),
    },
    ({ userId, params }) => webhooks.deliveries(userId, params.id),
  );
}
