import {
  CreateWebhookBody,
  CreatedWebhook,
  ERROR_CODES,
  UpdateWebhookBody,
  Webhook,
  WebhookDelivery,
} from '@moments/contract';
import { z } from 'zod';
import { IdInput, jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { WebhooksService } from './webhooks.service.js';

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
      params: IdInput,
      body: UpdateWebhookBody,
      data: Webhook,
      errors: ADDRESS_ERRORS,
    },
    ({ userId, params, body }) => webhooks.update(userId, params.id, body),
  );
  route.userById(
    'delete',
    '/api/webhooks/:id',
    'Delete a webhook and its delivery log',
    z.null(),
    (userId, id) => webhooks.delete(userId, id),
  );
  route.userById(
    'post',
    '/api/webhooks/:id/test',
    'Send a `webhook.test` event to this webhook now; its delivery is in the log',
    WebhookDelivery,
    (userId, id) => webhooks.sendTest(userId, id),
  );
  route.userById(
    'get',
    '/api/webhooks/:id/deliveries',
    "The webhook's latest deliveries, newest first: status, response code, every attempt and its time",
    z.array(WebhookDelivery),
    (userId, id) => webhooks.deliveries(userId, id),
  );
}
