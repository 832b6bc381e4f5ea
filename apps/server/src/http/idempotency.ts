/**
 * Idempotency keys for the calls that start paid work, with Stripe's semantics: the first request
 * with a key runs and its reply is kept; a request with the same user and key within a day gets
 * that reply again (header `Idempotent-Replayed: true`) and nothing runs or is charged twice. The
 * same key with another request is refused (422 IDEMPOTENCY_KEY_REUSED); a repeat that arrives
 * while the first still runs waits for its reply. A request that fails on our side (5xx) keeps
 * nothing, so the same key may try again. Requests refused by their schema never take the key.
 * The keys live in the database, so every API process sees them.
 */
import { createHash } from 'node:crypto';
import {
  ERROR_CODES,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_TTL_HOURS,
  IdempotencyKey,
} from '@moments/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import stringify from 'safe-stable-stringify';
import { z } from 'zod';
import type { IdempotencyKeysRepository } from '../modules/idempotency/idempotency-keys.repository.js';
import { declaring } from './contract.js';
import { AppError } from './errors.js';
import type { App } from './types.js';

const HEADER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
const TTL_MS = IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000;
/** How long a repeat waits for the first request's reply before answering 409. */
const WAIT_FOR_FIRST_MS = 30_000;
const POLL_MS = 100;

/** The header as the routes document and check it: printable ASCII, as Stripe takes it. */
export const IdempotencyHeaders = z.object({
  [HEADER]: IdempotencyKey.optional().describe(
    `Optional. A key of your choosing (a UUID) for this action: repeating the request with the same key within ${IDEMPOTENCY_KEY_TTL_HOURS} h answers the first reply again and charges once.`,
  ),
});

declare module 'fastify' {
  interface FastifyInstance {
    idempotencyKeys: IdempotencyKeysRepository;
  }
  interface FastifyRequest {
    /** Set when this request took an Idempotency-Key: its reply is kept under it. */
    idempotencyClaim: { userId: string; key: string } | null;
  }
}

/** Keeps the replies of requests that took a key (an onSend hook) and makes the store reachable. */
export function registerIdempotency(app: App, keys: IdempotencyKeysRepository) {
  app.decorate('idempotencyKeys', keys);
  app.decorateRequest('idempotencyClaim', null);
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await keys.release(claim.userId, claim.key);
    } else {
      await keys.complete(claim.userId, claim.key, reply.statusCode, payload);
    }
    return payload;
  });
}

/** What makes two requests "the same": the route, its parameters, query and body. */
function fingerprintOf(request: FastifyRequest): string {
  const request_ = {
    method: request.method,
    route: request.routeOptions.url,
    params: request.params,
    query: request.query,
    body: request.body,
  };
  return createHash('sha256')
    .update(stringify(request_) ?? '')
    .digest('hex');
}

/**
 * preHandler of a paid route, after `requireUser`: takes the request's key, or answers the kept
 * reply of the request that took it first.
 */
export const idempotent = declaring(
  [ERROR_CODES.IDEMPOTENCY_KEY_REUSED, ERROR_CODES.IDEMPOTENCY_KEY_IN_USE],
  async function idempotent(request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers[HEADER];
    if (typeof key !== 'string' || !request.user) return;
    const keys = request.server.idempotencyKeys;
    const userId = request.user.id;
    const fingerprint = fingerprintOf(request);
    const expiredBefore = new Date(Date.now() - TTL_MS);
    if (await keys.claim(userId, key, fingerprint, expiredBefore)) {
      request.idempotencyClaim = { userId, key };
      return;
    }
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const first = await keys.find(userId, key);
      if (!first) {
        // The first request failed on our side and let the key go: this one runs instead.
        if (await keys.claim(userId, key, fingerprint, expiredBefore)) {
          request.idempotencyClaim = { userId, key };
          return;
        }
        continue;
      }
      if (first.fingerprint !== fingerprint) {
        throw new AppError(
          ERROR_CODES.IDEMPOTENCY_KEY_REUSED,
          422,
          'This Idempotency-Key was used for another request. Use a new key for a new action.',
        );
      }
      if (first.status !== null && first.body !== null) {
        return reply
          .code(first.status)
          .header('content-type', 'application/json; charset=utf-8')
          .header('idempotent-replayed', 'true')
          .send(first.body);
      }
      if (Date.now() > deadline) {
        throw new AppError(
          ERROR_CODES.IDEMPOTENCY_KEY_IN_USE,
          409,
          'The first request with this Idempotency-Key is still running. Ask again in a moment.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  },
);
