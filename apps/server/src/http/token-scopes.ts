import { ERROR_CODES, type ApiTokenScope, type RequiredScope } from '@moments/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What an API token needs to call this signed-in route, when the rule below does not say it
     * right: `session` for what only a signed-in person may do (tokens, password, email, the
     * account itself).
     */
    scope?: RequiredScope;
    /** Set by the contract: the route is behind `requireUser`. */
    signedIn?: boolean;
  }
}

/** Tags whose changes are about the account itself: only a session may make them. */
const SESSION_TAGS = new Set(['auth', 'account']);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What a signed-in route needs from an API token: its own `config.scope`, else `session` for a
 * change to the account (auth and account tags), `billing` for a change to the plan or a
 * payment, `read` for a read, `write` for anything else (starting work, exports, edits).
 */
export function requiredScopeOf(route: {
  method: string | string[];
  config?: { scope?: RequiredScope };
  schema?: { tags?: readonly string[] };
}): RequiredScope {
  if (route.config?.scope) return route.config.scope;
  const methods = [route.method].flat().map((method) => method.toUpperCase());
  if (methods.every((method) => READS.has(method))) return 'read';
  const tags = route.schema?.tags ?? [];
  if (tags.some((tag) => SESSION_TAGS.has(tag))) return 'session';
  if (tags.includes('billing')) return 'billing';
  return 'write';
}

/** Whether granted scopes cover what is needed; `write` includes `read`. */
export function scopesAllow(granted: readonly ApiTokenScope[], needed: RequiredScope): boolean {
  if (needed === 'session') return false;
  return granted.includes(needed) || (needed === 'read' && granted.includes('write'));
}

/** Refuses a call an API token's scopes do not cover (403 with a code that says which). */
export function assertTokenMayCall(request: FastifyRequest, scopes: readonly ApiTokenScope[]) {
  const needed = requiredScopeOf({
    method: request.routeOptions.method ?? request.method,
    config: request.routeOptions.config,
    schema: request.routeOptions.schema as { tags?: readonly string[] } | undefined,
  });
  if (scopesAllow(scopes, needed)) return;
  if (needed === 'session') {
    throw new AppError(
      ERROR_CODES.SESSION_REQUIRED,
      403,
      'API tokens cannot do this; sign in to the app to do it',
    );
  }
  throw new AppError(
    ERROR_CODES.INSUFFICIENT_SCOPE,
    403,
    `This API token lacks the "${needed}" scope this call needs`,
    { required_scope: needed },
  );
}
