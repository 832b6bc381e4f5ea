import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenScope } from '@moments/contract';
import { unauthorized } from './errors.js';
import { assertTokenMayCall } from './token-scopes.js';

export const SESSION_COOKIE = 'moments_session';

export interface AuthenticatedUser {
  id: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook when a valid cookie or bearer token came with the request. */
    user: AuthenticatedUser | null;
    sessionToken: string | null;
    /** Set instead of `sessionToken` when the bearer token is a personal API token. */
    apiToken: { tokenId: string; scopes: ApiTokenScope[] } | null;
  }
}

/** The token a request carries: `Authorization: Bearer` first (API and realtime clients), then the cookie. */
export function tokenFromRequest(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || null;
  return request.cookies[SESSION_COOKIE] ?? null;
}

/** preHandler for routes that need a signed-in user (an API token's scopes must cover the call). */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) throw unauthorized();
  if (request.apiToken) assertTokenMayCall(request, request.apiToken.scopes);
}

/** The signed-in user of a request behind `requireUser`. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
