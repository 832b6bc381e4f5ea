import { envelopeOf, type ErrorCode } from '@moments/contract';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { z } from 'zod';
import { currentUser, requireUser } from './auth.js';
import { ok } from './envelope.js';
import { IdempotencyHeaders, idempotent } from './idempotency.js';
import type { App } from './types.js';

type Input = z.ZodType | undefined;
type Parsed<S extends Input> = S extends z.ZodType ? z.output<S> : undefined;

/** One JSON route in the house shape: what OpenAPI shows, what zod checks, what `data` holds. */
export interface JsonRouteSpec<
  B extends Input,
  Q extends Input,
  P extends Input,
  D extends z.ZodType,
> {
  summary: string;
  body?: B;
  querystring?: Q;
  params?: P;
  /** The schema of the envelope's `data` (the reply is `{ code: 0, message: 'ok', data }`). */
  data: D;
  /** The error codes the route may answer with besides the common ones (http/contract.ts). */
  errors?: readonly ErrorCode[];
  /** Other route settings, e.g. a rate limit. */
  config?: Record<string, unknown>;
  /** The largest body this route reads, in bytes (the app's own limit otherwise); more is 413. */
  bodyLimit?: number;
  /**
   * The route starts paid work: it takes an Idempotency-Key header, and a repeat with the same
   * key answers the first reply instead of running (and charging) again (http/idempotency.ts).
   */
  idempotent?: boolean;
}

/** What a handler gets: the checked input, and the request and reply for anything else. */
interface RouteCall<B extends Input, Q extends Input, P extends Input, U> {
  userId: U;
  body: Parsed<B>;
  query: Parsed<Q>;
  params: Parsed<P>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A route whose `data` is null may simply return nothing (a delete, an unshare). */
type Result<D extends z.ZodType> = D extends z.ZodNull ? void | null : z.input<D>;

type Handler<B extends Input, Q extends Input, P extends Input, D extends z.ZodType, U> = (
  call: RouteCall<B, Q, P, U>,
) => Promise<Result<D>> | Result<D>;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The id of one row, as `?id=` or as the `/:id` path segment. */
export const IdInput = z.object({ id: z.string().min(1).max(100) });
/** What a share route answers: the share's id and its public path. */
export const ShareLink = z.object({ share_id: z.string(), path: z.string() });

/**
 * The one way controllers declare a JSON route: `user` routes need a signed-in user (401
 * otherwise) and get its id; `open` routes get it when there is one. Either way the input is
 * validated by its zod schema before the handler runs and the result goes out in the envelope.
 * File replies (subtitles, fonts, video) are not JSON and stay plain Fastify routes.
 */
export function jsonRoutes(app: App, tags: string[]) {
  function add<B extends Input, Q extends Input, P extends Input, D extends z.ZodType, U>(
    method: Method,
    url: string,
    spec: JsonRouteSpec<B, Q, P, D>,
    signedIn: boolean,
    handler: Handler<B, Q, P, D, U>,
  ) {
    const config = spec.errors ? { ...spec.config, errors: spec.errors } : spec.config;
    // A plain FastifySchema: Handler already types the result against `spec.data`, and the
    // reply schema checks it again when it is sent.
    const schema: FastifySchema = {
      tags,
      summary: spec.summary,
      ...(spec.body && { body: spec.body }),
      ...(spec.querystring && { querystring: spec.querystring }),
      ...(spec.params && { params: spec.params }),
      ...(spec.idempotent && { headers: IdempotencyHeaders }),
      response: { 200: envelopeOf(spec.data) },
    };
    const preHandler = [
      ...(signedIn ? [requireUser] : []),
      ...(spec.idempotent && signedIn ? [idempotent] : []),
    ];
    app.route({
      method: method.toUpperCase() as Uppercase<Method>,
      url,
      ...(preHandler.length && { preHandler }),
      ...(config && { config }),
      ...(spec.bodyLimit && { bodyLimit: spec.bodyLimit }),
      schema,
      handler: async (request, reply) => {
        const data = await handler({
          userId: (signedIn ? currentUser(request).id : (request.user?.id ?? null)) as U,
          body: request.body as Parsed<B>,
          query: request.query as Parsed<Q>,
          params: request.params as Parsed<P>,
          request,
          reply,
        });
        return ok(data ?? null);
      },
    });
  }
  const routes =
    <U>(signedIn: boolean) =>
    <
      B extends Input = undefined,
      Q extends Input = undefined,
      P extends Input = undefined,
      D extends z.ZodType = z.ZodType,
    >(
      method: Method,
      url: string,
      spec: JsonRouteSpec<B, Q, P, D>,
      handler: Handler<B, Q, P, D, U>,
    ) =>
      add(method, url, spec, signedIn, handler);
  /**
   * Most owner routes act on one row by its id and need nothing else (get, delete, share,
   * unshare): declared in one line each, the id read from the path when the url has `/:id`,
   * from `?id=` otherwise.
   */
  function userById<D extends z.ZodType>(
    method: Method,
    url: string,
    summary: string,
    data: D,
    run: (userId: string, id: string) => Promise<Result<D>> | Result<D>,
  ) {
    const inPath = url.includes('/:id');
    const spec = inPath
      ? { summary, data, params: IdInput }
      : { summary, data, querystring: IdInput };
    add<undefined, Input, Input, D, string>(method, url, spec, true, ({ userId, params, query }) =>
      run(userId, ((inPath ? params : query) as z.output<typeof IdInput>).id),
    );
  }
  return {
    /** A route for signed-in users only. */
    user: routes<string>(true),
    userById,
    /** A route anyone may call; `userId` is null without a session. */
    open: routes<string | null>(false),
  };
}
