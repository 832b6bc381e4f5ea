import { ApiToken, CreateApiTokenBody, CreatedApiToken, ERROR_CODES } from '@moments/contract';
import { z } from 'zod';
import { jsonRoutes } from '../../http/route.js';
import type { App } from '../../http/types.js';
import type { ApiTokensService } from './api-tokens.service.js';

/** Personal API tokens: made by a signed-in session only, listed without the token, revoked. */
export function registerApiTokenRoutes(app: App, tokens: ApiTokensService) {
  const route = jsonRoutes(app, ['tokens']);
  route.user(
    'post',
    '/api/tokens',
    {
      summary:
        'Make a personal API token (`Authorization: Bearer mom_…`); the token is in this reply only. Needs a signed-in session, not a token',
      body: CreateApiTokenBody,
      data: CreatedApiToken,
      errors: [ERROR_CODES.INVALID_INPUT, ERROR_CODES.TOO_MANY_TOKENS],
      config: { scope: 'session' },
    },
    ({ userId, body }) => tokens.create(userId, body),
  );
  route.user(
    'get',
    '/api/tokens/list',
    {
      summary: "The user's API tokens: name, scopes, created, last used, expiry (never the token)",
      data: z.array(ApiToken),
    },
    ({ userId }) => tokens.list(userId),
  );
  route.userById(
    'delete',
    '/api/tokens/:id',
    'Revoke an API token: it answers 401 from now on, its realtime sockets close',
    z.null(),
    (userId, id) => tokens.revoke(userId, id),
  );
}
