import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_PREFIX,
  API_TOKENS_PER_USER_MAX,
  ERROR_CODES,
  type ApiToken,
  type ApiTokenScope,
  type CreateApiTokenBody,
  type CreatedApiToken,
} from '@moments/contract';
import { isUuid } from '../../db/owned.js';
import { AppError, notFound } from '../../http/errors.js';
import type { Logger } from '../../logging.js';
import { disconnectMessage, type RealtimeBus } from '../../realtime/bus.js';
import type { ApiTokenRow, ApiTokensRepository } from './api-tokens.repository.js';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** How stale `last used` may get: one write a minute at most per token. */
const TOUCH_EVERY_MS = 60_000;

/** Who a request with an API token is, and what the token may do. */
export interface ApiTokenIdentity {
  userId: string;
  tokenId: string;
  scopes: ApiTokenScope[];
}

/** Whether a bearer token is an API token (rather than a session or a realtime ticket). */
export const isApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

/** The realtime session key of a token's sockets, so revoking it closes them everywhere. */
export const apiTokenSessionKey = (tokenId: string) => `api-token:${tokenId}`;

const toDto = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes as ApiTokenScope[],
  prefix: `${row.prefix}…`,
  created: row.createdAt.getTime(),
  last_used: row.lastUsedAt?.getTime() ?? null,
  expires_at: row.expiresAt?.getTime() ?? null,
});

/**
 * Personal API tokens: made by a signed-in session, shown once, kept as a SHA-256 hash (like
 * sessions), accepted as `Authorization: Bearer` on the API and on the realtime CONNECT.
 */
export class ApiTokensService {
  constructor(
    private readonly tokens: ApiTokensRepository,
    private readonly log: Logger,
    /** Where a revoked token's open sockets are told to close, on every API process. */
    private readonly bus?: RealtimeBus,
  ) {}

  async create(userId: string, body: CreateApiTokenBody): Promise<CreatedApiToken> {
    if (body.expires_at != null && body.expires_at <= Date.now()) {
      throw new AppError(ERROR_CODES.INVALID_INPUT, 422, 'The expiry must be in the future');
    }
    if ((await this.tokens.countOf(userId)) >= API_TOKENS_PER_USER_MAX) {
      throw new AppError(
        ERROR_CODES.TOO_MANY_TOKENS,
        409,
        `You already have ${API_TOKENS_PER_USER_MAX} API tokens; revoke one first`,
      );
    }
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = await this.tokens.insert({
      userId,
      name: body.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, API_TOKEN_PREFIX.length + 4),
      scopes: [...new Set(body.scopes)],
      expiresAt: body.expires_at != null ? new Date(body.expires_at) : null,
    });
    return { id: row.id, token };
  }

  async list(userId: string): Promise<ApiToken[]> {
    return (await this.tokens.listOf(userId)).map(toDto);
  }

  /** Revokes a token: it answers 401 from now on and its open realtime sockets close. */
  async revoke(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.tokens.delete(userId, id))) throw notFound('API token');
    await this.bus?.publish(userId, disconnectMessage(apiTokenSessionKey(id)));
  }

  /** Revokes all of a user's tokens (the account is deleted): each answers 401, its sockets close. */
  async revokeAll(userId: string): Promise<void> {
    for (const id of await this.tokens.deleteAllOf(userId)) {
      await this.bus?.publish(userId, disconnectMessage(apiTokenSessionKey(id)));
    }
  }

  /** The identity of a valid, unexpired API token, or null. Records its use. */
  async authenticate(token: string): Promise<ApiTokenIdentity | null> {
    if (!isApiToken(token) || token.length > 200) return null;
    const row = await this.tokens.findByHash(hashToken(token));
    const now = new Date();
    if (!row || (row.expiresAt && row.expiresAt <= now)) return null;
    const staleBefore = new Date(now.getTime() - TOUCH_EVERY_MS);
    if (!row.lastUsedAt || row.lastUsedAt < staleBefore) {
      // `last used` is a convenience: a failed write must not fail the request it belongs to.
      await this.tokens.touch(row.id, now, staleBefore).catch((err: unknown) => {
        this.log.warn({ err, tokenId: row.id, userId: row.userId }, 'could not record a token use');
      });
    }
    return { userId: row.userId, tokenId: row.id, scopes: row.scopes as ApiTokenScope[] };
  }
}
