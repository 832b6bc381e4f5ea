import http from 'node:http';
import {
  ERROR_CODES,
  ERROR_STATUS,
  errorEnvelopeOf,
  isErrorCode,
  type ErrorCode,
} from '@moments/contract';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import FindMyWay from 'find-my-way';
import { z } from 'zod';
import { requireUser } from './auth.js';
import { requiredScopeOf } from './token-scopes.js';
import type { App } from './types.js';

/**
 * The API contract: every operation of the OpenAPI document lists each error status it can
 * answer, the `{code, message, data}` envelope and the codes under each status. Most of it is
 * derived here from what a route is (see `derivedErrors`); a route adds only the codes of its own
 * logic, in `config.errors`. In tests (`strict`), a reply with a code the route did not declare
 * becomes a 500 naming the code to add, so a new route cannot drift from its document.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Codes this route's own logic answers (NOT_FOUND, CONFLICT...); the rest is derived. */
    errors?: readonly ErrorCode[];
    /**
     * Derived codes this route can never answer, e.g. NOT_FOUND for a field named like an id
     * that names nothing stored (a signed cursor): the document must not promise them.
     */
    neverAnswers?: readonly ErrorCode[];
    /** Set by the contract: every code the route may answer, by status. */
    declaredErrors?: ReadonlyMap<number, readonly ErrorCode[]>;
  }
  interface FastifySchema {
    /**
     * The multipart/form-data body of a route that reads its parts itself (uploads): documented
     * as the request body, not validated by Fastify (the handler streams the parts).
     */
    multipart?: { fields: Record<string, 'file' | 'string'>; required: string[] };
  }
}

const DECLARED = Symbol('declared errors');

/**
 * A hook (preHandler, onRequest) that answers errors of its own, declared once where it is made:
 * every route that uses it documents them. `requireUser` is known by itself (401 and `security`).
 */
export function declaring<Hook extends object>(codes: readonly ErrorCode[], hook: Hook): Hook {
  return Object.assign(hook, { [DECLARED]: codes });
}

const hooksOf = (route: RouteOptions): unknown[] => [route.preHandler, route.onRequest].flat();

/** The longest path parameter the router accepts; a longer one answers 414 URI_TOO_LONG. */
export const MAX_PARAM_LENGTH = 1024;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** An identifier of a stored thing: a lookup by it can miss (404). */
const ID_FIELD = /^(id|.+_id|token|shareId|file)$/;

/**
 * What any route can answer because of what it is, one rule a line. Adding a route adds its
 * errors with it; only what its own logic decides goes in `config.errors`.
 */
export function derivedErrors(route: RouteOptions): ErrorCode[] {
  const methods = [route.method].flat().map((method) => method.toUpperCase());
  const schema = route.schema ?? {};
  const hasBody = methods.some((method) => BODY_METHODS.has(method));
  const codes: ErrorCode[] = [
    // Every request: a failure of ours, the database (sessions are looked up on each request
    // with a token) down or out of disk (a write, or a read whose sort spills to disk), and
    // request headers over Node's limit.
    ERROR_CODES.INTERNAL,
    ERROR_CODES.DATABASE_UNAVAILABLE,
    ERROR_CODES.DISK_FULL,
    ERROR_CODES.HEADERS_TOO_LARGE,
  ];
  const inputs = [schema.body, schema.querystring, schema.params, schema.headers, schema.multipart];
  if (inputs.some(Boolean)) codes.push(ERROR_CODES.VALIDATION_FAILED);
  if (schema.querystring || schema.params) codes.push(ERROR_CODES.URI_TOO_LONG);
  if (hasBody) {
    // A malformed, oversized or unknown-typed body; a cross-site form (CSRF guard).
    codes.push(
      ERROR_CODES.BAD_REQUEST,
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
      ERROR_CODES.FORBIDDEN,
    );
  }
  const hooks = hooksOf(route);
  if (hooks.includes(requireUser)) {
    // A personal API token is refused beyond its scopes and limited per token.
    codes.push(ERROR_CODES.UNAUTHORIZED, ERROR_CODES.INSUFFICIENT_SCOPE, ERROR_CODES.RATE_LIMITED);
    if (requiredScopeOf(route) === 'session') codes.push(ERROR_CODES.SESSION_REQUIRED);
  }
  for (const hook of hooks) {
    const declared = (hook as { [DECLARED]?: readonly ErrorCode[] } | undefined)?.[DECLARED];
    if (declared) codes.push(...declared);
  }
  if (route.config?.rateLimit) codes.push(ERROR_CODES.RATE_LIMITED);
  if (schema.params || namesAnId(schema.querystring) || namesAnId(schema.body)) {
    codes.push(ERROR_CODES.NOT_FOUND);
  }
  return codes;
}

function namesAnId(schema: unknown): boolean {
  if (!(schema instanceof z.ZodType)) return false;
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
    oneOf?: { properties?: Record<string, unknown> }[];
    anyOf?: { properties?: Record<string, unknown> }[];
  };
  const branches = [json, ...(json.oneOf ?? []), ...(json.anyOf ?? [])];
  return branches.some((branch) =>
    Object.keys(branch.properties ?? {}).some((key) => ID_FIELD.test(key)),
  );
}

/** Codes by status, each status's codes in catalogue order. */
function byStatus(codes: Iterable<ErrorCode>): Map<number, ErrorCode[]> {
  const statuses = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_STATUS[code];
    statuses.set(status, [...(statuses.get(status) ?? []), code]);
  }
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

const envelopes = new Map<string, z.ZodType>();
/**
 * The error envelope of one status and code set, registered once under a name (one component
 * of the document that every operation answering the same refers to).
 */
function envelopeFor(status: number, codes: readonly ErrorCode[]) {
  const id = `Error${status}_${codes.join('_')}`;
  let envelope = envelopes.get(id);
  if (!envelope) {
    envelope = errorEnvelopeOf(codes).meta({ id });
    envelopes.set(id, envelope);
  }
  return {
    description: `${http.STATUS_CODES[status] ?? 'Error'}: ${codes.join(', ')}`,
    content: { 'application/json': { schema: envelope } },
  };
}

/** The OpenAPI `security` of a route behind `requireUser`: a bearer token or the session cookie. */
const SIGNED_IN: { [scheme: string]: string[] }[] = [{ bearer: [] }, { cookie: [] }];

/**
 * Installs the contract on `app` before any route is added: documents each route's errors and
 * security, records every path for 405 answers, and returns what the error handlers need.
 */
export function installApiContract(app: App, options: { strict: boolean }) {
  const paths = FindMyWay({ maxParamLength: MAX_PARAM_LENGTH });
  const knownMethods = new Set<string>();

  app.addHook('onRoute', (route) => {
    recordPath(paths, knownMethods, route);
    if (hooksOf(route).includes(requireUser)) route.config = { ...route.config, signedIn: true };
    if (!route.schema || route.schema.hide) return;
    assertParamsFitRouter(route);
    const never = new Set(route.config?.neverAnswers ?? []);
    const declared = byStatus(
      [...derivedErrors(route), ...(route.config?.errors ?? [])].filter((code) => !never.has(code)),
    );
    route.config = { ...route.config, declaredErrors: declared };
    const response: Record<string | number, unknown> = { ...(route.schema.response as object) };
    for (const [status, codes] of declared) response[status] = envelopeFor(status, codes);
    route.schema = {
      ...route.schema,
      response,
      ...(hooksOf(route).includes(requireUser) ? { security: SIGNED_IN } : {}),
    };
  });

  return {
    /**
     * The methods of the route that owns `url`'s path, or [] when none does (then it is a 404).
     * `/api/job/list` is owned by its own GET, not by `DELETE /api/job/:id`, which also matches it.
     */
    allowedMethods(url: string): string[] {
      const pathname = url.split('?')[0] ?? '/';
      const matches = [...knownMethods].flatMap((method) => {
        const found = paths.find(method as never, pathname);
        return found ? [{ method, pattern: String(found.store) }] : [];
      });
      const specificity = (pattern: string) => -(pattern.match(/[:*]/g)?.length ?? 0);
      const best = Math.max(...matches.map((match) => specificity(match.pattern)));
      return matches
        .filter((match) => specificity(match.pattern) === best)
        .map((match) => match.method)
        .sort();
    },
    /**
     * Whether the route of `request` declared `code`; in strict mode an undeclared one becomes
     * the reply of `undeclaredReply`. Hidden routes (pages, files) are outside the contract.
     */
    undeclared(request: FastifyRequest, status: number, code: string): string | null {
      const declared = request.routeOptions.config?.declaredErrors;
      if (!declared) return null;
      if (isErrorCode(code) && declared.get(status)?.includes(code)) return null;
      const route = `${request.routeOptions.method} ${request.routeOptions.url}`;
      if (!isErrorCode(code)) {
        return `${route} answered ${status} ${code}, which is not in ERROR_CODES: add it there (packages/contract/src/errors.ts) with its status, then to the route's config.errors`;
      }
      if (ERROR_STATUS[code] !== status) {
        return `${route} answered ${code} with status ${status}, but ERROR_STATUS says ${ERROR_STATUS[code]}: throw it with that status`;
      }
      return `${route} answered ${status} ${code}, which its route does not declare: add ERROR_CODES.${code} to the route's config.errors`;
    },
    strict: options.strict,
  };
}

export type ApiContract = ReturnType<typeof installApiContract>;

/**
 * 405 with `Allow` when the path of `request` exists with other methods; false (nothing sent) when
 * no route has its path. Fastify's own 404 route may fail before the not-found handler runs (a
 * QUERY without Content-Type), so the error handler asks too.
 */
export function answerMethodNotAllowed(
  contract: ApiContract,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  const allowed = contract.allowedMethods(request.url);
  if (allowed.length === 0) return false;
  void reply
    .status(ERROR_STATUS.METHOD_NOT_ALLOWED)
    .header('allow', allowed.join(', '))
    .send({
      code: ERROR_CODES.METHOD_NOT_ALLOWED,
      message: `${request.method} is not allowed here; this address answers ${allowed.join(', ')}`,
      data: null,
    });
  return true;
}

/** Every route path (hidden ones too), for 405 answers; catch-alls of the web app aside. */
function recordPath(
  paths: ReturnType<typeof FindMyWay>,
  knownMethods: Set<string>,
  route: RouteOptions,
) {
  if (route.url === '*' || route.url === '/*') return;
  for (const method of new Set([route.method].flat().map((name) => name.toUpperCase()))) {
    if (paths.hasRoute(method as never, route.url)) continue;
    try {
      paths.on(method as never, route.url, () => undefined, route.url);
      knownMethods.add(method);
    } catch (error) {
      // A method find-my-way does not know is left out of Allow; nothing else can fail here.
      void error;
    }
  }
}

/** A path parameter longer than the router allows would answer 414 to a request its schema accepts. */
function assertParamsFitRouter(route: RouteOptions) {
  const params = route.schema?.params;
  if (!(params instanceof z.ZodType)) return;
  const json = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, { maxLength?: number }>;
  };
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    if (property.maxLength === undefined || property.maxLength > MAX_PARAM_LENGTH) {
      throw new Error(
        `${route.url}: path parameter "${name}" needs .max(n) with n <= ${MAX_PARAM_LENGTH} (longer ones answer 414)`,
      );
    }
  }
}
