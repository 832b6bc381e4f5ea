import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from './errors.js';

export const SESSION_COOKIE = 'moments_session';

export interface AuthenticatedUser {
  id: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook when a valid cookie or bearer token came with the request. */
    user: AuthenticatedUser | null;
    sessionToken: string | null;
  }
}

/** The token a request carries: `Authorization: Bearer` first (API and realtime clients), then the cookie. */
export function tokenFromRequest(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || null;
  return request.cookies[SESSION_COOKIE] ?? null;
}

/** preHandler for routes that need a signed-in user. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) throw unauthorized();
}

/** The signed-in user of a request behind `requireUser`. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
